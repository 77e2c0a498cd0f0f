# Two commands for a fresh machine (see README): `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 0.0.0.0
PORT ?= 8000

CHROMIUM ?= /usr/bin/chromium

.PHONY: run dev test lint format install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
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

## Install and serve the hall: gunicorn on the laptop's network (HOST, PORT), DEBUG off,
## the demo in an empty database; prints the address phones use, its QR code and the
## director's login on the first start (manage.py serve).
run: $(STAMP)
	$(BIN)/python manage.py compiletranslations
	PORT=$(PORT) $(BIN)/python manage.py serve --bind $(HOST) --port $(PORT)

## A developer's server: runserver on loopback with DEBUG on (never for a hall).
dev: $(STAMP)
	$(BIN)/python manage.py compiletranslations
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	DEBUG=1 OFFICE_URL=http://127.0.0.1:$(PORT) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

## The full suite: lint; the rules engine's own tests without Django at 100% branch
## coverage (skat/tests); then the office's tests (tests/). One pytest worker per core
## (pytest-xdist; PYTEST_WORKERS=0 runs in one process). COVERAGE=0 runs the engine's
## tests without measuring; ENGINE_TESTS=0 skips them (.ci/run's second database: the
## engine needs no database, so its tests ran already on the first).
PYTEST_WORKERS ?= auto
COVERAGE ?= 1
ENGINE_TESTS ?= 1
ifeq ($(COVERAGE),1)
ENGINE_COVERAGE := --cov=skat --cov-branch --cov-report=term --cov-fail-under=100
endif
# Without pytest-django its settings line in pyproject is unknown: say nothing of it.
NO_DJANGO := -p no:django -W "ignore:Unknown config option:pytest.PytestConfigWarning"
test: $(STAMP) $(CHROMIUM) $(PDFTOPPM)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
ifeq ($(ENGINE_TESTS),1)
	$(BIN)/python -m pytest $(NO_DJANGO) -n $(PYTEST_WORKERS) $(ENGINE_COVERAGE) -p no:cacheprovider skat/tests
endif
	$(BIN)/python manage.py compiletranslations
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --durations=15 -p no:cacheprovider tests $(PYTEST_ARGS)

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .coverage htmlcov .pytest_cache .hypothesis
