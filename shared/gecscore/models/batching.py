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


def batches_with_progress(lengths: Sequence[int], batch_size: int, desc: str, unit: str = "sent"
                          ) -> Iterator[list[int]]:
    """:func:`length_batches`, with a progress bar over the texts on stderr (when it is a
    terminal, as every long model pass of gecscore)."""
    from gecscore.progress import bar

    with bar(total=len(lengths), desc=desc, unit=unit) as progress:
        for batch in length_batches(lengths, batch_size):
            yield batch
            progress.update(len(batch))
