"""A configuration's score of a system: the leaderboard's cell (:class:`SystemScore`, with what
the bootstrap needs), scored through the metric seam with the work a process shares
(:mod:`gecscore.leaderboard.shared_data`)."""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gecscore.leaderboard.configurations import Configuration
from gecscore.leaderboard.shared_data import ReferenceData, SystemData
from gecscore.metric import Result


PACKED_DTYPES = ("<i2", "<i4")   # what exact_integers gives, little-endian
PACK_ABOVE = 1 << 20   # bytes: GLEU's statistics (13 MB a system on CoNLL-2014 as int16) are packed


@dataclass(frozen=True)
class PackedArray:
    """An int16/int32 array kept zlib-compressed: a cell's large integer statistics as a worker
    sends them and the cache keeps them, unpacked only when read (a leaderboard read back
    without a bootstrap never inflates GLEU's 13 x 13 MB; the workers, not the main process,
    compress them). Checked when built and when unpacked (a pickle read back from the cache
    sets the fields without building): a dtype other than int16/int32 or a shape not of sizes
    is refused, and data that do not inflate to exactly the shape's bytes."""

    dtype: str
    shape: tuple[int, ...]
    data: bytes

    def __post_init__(self) -> None:
        self._check()

    def _check(self) -> None:
        if self.dtype not in PACKED_DTYPES or not isinstance(self.data, bytes):
            raise ValueError(f"a packed array holds int16 or int32 bytes, not {self.dtype!r}")
        if not isinstance(self.shape, tuple) or not all(type(n) is int and n >= 0 for n in self.shape):
            raise ValueError(f"a packed array's shape is a tuple of sizes, not {self.shape!r}")

    @classmethod
    def of(cls, array: np.ndarray) -> "PackedArray":
        little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
        return cls(little.dtype.str, tuple(int(n) for n in little.shape), zlib.compress(little.tobytes(), 1))

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * np.dtype(self.dtype).itemsize

    def unpack(self) -> np.ndarray:
        """The array (read-only), or ValueError when the fields or data are not those of one."""
        self._check()
        inflate = zlib.decompressobj()
        raw = inflate.decompress(self.data, max(self.nbytes, 1))   # 0 would mean no limit
        if len(raw) != self.nbytes or inflate.unconsumed_tail or inflate.unused_data or not inflate.eof:
            raise ValueError("a packed array's data do not inflate to its shape's bytes")
        return np.frombuffer(raw, dtype=np.dtype(self.dtype)).reshape(self.shape)


@dataclass(frozen=True)
class SystemScore:
    """A configuration's score of one system, with what the bootstrap needs.

    ``statistic(column_means_of(sentence_stats))`` must give back ``score``.

    ``stored_stats``: the sentence statistics (float64), or the same values as int16/int32
    when every one is such an integer (:meth:`compact`: counts, as GLEU's 500 rounds of n-gram
    counts, 52 MB a system on CoNLL-2014 as float64), packed (:class:`PackedArray`) above
    :data:`PACK_ABOVE` bytes; :attr:`sentence_stats` gives the float64 array either way, made
    on first use (a leaderboard read back from the cache without a bootstrap never makes them).
    """

    score: float
    details: dict[str, Any]
    signature: str
    stored_stats: np.ndarray | PackedArray | None = None
    statistic: Callable[[np.ndarray], float] | None = None
    sentence_scores: tuple[float, ...] | None = None   # the metric's own score of each sentence

    @cached_property
    def sentence_stats(self) -> np.ndarray | None:
        """The sentence statistics as float64 (bit for bit those the metric gave)."""
        stats = self.stored_stats
        if isinstance(stats, PackedArray):
            stats = stats.unpack()
        return stats if stats is None or stats.dtype == np.float64 else stats.astype(np.float64)

    @property
    def has_sentence_stats(self) -> bool:
        """Whether it can be resampled: sentence statistics and the statistic of their means
        (asked without making the float64 array)."""
        return self.stored_stats is not None and self.statistic is not None

    def compact(self) -> "SystemScore":
        """This score with its statistics as exact integers where they are (same numbers, a
        quarter of the bytes to send between processes and to keep; packed above
        :data:`PACK_ABOVE` bytes, a tenth of that for GLEU's), else itself."""
        integers = exact_integers(self.stored_stats)
        if integers is None:
            return self
        return replace(self, stored_stats=PackedArray.of(integers) if integers.nbytes > PACK_ABOVE else integers)


def exact_integers(values: np.ndarray | None) -> np.ndarray | None:
    """float64 ``values`` as int16 or int32 when that type holds every value exactly (no
    fraction, no infinity or nan, no negative zero, within its range), else None."""
    if not isinstance(values, np.ndarray) or values.dtype != np.float64 or values.size == 0:
        return None
    low, high = values.min(), values.max()   # a nan makes both nan; an infinity is one of them
    if not (np.isfinite(low) and np.isfinite(high)):
        return None
    signed = np.signbit(values)   # a negative zero has its sign bit set: looked for only among those
    if signed.any() and (values[signed] == 0).any():
        return None
    for dtype in (np.int16, np.int32):
        limits = np.iinfo(dtype)
        if low >= limits.min and high <= limits.max:
            integers = values.astype(dtype)
            return integers if np.array_equal(integers, values) else None   # int16/32 -> float64 is exact
    return None


def system_score(result: Result) -> SystemScore:
    """A leaderboard cell from a :class:`gecscore.metric.Result`: its numbers (nested ones
    flattened, e.g. the I-measure's ``correction_i``; per-type tables kept), its signature."""
    from gecscore.metaeval.sentence_level import sentence_scores

    details: dict[str, Any] = {}
    for key, value in result.values.items():
        if key == "per_type":
            details[key] = value
        elif isinstance(value, Mapping):
            details.update({f"{key}_{k}": v for k, v in value.items() if isinstance(v, (int, float))})
        elif isinstance(value, (int, float)) or value is None:
            details[key] = value
    score = result.score if result.score is not None else float("nan")
    return SystemScore(score, details, str(result.signature), result.sentence_stats, result.statistic,
                       sentence_scores(result))


def score_system(config: Configuration, system: SystemData, refs: ReferenceData) -> SystemScore:
    """One configuration's score of one system, through the seam."""
    metric = refs.metric(config)
    prepared = refs.prepared(metric)
    return system_score(metric.score(prepared, system.scored_by(metric, refs), work=system.work))


def score_all_systems(config: Configuration, systems: Sequence[SystemData], refs: ReferenceData
                      ) -> list[SystemScore]:
    """One configuration's scores of every system at once (``Metric.score_systems``: PT-M2
    scores the model pairs of all systems in one pass)."""
    metric = refs.metric(config)
    prepared = refs.prepared(metric)
    pairs = [(s.name, s.scored_by(metric, refs)) for s in systems]
    results = metric.score_systems(prepared, pairs, [s.work for s in systems])
    return [system_score(result) for _, result in results]
