# Two entry points: `make play` and `make test`. Both install into .venv first: `make play` the game
# and its web server (the server extra), `make test` everything the whole suite needs (the test extra).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TESTS  := $(VENV)/.installed-tests

# apt-get needs root; use sudo when we are not root.
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: play test test-core test-all-cores fuzz install native chromium npm services bench clean mutants

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# the distribution was called builders before it was builders-games: drop an old editable install
	@$(BIN)/python -m pip uninstall --quiet --yes builders 2>/dev/null || true
	@rm -rf src/builders.egg-info
	$(BIN)/python -m pip install --quiet -e '.[server]'
	@touch $(STAMP)

$(TESTS): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(TESTS)

install: $(TESTS) native

# The native core (native/, C++): optional. A failed build leaves the Python engines playing.
NATIVE := $(VENV)/.installed-native
native: $(NATIVE)
$(NATIVE): $(wildcard native/src/*) native/CMakeLists.txt native/pyproject.toml | $(STAMP)
	@command -v g++ >/dev/null 2>&1 || $(SUDO) sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential cmake >/dev/null' || true
	@if CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/python -m pip install --quiet ./native >$(VENV)/native-build.log 2>&1; then touch $@; else echo "native core not built (see $(VENV)/native-build.log): using the Python engines"; fi

play: $(STAMP)
	$(BIN)/builders serve

# The browser tests drive Debian's Chromium (no browser is downloaded).
chromium:
	@command -v chromium >/dev/null 2>&1 || $(SUDO) sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null'

# The browser tests' accessibility scan packs axe-core from the npm registry into out/cache/ once.
npm:
	@command -v npm >/dev/null 2>&1 || $(SUDO) sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null'

# The server tests start their own throwaway PostgreSQL and Redis (Debian's packages; no service is
# started system-wide).
services:
	@{ command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } && command -v redis-server >/dev/null 2>&1 || $(SUDO) sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null'

# The whole suite runs on the default core (the native one when it is built); the tests of the
# engines, the bots, the research kit and the server's play and views run again on the Python engines
# (BUILDERS_CORE=python), so both cores are tested; the browser tests, the rest of the server's
# (its bots' and analyses' handling is the same on either core) and tests/native (which compares the
# cores itself) run once, and so do the tests that play no game or choose their core themselves
# (tests/core's toy game, the calibration tables, tests/rl/test_cores.py), and the tests of the
# harnesses around the games, the same code on either core (the benchmark scripts' matches and
# reports, the tournament's backends, the learning libraries' examples, the hints checked against a
# whole game's analysis: tests/native checks the searches themselves alike). `make test-all-cores` runs
# the whole suite on each core. Each pass lists its slowest tests (--durations), so a run's log says
# where its time went. Each worker takes a contiguous half of the tests and an idle one takes half of
# what the other has left (--dist worksteal), so a test file (its server, its browser) stays on one worker.
PYTHON_CORE_TESTS := tests/kingdom tests/middle_ages tests/ai tests/rl \
	tests/server/test_play.py tests/server/test_views.py \
	--ignore=tests/ai/test_calibration.py --ignore=tests/rl/test_cores.py \
	--ignore=tests/ai/test_paired_benchmark.py --ignore=tests/ai/test_strength_report.py \
	--ignore=tests/ai/test_speed_benchmark.py --ignore=tests/ai/test_fit_benchmark.py \
	--ignore=tests/ai/test_tournament.py --ignore=tests/rl/test_examples.py \
	--deselect=tests/ai/test_analysis.py::test_a_hint_is_the_move_and_the_chance_the_analysis_shows
test: $(TESTS) chromium npm services native
	$(BIN)/lint-imports --no-logo --no-cache
	$(BIN)/python -m pytest --dist worksteal --durations=40
	@if [ -f $(NATIVE) ]; then echo "again on the Python engines (BUILDERS_CORE=python):"; \
	  BUILDERS_CORE=python $(BIN)/python -m pytest --dist worksteal --durations=20 $(PYTHON_CORE_TESTS); fi

# The whole suite on each core in turn (about twice `make test`'s time)
test-all-cores: $(TESTS) chromium npm services native
	$(BIN)/python -m pytest
	BUILDERS_CORE=python $(BIN)/python -m pytest

# Only the tests that run on both cores, on one of them: make test-core CORE=python (or native)
test-core: $(TESTS) native
	BUILDERS_CORE=$(or $(CORE),python) $(BIN)/python -m pytest $(PYTHON_CORE_TESTS)

# The server's fuzz tests with a long budget (docs/testing.md): `make test` draws 8 examples of each
# input, this 100 (EXAMPLES=n for another count), with an hour for each test instead of 10 minutes.
fuzz: $(TESTS)
	BUILDERS_FUZZ_EXAMPLES=$(or $(EXAMPLES),100) $(BIN)/python -m pytest -n 0 --timeout 3600 --durations=5 tests/server/test_fuzz.py

# Mutation testing (docs/testing.md), not part of `make test`: every mutant takes hours on a small
# machine; `make mutants SAMPLE=30` runs 30 random mutants per module (SEED=1 by default).
mutants: $(TESTS)
	$(BIN)/python -m pip install --quiet -e '.[test,mutants]'
ifdef SAMPLE
	$(BIN)/python scripts/mutants_sample.py --per-module $(SAMPLE) --seed $(or $(SEED),1) $(MUTANTS_ARGS)
else
	$(BIN)/mutmut run
	$(BIN)/mutmut results
endif

bench: $(STAMP)
	$(BIN)/builders bench kingdom
	$(BIN)/builders bench middle-ages

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants
