"""A bounded, reproducible sample of mutation testing: ``N`` random mutants per module.

mutmut (configured in pyproject.toml, ``[tool.mutmut]``) makes every mutant of the listed modules;
running all of them takes hours on a small machine. This script lets mutmut make them and measure which
tests reach which function (once), draws ``--per-module`` mutants of each module with ``--seed``, runs
only those, and prints the kill rate per module with the survivors (``mutmut show NAME`` shows one).

    python scripts/mutants_sample.py --per-module 30 --seed 1 [--only builders.server.*]

A killed mutant is one that some test fails on, that times out, or whose test process dies; "no tests"
are mutants that no test of the selection reaches, counted as survivors. The result is also written to mutants/sample.json.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import random
import subprocess
import sys
from pathlib import Path

#: mutmut's exit codes of a detected mutant: a failing test (1, 3), a timeout (36, 24, -24, 152, 255), or
#: a test process that died or was stopped (-9, -11, -15: a mutant that makes a search endless is
#: stopped by hand or by the memory limit)
KILLED = {1, 3, 36, 24, -24, 152, 255, -9, -11, -15}
NO_SUCH_MUTANT = "builders.no_such_module.x_none__mutmut_0"


def mutmut(*args: str) -> int:
    return subprocess.call([str(Path(sys.executable).with_name("mutmut")), *args])


def mutants_by_module() -> dict[str, dict[str, int | None]]:
    out: dict[str, dict[str, int | None]] = {}
    for meta in sorted(Path("mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        module = ".".join(meta.relative_to("mutants/src").with_suffix("").with_suffix("").parts)
        out[module] = data["exit_code_by_key"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-module", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="*", help="a pattern of module names (default: every module)")
    parser.add_argument("--max-children", default="1")
    parser.add_argument("--report", action="store_true",
                        help="only report the sample's results so far (of an earlier or interrupted run)")
    args = parser.parse_args()
    if args.per_module < 1:
        print("error: --per-module must be at least 1", file=sys.stderr)
        return 2

    # make the mutants and the test statistics (the filter matches nothing, so no mutant runs yet)
    if not args.report and (not Path("mutants/mutmut-stats.json").exists() or not mutants_by_module()):
        mutmut("run", "--max-children", args.max_children, NO_SUCH_MUTANT)
    modules = {m: names for m, names in mutants_by_module().items() if fnmatch.fnmatch(m, args.only)}
    if not modules:
        print("error: no mutants were made (see the mutmut output above)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    sample = {m: sorted(rng.sample(sorted(names), min(args.per_module, len(names)))) for m, names in modules.items()}
    chosen = [n for names in sample.values() for n in names]
    if not args.report:
        mutmut("run", "--max-children", args.max_children, *chosen)

    results = mutants_by_module()
    report: dict[str, dict] = {}
    print(f"\n{'module':40} {'killed':>7} {'sample':>7} {'all':>6} {'rate':>7}")
    for module, names in sample.items():
        codes = {n: results[module].get(n) for n in names}
        checked = {n: c for n, c in codes.items() if c is not None}
        killed = sum(1 for c in checked.values() if c in KILLED)
        survivors = sorted(n for n, c in checked.items() if c not in KILLED)
        rate = killed / len(checked) if checked else float("nan")
        report[module] = {"killed": killed, "checked": len(checked), "mutants": len(modules[module]),
                          "rate": rate, "survivors": {n: codes[n] for n in survivors}}
        print(f"{module:40} {killed:7} {len(checked):7} {len(modules[module]):6} {rate:7.1%}")
    total = sum(r["checked"] for r in report.values())
    killed = sum(r["killed"] for r in report.values())
    if total:
        print(f"{'all':40} {killed:7} {total:7} {'':6} {killed / total:7.1%}")
    print("\nsurvivors (mutmut show NAME):")
    for module, r in report.items():
        for name, code in r["survivors"].items():
            print(f"  {name}  ({'no tests' if code in (5, 33) else code})")
    Path("mutants/sample.json").write_text(json.dumps(
        {"seed": args.seed, "per_module": args.per_module, "modules": report}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
