"""Length-sorted batches: model inputs of similar length share a batch, so padding is small;
results go back to their original positions."""
from __future__ import annotations

from typing import Iterator, Sequence


def length_batches(lengths: Sequence[int], batch_size: int) -> Iterator[list[int]]:
    """Indices of ``lengths`` in batches of at most ``batch_size``, shortest first (ties in
    input order: Python's sort is stable)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    for first in range(0, len(order), batch_size):
        yield order[first:first + batch_size]
