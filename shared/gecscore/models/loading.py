"""Loading a transformers model for a model-backed metric: a local folder (a released
checkpoint, unpacked), a local GGUF file (a llama.cpp-format checkpoint, dequantised by
transformers on load) or a Hub name, with one clear error when it cannot be had.

Every model metric of gecscore (SOME's three regressors, IMPARA's quality estimator and
similarity encoder, Scribendi's language model) goes through :func:`load_pretrained`, so a
user's checkpoint and the tiny test models take the same path. A name that is neither a local
folder nor in the Hugging Face cache, with the Hub unreachable, fails at once (transformers
would retry for about 30 s) naming the option that gives a local folder.
"""
from __future__ import annotations

import contextlib
import io
import os
from typing import Any, Callable

from gecscore.errors import MissingModelError


def torch_device(device: str | None) -> str:
    """``device``, or cuda when there is one, else cpu."""
    import torch

    if device:
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def pretrained_source(model: str) -> tuple[str, dict[str, str]]:
    """``from_pretrained``'s first argument and keyword arguments for ``model``: a ``.gguf`` file
    is read from its folder with ``gguf_file=`` its name; a folder or Hub name as it is.

        >>> pretrained_source("gpt2")
        ('gpt2', {})
    """
    if model.lower().endswith(".gguf") and os.path.isfile(model):
        folder, name = os.path.split(os.path.abspath(model))
        return folder, {"gguf_file": name}
    return model, {}


def load_pretrained(model: str, option: str, purpose: str,
                    build: Callable[[Any, str], Any]) -> Any:
    """``build(transformers, model)`` (which calls ``from_pretrained``, with
    :func:`pretrained_source`'s arguments), with torch and transformers checked first and a
    :class:`MissingModelError` naming ``option`` (the metric option that takes a local folder)
    when the model cannot be loaded. The libraries' own progress bars stay off while it loads
    (transformers' GGUF reader draws a tqdm bar that its progress switch does not govern: its
    stderr is set aside for the load)."""
    from gecscore.extras import require
    from gecscore.models.hub import unreachable_reason
    from gecscore.progress import quiet_libraries

    quiet_libraries(False)
    require("torch", purpose)
    transformers = require("transformers", purpose)
    gguf = bool(pretrained_source(model)[1])
    if gguf:
        require("gguf", f"{purpose} from a GGUF file")
        require("accelerate", f"{purpose} from a GGUF file")
    reason = unreachable_reason(model)
    if reason is not None:
        raise missing(model, option, purpose, reason)
    try:
        with contextlib.redirect_stderr(io.StringIO()) if gguf else contextlib.nullcontext():
            return build(transformers, model)
    except (OSError, ValueError) as error:
        raise missing(model, option, purpose, f"{type(error).__name__}: {error}") from error


def missing(model: str, option: str, purpose: str, reason: str) -> MissingModelError:
    return MissingModelError(f"cannot load {model!r} for {purpose} ({reason}); give a local folder with "
                             f"{option}= or make the Hugging Face Hub reachable")


def model_identity(model: str) -> str:
    """A model as caches tell models apart: a local folder or file by its resolved path."""
    return os.path.realpath(model) if os.path.exists(model) else model


def model_label(model: str) -> str:
    """How a model appears in a signature: a Hub name as it is, a local folder or file by its
    last two path components (the rest is machine-specific)."""
    if not os.path.exists(model):
        return model
    parts = os.path.normpath(os.path.abspath(model)).split(os.sep)
    return "/".join(parts[-2:])
