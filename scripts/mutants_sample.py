"""A bounded, reproducible sample of mutation testing: ``N`` random mutants per module.

mutmut (configured in pyproject.toml, ``[tool.mutmut]``) makes every mutant of the listed modules;
running all of them takes hours on a small machine. This script lets mutmut make them and measure which
tests reach which function (once), draws ``--per-module`` mutants of each module with ``--seed``, runs
only those, and prints the kill rate per module with the survivors (``mutmut show NAME`` shows one).

    python scripts/mutants_sample.py --per-module 30 --seed 1 [--only builders.server.*]
    python scripts/mutants_sample.py --per-module 30 --seed 1 --only 'builders.server.*' --tests tests/server

With ``--tests``, only those tests are run (for the server modules, ``tests/server``: far shorter than
the whole selection) and only the modules that ``--only`` names are mutated; that run has its own
directory, ``mutants/groups/<name>/`` (mutmut's ``mutants/`` inside it; ``mutmut show NAME`` is run
there), so it neither resets nor mixes with the default run's results in ``mutants/``.

A route made inside a function (``router()``, ``create_app``) is part of that function's mutants, and
mutmut pairs them with only the tests that called the function while its statistics were taken (the
first test that built the app in each test module). ``--every-test router,create_app`` runs the
mutants of the functions of those names (``Class.method`` for a method; patterns allowed) against every
test of the selection instead.

A killed mutant is one that some test fails on, that times out, or whose test process dies; "no tests"
are mutants that no test of the selection reaches, counted as survivors. The result is also written to
mutants/sample.json (and, with ``--tests``, to the group's own directory).
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

#: mutmut's exit codes of a detected mutant: a failing test (1, 3), a timeout (36, 24, -24, 152, 255), or
#: a test process that died or was stopped (-9, -11, -15: a mutant that makes a search endless is
#: stopped by hand or by the memory limit)
KILLED = {1, 3, 36, 24, -24, 152, 255, -9, -11, -15}
NO_SUCH_MUTANT = "builders.no_such_module.x_none__mutmut_0"
#: mutmut with some of its settings replaced (a JSON object, the first argument) for this run only
LAUNCH = (
    "import json, sys\n"
    "from mutmut.configuration import config\n"
    "for key, value in json.loads(sys.argv.pop(1)).items():\n"
    "    setattr(config(), key, value)\n"
    "from mutmut.__main__ import cli\n"
    "sys.argv[0] = 'mutmut'\n"
    "sys.exit(cli())\n"
)


def matches(module: str, only: str) -> bool:
    """Whether ``module`` matches one of the comma-separated patterns ``only``."""
    return any(fnmatch.fnmatch(module, pattern.strip()) for pattern in only.split(","))


def module_of(path: str) -> str:
    """``src/builders/server/chat.py`` -> ``builders.server.chat``."""
    return ".".join(Path(path).relative_to("src").with_suffix("").parts)


class Runner:
    """mutmut run in ``root`` (its results in ``root/mutants``), with ``settings`` replacing pyproject's."""

    def __init__(self, root: Path, settings: dict[str, list[str]]) -> None:
        self.root = root
        self.settings = settings

    def mutmut(self, *args: str) -> int:
        if not self.settings:
            return subprocess.call([str(Path(sys.executable).with_name("mutmut")), *args], cwd=self.root)
        return subprocess.call([sys.executable, "-c", LAUNCH, json.dumps(self.settings), *args], cwd=self.root)

    def mutants_by_module(self) -> dict[str, dict[str, int | None]]:
        out: dict[str, dict[str, int | None]] = {}
        src = self.root / "mutants" / "src"
        for meta in sorted(src.rglob("*.py.meta")):
            data = json.loads(meta.read_text(encoding="utf-8"))
            module = ".".join(meta.relative_to(src).with_suffix("").with_suffix("").parts)
            out[module] = data["exit_code_by_key"]
        return out


def function_of(mangled: str) -> str:
    """mutmut's mangled name of a function -> its plain name: ``builders.server.seats.x_router`` ->
    ``router``, ``builders.server.accounts.xǁAccountsǁsession`` -> ``Accounts.session``."""
    name = mangled.rpartition(".")[2]
    if name.startswith("xǁ"):
        return ".".join(name[2:].split("ǁ"))
    return name.removeprefix("x_")


def test_every_mutant_of(stats: Path, patterns: str, mutants: list[str]) -> list[str]:
    """Pair the mutants of the functions named by ``patterns`` with every test in mutmut's statistics
    ``stats`` (not only the tests that called the function while they were taken); the functions so
    paired."""
    data = json.loads(stats.read_text(encoding="utf-8"))
    everything = sorted(data["duration_by_test"])
    tests = data["tests_by_mangled_function_name"]
    names = {m.partition("__mutmut_")[0] for m in mutants} | set(tests)
    widened = sorted(n for n in names if matches(function_of(n), patterns))
    for name in widened:
        tests[name] = everything
    stats.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return widened


