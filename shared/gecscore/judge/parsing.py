"""Tolerant reading of judge output: JSON values inside free text, and normalised keys."""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

class JudgeOutputError(ValueError):
    """Judge output that cannot be used; the message says why."""


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_DECODER = json.JSONDecoder()


def json_values(text: str, limit: int = 20) -> Iterator[Any]:
    """JSON values found in ``text``: the whole text, fenced blocks, then every ``{``/``[`` start
    that decodes (outermost first). At most ``limit`` values."""
    found = 0
    candidates = [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for candidate in candidates:
        try:
            yield json.loads(candidate)
            found += 1
            if found >= limit:
                return
        except ValueError:
            pass
    position = 0
    while found < limit:
        match = re.compile(r"[\[{]").search(text, position)
        if match is None:
            return
        try:
            value, end = _DECODER.raw_decode(text, match.start())
        except ValueError:
            position = match.start() + 1
            continue
        yield value
        found += 1
        position = end


def normal_key(key: Any) -> str:
    """``"Semantic_Coherence "`` -> ``"semantic coherence"``."""
    return " ".join(re.sub(r"[_\-]+", " ", str(key)).lower().split())


NUMBER = r"[-+]?\d+(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?"


def to_number(value: Any) -> float | None:
    """A float from a number, a numeric string or a fraction ``"1/3"``; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(NUMBER, text):
            if "/" in text:
                top, bottom = (float(part) for part in text.split("/"))
                return top / bottom if bottom else None
            return float(text)
    return None
