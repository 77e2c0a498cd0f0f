# Two commands for a fresh machine (see README): `make run` and `make test`; `make docs` builds the help.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 0.0.0.0
PORT ?= 8000

CHROMIUM ?= /usr/bin/chromium

# Bytecode kept for pytest even where the machine sets PYTHONDONTWRITEBYTECODE (this one
# does): without it each pytest worker rewrites the asserts of every test module and
# compiles them again (10-15 s a worker), and so does every office a test starts. Kept in
# the venv, never beside the sources; what the tests' temporary folders leave there (a
# wheel installed into a temporary venv) is removed before each run.
PYCACHE := $(VENV)/pycache
KEEP_BYTECODE := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(PYCACHE)

.PHONY: run dev test test-fast mutation lint format install clean docs windows

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,docs]"
	touch $(STAMP)

install: $(STAMP)

# The browser tests drive Debian's Chromium (never a downloaded browser) and render the
# PDFs they print to PNG with Debian's poppler-utils, to be looked at.
PDFTOPPM ?= /usr/bin/pdftoppm
$(CHROMIUM) $(PDFTOPPM) &:
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils >/dev/null; \
	else \
		echo "The browser tests need Debian's chromium and poppler-utils: sudo apt-get install chromium poppler-utils"; exit 1; \
	fi

## Install and serve the hall: waitress in manage.py serve's own process on the laptop's
## network (HOST, PORT), DEBUG off, the demo in an empty database; prints the address phones use, its QR code and the
## director's login on the first start (manage.py serve).
## The help (as make docs) is built first, so the office's Help link works in the hall;
## without Chromium for the screenshots (and none taken yet) the pages are built without
## them. (No $(MAKE) in a recipe line here: make -n would run that line.)
run: $(STAMP)
	$(BIN)/python manage.py compiletranslations
	@if [ -x $(CHROMIUM) ] || [ -s $(SCREENS)/desktop-dashboard.png ]; then \
		$(SCREENSHOTS_IF_MISSING) && $(MKDOCS) build --strict --quiet; \
	else \
		echo "No $(CHROMIUM) for the help's screenshots: the help is built without them (make docs takes them)."; \
		$(MKDOCS) build --quiet; \
	fi
	PORT=$(PORT) $(BIN)/python manage.py serve --bind $(HOST) --port $(PORT)

## The help pages (mkdocs.yml): docs/pages -> docs/site, which the office serves at /help/.
## Strict: a broken link, a missing page or image fails. The screenshots the pages show
## come from a browser test (tests/browser/test_docs_screenshots.py), run here first when
## none are taken yet; SCREENSHOTS=1 takes them again.
SCREENS := docs/pages/img/screens
SCREENSHOTS ?= 0
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
SCREENSHOTS_IF_MISSING := { [ "$(SCREENSHOTS)" != 1 ] && [ -s $(SCREENS)/desktop-dashboard.png ] || { \
	$(BIN)/python manage.py compiletranslations && \
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -q -p no:cacheprovider tests/browser/test_docs_screenshots.py; }; }
docs: $(STAMP) $(CHROMIUM)
	@$(SCREENSHOTS_IF_MISSING)
	$(MKDOCS) build --strict --quiet
	@echo "Help pages built in docs/site (served at /help/)."

## The release: the Windows zip dist/skat-office-X-windows.zip (CPython for Windows, the
## office and its dependencies for Windows, "Skat Office.cmd" to double-click; built here on
## Linux, .ci/windows_package.py) and beside it the wheel macOS and Linux install with pipx.
## The help is built first, so it is inside both.
windows: docs
	$(BIN)/python .ci/windows_package.py --out dist

## A developer's server: runserver on loopback with DEBUG on (never for a hall).
dev: $(STAMP)
	$(BIN)/python manage.py compiletranslations
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	DEBUG=1 OFFICE_URL=http://127.0.0.1:$(PORT) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