def group_runner(tests: list[str], only: str) -> Runner:
    """The runner of the tests ``tests`` over the modules of ``only_mutate`` that match ``only``, in
    its own directory under mutants/groups (the work tree's src and tests linked into it)."""
    config = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    files = [f for f in config["only_mutate"] if matches(module_of(f), only)]
    key = f"{only} {' '.join(t for t in tests if not t.startswith('--deselect'))}"  # a test left out: the same mutants
    name = (
        re.sub(r"[^A-Za-z0-9]+", "-", key.replace("builders.", "")).strip("-")[:60]
        + "-"
        + hashlib.sha1(key.encode()).hexdigest()[:8]
    )
    root = Path("mutants", "groups", name)
    root.mkdir(parents=True, exist_ok=True)
    for link in ("src", "tests", "pyproject.toml"):
        if not (root / link).is_symlink():
            (root / link).symlink_to(Path("..", "..", "..", link))
    return Runner(root, {"only_mutate": files, "pytest_add_cli_args_test_selection": tests})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-module", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only", default="*", help="patterns of module names, separated by commas (default: every module)"
    )
    parser.add_argument(
        "--tests",
        nargs="+",
        metavar="PATH",
        help="run only these tests (and mutate only the modules of --only), in a directory "
        "of their own under mutants/groups",
    )
    parser.add_argument(
        "--deselect",
        action="append",
        default=[],
        metavar="NODE",
        help="leave this test out of a --tests run (a test that fails on the code as it is "
        "stops mutmut's first run); may be given again",
    )
    parser.add_argument(
        "--every-test",
        default="",
        metavar="NAMES",
        help="run the mutants of these functions (names or patterns, separated by commas: "
        "router,create_app,Class.method) against every test of the selection, not only "
        "the tests that called them while mutmut's statistics were taken",
    )
    parser.add_argument("--max-children", default="1")
    parser.add_argument(
        "--report",
        action="store_true",
        help="only report the sample's results so far (of an earlier or interrupted run)",
    )
    args = parser.parse_args()
    if args.per_module < 1:
        print("error: --per-module must be at least 1", file=sys.stderr)
        return 2
    if args.deselect and not args.tests:
        print("error: --deselect goes with --tests (pyproject.toml holds the default run's selection)", file=sys.stderr)
        return 2
    selection = [*(args.tests or []), *(f"--deselect={node}" for node in args.deselect)]
    runner = group_runner(selection, args.only) if args.tests else Runner(Path("."), {})
    if args.tests and not runner.settings["only_mutate"]:
        print(f"error: no module of [tool.mutmut] only_mutate matches {args.only!r}", file=sys.stderr)
        return 2

    # make the mutants and the test statistics (the filter matches nothing, so no mutant runs yet)
    stats = runner.root / "mutants" / "mutmut-stats.json"
    if not args.report and (not stats.exists() or not runner.mutants_by_module()):
        runner.mutmut("run", "--max-children", args.max_children, NO_SUCH_MUTANT)  # (exits 1: nothing matches)
        if not stats.exists():
            print(
                "error: mutmut's first run failed (a test that fails on the code as it is? see above; "
                "--deselect leaves it out)",
                file=sys.stderr,
            )
            return 2
    modules = {m: names for m, names in runner.mutants_by_module().items() if matches(m, args.only)}
    if not modules:
        print("error: no mutants were made (see the mutmut output above)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    sample = {m: sorted(rng.sample(sorted(names), min(args.per_module, len(names)))) for m, names in modules.items()}
    chosen = [n for names in sample.values() for n in names]
    if args.every_test and not args.report:
        widened = test_every_mutant_of(stats, args.every_test, chosen)
        print(f"run against every test: {', '.join(function_of(n) for n in widened) or 'no function matches'}")
    if not args.report:
        runner.mutmut("run", "--max-children", args.max_children, *chosen)

    results = runner.mutants_by_module()
    report: dict[str, dict] = {}
    print(f"\n{'module':40} {'killed':>7} {'sample':>7} {'all':>6} {'rate':>7}")
    for module, names in sample.items():
        codes = {n: results[module].get(n) for n in names}
        checked = {n: c for n, c in codes.items() if c is not None}
        killed = sum(1 for c in checked.values() if c in KILLED)
        survivors = sorted(n for n, c in checked.items() if c not in KILLED)
        rate = killed / len(checked) if checked else float("nan")
        report[module] = {
            "killed": killed,
            "checked": len(checked),
            "mutants": len(modules[module]),
            "rate": rate,
            "survivors": {n: codes[n] for n in survivors},
        }
        print(f"{module:40} {killed:7} {len(checked):7} {len(modules[module]):6} {rate:7.1%}")
    total = sum(r["checked"] for r in report.values())
    killed = sum(r["killed"] for r in report.values())
    if total:
        print(f"{'all':40} {killed:7} {total:7} {'':6} {killed / total:7.1%}")
    where = "" if runner.root == Path(".") else f", in {runner.root}"
    print(f"\nsurvivors (mutmut show NAME{where}):")
    for module, r in report.items():
        for name, code in r["survivors"].items():
            print(f"  {name}  ({'no tests' if code in (5, 33) else code})")
    text = json.dumps(
        {"seed": args.seed, "per_module": args.per_module, "tests": selection or None, "modules": report}, indent=1
    )
    for place in {Path("mutants"), runner.root / "mutants"}:
        place.mkdir(parents=True, exist_ok=True)
        (place / "sample.json").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
