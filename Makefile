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

# (setup.py, the C source and the engine's modules too: the install compiles them where a C
# compiler works, docs/architecture.md "The compiled build"; a source edited since is run pure)
SOURCES := pyproject.toml setup.py shared/variants/freecell/_children.c \
	$(wildcard shared/*.py shared/variants/*.py shared/variants/freecell/*.py \
	shared/stuck/*.py shared/solver/*.py)
# the build the tests expect: compiled where the C compiler works, else the pure fallback
EXPECT_BUILD := $(shell echo 'int main(void){return 0;}' | $${CC:-cc} -x c - -o /dev/null \
	2>/dev/null && echo compiled || echo pure)
# the tests run again in the pure build: the engine's and the solver's
PURE_TESTS := tests/shared tests/test_toy_variant.py

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
	PATIENCE_EXPECT_BUILD=$(EXPECT_BUILD) $(BIN)/python -m pytest -q -n auto
	PATIENCE_PURE=1 PATIENCE_EXPECT_BUILD=pure $(BIN)/python -m pytest -q -n auto $(PURE_TESTS)

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
