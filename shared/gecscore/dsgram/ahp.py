"""Analytic Hierarchy Process for one pairwise judgment matrix (DSGram's dynamic weights).

The matrix is normalised first: the diagonal is forced to 1 and every pair is made reciprocal
with the geometric mean of ``a_ij`` and ``1 / a_ji`` (``a_ij' = sqrt(a_ij / a_ji)``,
``a_ji' = 1 / a_ij'``); a pair counts as repaired when ``a_ij * a_ji`` was off 1 by more than
``tolerance`` (so 0.333 for 1/3 is not a repair). Weights are the principal eigenvector
normalised to sum 1, ``lambda_max`` its eigenvalue, ``CI = (lambda_max - n) / (n - 1)``,
``CR = CI / RI[n]`` with Saaty's random index; the matrix is consistent when ``CR < 0.1``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

# Saaty's random consistency index by matrix order n (RI[3] = 0.58, RI[4] = 0.90, ...).
RANDOM_INDEX = {1: 0.0, 2: 0.0, 3: 0.58, 4: 0.90, 5: 1.12, 6: 1.24, 7: 1.32, 8: 1.41, 9: 1.45, 10: 1.49}
CONSISTENCY_THRESHOLD = 0.1
RECIPROCITY_TOLERANCE = 0.02


@dataclass(frozen=True, slots=True)
class AhpResult:
    """Weights of one normalised judgment matrix and its consistency."""

    matrix: tuple[tuple[float, ...], ...]
    weights: tuple[float, ...]
    lambda_max: float
    ci: float
    cr: float
    reciprocity_repaired: bool
    diagonal_repaired: bool

    @property
    def consistent(self) -> bool:
        return self.cr < CONSISTENCY_THRESHOLD


def normalise_matrix(matrix: Sequence[Sequence[float]], tolerance: float = RECIPROCITY_TOLERANCE
                     ) -> tuple[np.ndarray, bool, bool]:
    """A positive reciprocal copy of ``matrix``; flags for reciprocity and diagonal repairs."""
    a = np.array(matrix, dtype=float)
    n = a.shape[0]
    if a.ndim != 2 or a.shape != (n, n) or n == 0:
        raise ValueError(f"a judgment matrix must be square, got shape {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ValueError("judgment matrix entries must be positive finite numbers")
    diagonal_repaired = bool(np.any(np.abs(np.diag(a) - 1) > 1e-12))
    np.fill_diagonal(a, 1.0)
    reciprocity_repaired = False
    for i in range(n):
        for j in range(i + 1, n):
            if abs(a[i, j] * a[j, i] - 1) > tolerance:
                reciprocity_repaired = True
            value = math.sqrt(a[i, j] / a[j, i])
            a[i, j], a[j, i] = value, 1 / value
    return a, reciprocity_repaired, diagonal_repaired


def principal_eigen(a: np.ndarray) -> tuple[float, np.ndarray]:
    """``lambda_max`` and its eigenvector normalised to sum 1 (positive for a positive matrix)."""
    values, vectors = np.linalg.eig(a)
    k = int(np.argmax(values.real))
    vector = np.abs(vectors[:, k].real)
    return float(values[k].real), vector / vector.sum()


def analyse_matrix(matrix: Sequence[Sequence[float]], tolerance: float = RECIPROCITY_TOLERANCE) -> AhpResult:
    """Normalise ``matrix`` and return its AHP weights, lambda_max, CI and CR."""
    a, reciprocity_repaired, diagonal_repaired = normalise_matrix(matrix, tolerance)
    n = a.shape[0]
    if n not in RANDOM_INDEX:
        raise ValueError(f"no random index for a {n}x{n} matrix (1 <= n <= 10)")
    lambda_max, weights = principal_eigen(a)
    ci = (lambda_max - n) / (n - 1) if n > 1 else 0.0
    if abs(ci) < 1e-12:  # rounding noise of a consistent matrix
        ci = 0.0
    ri = RANDOM_INDEX[n]
    cr = ci / ri if ri else 0.0
    return AhpResult(tuple(tuple(float(x) for x in row) for row in a), tuple(float(w) for w in weights),
                     lambda_max, ci, cr, reciprocity_repaired, diagonal_repaired)


def equal_weights(n: int) -> tuple[float, ...]:
    return (1.0 / n,) * n
