"""Length-sorted batches: model inputs of similar length share a batch, so padding is small;
results go back to their original positions."""
from __future__ import annotations

from typing import Iterator, Sequence


def length_batches(lengths: Sequence[int], batch_size: int, max_tokens: int | None = None) -> Iterator[list[int]]:
    """Indices of ``lengths`` in batches of at most ``batch_size``, shortest first (ties in
    input order: Python's sort is stable). ``max_tokens``: a batch also closes before its padded
    size (count x longest length) would pass it (an input longer than that has a batch of its
    own), so the model's activations stay bounded on long inputs.

    >>> list(length_batches([5, 1, 3, 2], 3))
    [[1, 3, 2], [0]]
    >>> list(length_batches([5, 1, 3, 2], 3, max_tokens=6))
    [[1, 3], [2], [0]]
    """
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batch: list[int] = []
    for index in order:
        if batch and (len(batch) == batch_size or
                      (max_tokens is not None and (len(batch) + 1) * lengths[index] > max_tokens)):
            yield batch
            batch = []
        batch.append(index)
    if batch:
        yield batch


def batches_with_progress(lengths: Sequence[int], batch_size: int, desc: str, unit: str = "sent",
                          max_tokens: int | None = None) -> Iterator[list[int]]:
    """:func:`length_batches`, with a progress bar over the texts on stderr (when it is a
    terminal, as every long model pass of gecscore)."""
    from gecscore.progress import bar

    with bar(total=len(lengths), desc=desc, unit=unit) as progress:
        for batch in length_batches(lengths, batch_size, max_tokens):
            yield batch
            progress.update(len(batch))
