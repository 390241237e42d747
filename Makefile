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

# (setup.py and the C source too: the install compiles the optional speed-ups)
SOURCES := pyproject.toml setup.py shared/variants/freecell/_children.c shared/variants/_keys.c \
	server/net/_sendeach.c
# the modules of the compiled build (docs/architecture.md, "The compiled build"): one edited
# since the last build runs pure until built again, which `make run` and `make test` do
ENGINE := $(wildcard shared/*.py shared/variants/*.py shared/variants/freecell/*.py \
	shared/stuck/*.py shared/solver/*.py)
BUILT := $(VENV)/.built
# the build the tests expect: compiled where the C compiler works, else the pure fallback
EXPECT_BUILD := $(shell echo 'int main(void){return 0;}' | $${CC:-cc} -x c - -o /dev/null \
	2>/dev/null && echo compiled || echo pure)
# the tests run again in the pure build: the engine's, the stuck proofs' and the solver's
PURE_TESTS := tests/shared tests/test_toy_variant.py

$(STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@ $(BUILT)

$(TEST_STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(STAMP) $(BUILT)

$(BUILT): $(ENGINE) | $(BIN)/python
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $@

run: $(STAMP) $(BUILT)
	$(BIN)/patience-club serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

test: $(TEST_STAMP) $(BUILT)
	$(BIN)/ruff check .
	$(BIN)/mypy
	PATIENCE_EXPECT_BUILD=$(EXPECT_BUILD) $(BIN)/python -m pytest -q -n auto
	PATIENCE_PURE=1 PATIENCE_EXPECT_BUILD=pure $(BIN)/python -m pytest -q -n auto $(PURE_TESTS)

bench: $(STAMP) $(BUILT)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
