"""CLEME's chunk partition: cut the source and every target into the same number of chunks.

All targets (hypothesis first, then the references) are aligned at once. Edits of all
targets that overlap or touch form shared intervals; each interval becomes one corrected
chunk (or a dummy chunk for a pure insertion point), and the stretches between intervals
become unchanged chunks. See ``cleme.md`` for the reference algorithm this reproduces.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

from gecscore.types import Chunk, ChunkPartition, Edit, Target, Tokens


class _PositionMap:
    """Source position -> target position for one target, as the CLEME reference maps them:
    ``p + `` the length change of every edit ending at or before ``p``. Defined for every
    position not strictly inside one of the target's edits (the only ones looked up)."""

    def __init__(self, edits: Sequence[Edit]):
        self.ends: list[int] = []
        self.shifts: list[int] = [0]
        for edit in edits:
            self.ends.append(edit.end)
            self.shifts.append(self.shifts[-1] + (edit.tgt_end - edit.tgt_start) - (edit.end - edit.start))

    def __getitem__(self, position: int) -> int:
        return position + self.shifts[bisect_right(self.ends, position)]


def _shared_intervals(targets: Sequence[Target]) -> list[list[int]]:
    edits = sorted((edit for target in targets for edit in target.edits), key=lambda e: e.start)
    intervals: list[list[int]] = []
    for edit in edits:
        if intervals and edit.start <= intervals[-1][1]:
            intervals[-1][1] = max(intervals[-1][1], edit.end)
        else:
            intervals.append([edit.start, edit.end])
    return intervals


def _chunk_spans(n_source: int, intervals: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    i = k = 0
    while i <= n_source:
        if k == len(intervals):
            if i != n_source:
                spans.append((i, n_source))
            break
        start, end = intervals[k]
        if i == start == end:
            spans.append((start, end))
            k += 1
        elif start <= i < end:
            spans.append((start, end))
            i = end
            k += 1
        else:
            spans.append((i, start))
            i = start
    return spans


def _target_chunks(source: Tokens, target: Target, intervals: Sequence[Sequence[int]],
                   spans: Sequence[tuple[int, int]], unchanged: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
    if not target.edits:
        return unchanged
    edits = sorted(target.edits, key=lambda e: e.start)
    mapping = _PositionMap(edits)
    # Widen each edit to the shared interval containing it; merge consecutive equal ones.
    widened: dict[tuple[int, int], Chunk] = {}
    k = 0
    previous: Chunk | None = None
    for edit in edits:
        while not (intervals[k][0] <= edit.start and edit.end <= intervals[k][1]):
            k += 1
        start, end = intervals[k]
        tgt_begin = 0 if start == 0 else mapping[start - 1] + 1
        tgt_end = mapping[end]
        chunk = Chunk(start, end, source[start:end], target.tokens[tgt_begin:tgt_end], (edit.type,))
        if previous is not None and (previous.start, previous.end, previous.target) == \
                (chunk.start, chunk.end, chunk.target):
            chunk = Chunk(start, end, chunk.source, chunk.target, previous.types + chunk.types)
        widened[(start, end)] = chunk
        previous = chunk
    chunks = []
    for start, end in spans:
        chunk = widened.get((start, end))
        if chunk is None:
            tgt_begin = mapping[start]
            tgt_end = 0 if end == 0 else mapping[end - 1] + 1
            chunk = Chunk(start, end, source[start:end], target.tokens[tgt_begin:tgt_end])
        chunks.append(chunk)
    return tuple(chunks)


def partition_chunks(source: Sequence[str], hypothesis: Target,
                     references: Sequence[Target]) -> ChunkPartition:
    """Partition the hypothesis and references of one sample into aligned chunks."""
    source = tuple(source)
    targets = [hypothesis, *references]
    intervals = _shared_intervals(targets)
    spans = _chunk_spans(len(source), intervals)
    unchanged = tuple(Chunk(start, end, source[start:end], source[start:end]) for start, end in spans)
    chunked = [_target_chunks(source, target, intervals, spans, unchanged) for target in targets]
    for target_chunks in chunked:
        if len(target_chunks) != len(spans):  # pragma: no cover - an invariant of the algorithm
            raise AssertionError("chunk partition gave targets different numbers of chunks")
    return ChunkPartition(tuple(spans), chunked[0], tuple(chunked[1:]))
