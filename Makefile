# Two commands work on a fresh machine with Python 3.11+ and make: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# (setup.py and the C source too: the install compiles the optional speed-up)
SOURCES := pyproject.toml setup.py shared/variants/freecell/_children.c

$(STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(TEST_STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/patience-club serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
