"""Random rewrites of a sentence, for the differential property tests (MaxMatch against the
m2scorer model, our ERRANT against errant): multi-token replacements, reorderings, insertions at
the sentence start, single insertions, deletions and repeated tokens."""
from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def rewrite(draw, source: list[str], words: tuple[str, ...]) -> list[str]:
    """A random rewrite of ``source``: a few operations, each at a random place."""
    tokens = list(source)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("replace", "reorder", "insert_start", "insert", "delete", "repeat")))
        i = draw(st.integers(0, max(0, len(tokens) - 1)))
        width = draw(st.integers(1, 3))
        if op == "replace" and tokens:
            tokens[i:i + width] = draw(st.lists(st.sampled_from(words), min_size=1, max_size=3))
        elif op == "reorder" and len(tokens) > 2:
            j = min(len(tokens), i + width)
            k = min(len(tokens), j + draw(st.integers(1, 2)))
            tokens[i:k] = tokens[j:k] + tokens[i:j]
        elif op == "insert_start":
            tokens[0:0] = draw(st.lists(st.sampled_from(words), min_size=1, max_size=2))
        elif op == "insert":
            tokens[i:i] = [draw(st.sampled_from(words))]
        elif op == "delete" and tokens:
            del tokens[i:i + width]
        elif op == "repeat" and tokens:
            tokens[i:i] = [tokens[i]] * draw(st.integers(1, 2))
    return tokens