## The full suite: lint; the rules engine's own tests without Django at 100% branch
## coverage (skat/tests; the exhaustive grid, marker slow, apart and unmeasured: it covers
## nothing the others do not and tracing made it six times slower); then the office's tests (tests/); then the help pages, strict
## (after the tests: the suite's browser test has taken their screenshots). One pytest worker per core
## (pytest-xdist; PYTEST_WORKERS=0 runs in one process). COVERAGE=0 runs the engine's
## tests without measuring; ENGINE_TESTS=0 skips them (.ci/run's second database: the
## engine needs no database, so its tests ran already on the first).
PYTEST_WORKERS ?= auto
COVERAGE ?= 1
ENGINE_TESTS ?= 1
# DATABASE_AGNOSTIC=0 skips what answers the same on every database: lint and the docs
# build (.ci/run's second database; they ran on the first).
DATABASE_AGNOSTIC ?= 1
ifeq ($(COVERAGE),1)
ENGINE_COVERAGE := --cov=skat --cov-branch --cov-report=term --cov-fail-under=100
endif
# Without pytest-django its settings line in pyproject is unknown: say nothing of it.
NO_DJANGO := -p no:django -W "ignore:Unknown config option:pytest.PytestConfigWarning"
test: $(STAMP) $(CHROMIUM) $(PDFTOPPM)
	rm -rf $(PYCACHE)/tmp
ifeq ($(DATABASE_AGNOSTIC),1)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
endif
ifeq ($(ENGINE_TESTS),1)
	$(KEEP_BYTECODE) $(BIN)/python -m pytest $(NO_DJANGO) -n $(PYTEST_WORKERS) $(ENGINE_COVERAGE) -m "not slow" -p no:cacheprovider skat/tests
	$(KEEP_BYTECODE) $(BIN)/python -m pytest $(NO_DJANGO) -n $(PYTEST_WORKERS) -m slow -q -p no:cacheprovider skat/tests
endif
	$(BIN)/python manage.py compiletranslations
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=15 -p no:cacheprovider tests $(PYTEST_ARGS)
ifeq ($(DATABASE_AGNOSTIC),1)
	$(MAKE) --no-print-directory docs
endif

## A developer's quick check (under 3 minutes on a 2-core machine, no browser): lint, the
## engine's tests without the exhaustive grid, and the office's tests on SQLite without the
## browser tests, the big parametrisations (marker heavy) and the long end-to-end checks
## (marker slow; both by name in tests/conftest.py), the fuzz tests' first 8 examples.
## `make test` runs everything; CI runs `make test`.
FAST_WORKERS ?= 2
FAST := -m "not browser and not slow and not heavy"
# The Skatordnung tests/referees/test_paragraphs.py checks against (../shared or ../../shared).
test-fast: FAST_REFERENCE = $(wildcard ../shared/reference/000_*.txt ../../shared/reference/000_*.txt)
test-fast: $(STAMP)
	rm -rf $(PYCACHE)/tmp
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(KEEP_BYTECODE) $(BIN)/python -m pytest $(NO_DJANGO) -n $(FAST_WORKERS) $(FAST) -q -p no:cacheprovider skat/tests
	$(BIN)/python manage.py compiletranslations
	$(if $(FAST_REFERENCE),,@echo "test-fast: no shared/reference beside the checkout: the paragraph list is not checked against the Skatordnung (SKAT_NO_REFERENCE=1; make test fails without it)")
	$(KEEP_BYTECODE) DATABASE_URL= FUZZ_EXAMPLES=8 $(if $(FAST_REFERENCE),,SKAT_NO_REFERENCE=1) $(BIN)/python -m pytest -n $(FAST_WORKERS) $(FAST) -q --durations=10 -p no:cacheprovider tests $(PYTEST_ARGS)

## Mutation testing of the engine (mutmut; its settings in pyproject.toml [tool.mutmut]):
## every mutant of skat/ against skat/tests, then the survivors. Passes only when none
## survives but those listed, with why each is equivalent, in skat/tests/equivalent_mutants.md.
## MUTATION_MINUTES bounds the run (default 90); mutmut goes on where it stopped next time.
## MUTANTS selects some (e.g. MUTANTS='skat.validation*'). Not part of CI: it takes over an hour.
## Then the hand-written mutants mutmut cannot make (a call or an argument changed, a
## clause left out: skat/tests/hand_mutants.py), each on a copy of skat/: passes only
## when every one is killed and each still matches the code exactly once.
MUTATION_MINUTES ?= 90
MUTANTS ?=
mutation: $(STAMP)
	timeout --foreground $$(( $(MUTATION_MINUTES) * 60 )) $(BIN)/mutmut run --max-children $(FAST_WORKERS) $(MUTANTS) || [ $$? -ne 124 ] || { echo "make mutation: stopped after $(MUTATION_MINUTES) minutes; run it again to go on"; exit 1; }
	$(BIN)/python skat/tests/equivalent_mutants.py
	$(BIN)/python skat/tests/hand_mutants.py --jobs $(FAST_WORKERS)

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .coverage htmlcov .pytest_cache .hypothesis docs/site
