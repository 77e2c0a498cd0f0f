# Two commands for a fresh machine (see README): `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

CHROMIUM ?= /usr/bin/chromium

.PHONY: run test lint format install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

# The browser tests drive Debian's Chromium (never a downloaded browser).
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "The browser tests need Debian's chromium: sudo apt-get install chromium"; exit 1; \
	fi

## Install, migrate, load the demo tournament and serve http://$(HOST):$(PORT)
run: $(STAMP)
	$(BIN)/python manage.py compiletranslations
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

## The full suite: lint, tests with coverage, 100% branch coverage of the rules engine
test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py compiletranslations
	$(BIN)/python -m pytest --cov --cov-branch --cov-report=term -p no:cacheprovider $(PYTEST_ARGS)
	$(BIN)/python -m coverage report --fail-under=100 --include="scoring/rules.py,scoring/skat.py,scoring/validation.py,scoring/rating.py,scoring/settlement.py,scoring/sheet.py"

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .coverage htmlcov .pytest_cache .hypothesis
