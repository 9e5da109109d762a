"""AHP maths against hand-computed matrices, and its invariants (hypothesis)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.dsgram.ahp import (RANDOM_INDEX, analyse_matrix, equal_weights, normalise_matrix,
                                  principal_eigen)

# For a 3x3 positive reciprocal matrix (worked out by hand from its characteristic polynomial
# lambda^3 - 3 lambda^2 - (c + 1/c - 2) = 0 with c = a12 * a23 / a13):
#   lambda_max = 1 + c^(1/3) + c^(-1/3), and the principal eigenvector is proportional to the
#   geometric means of the rows.


def test_saaty_random_index_is_not_off_by_one():
    assert RANDOM_INDEX[3] == 0.58
    assert RANDOM_INDEX[4] == 0.90
    assert RANDOM_INDEX[5] == 1.12
    assert RANDOM_INDEX[1] == RANDOM_INDEX[2] == 0.0


def test_consistent_matrix():
    # a_ij = w_i / w_j with w = (1/2, 1/4, 1/4): lambda_max = n = 3, CI = CR = 0.
    result = analyse_matrix([[1, 2, 2], [0.5, 1, 1], [0.5, 1, 1]])
    assert result.weights == pytest.approx((0.5, 0.25, 0.25), abs=1e-12)
    assert result.lambda_max == pytest.approx(3.0, abs=1e-12)
    assert result.ci == 0.0 and result.cr == 0.0
    assert result.consistent
    assert not result.reciprocity_repaired and not result.diagonal_repaired


def test_mildly_inconsistent_matrix_passes():
    # a12 = 2, a13 = 3, a23 = 2: c = 4/3, lambda = 1 + (4/3)^(1/3) + (3/4)^(1/3) = 3.009203,
    # CI = 0.004601, CR = 0.007933 < 0.1. Row geometric means 6^(1/3), 1, 6^(-1/3)
    # = 1.817121, 1, 0.550321 (sum 3.367442) -> w = (0.539615, 0.296961, 0.163424).
    result = analyse_matrix([[1, 2, 3], [1 / 2, 1, 2], [1 / 3, 1 / 2, 1]])
    assert result.lambda_max == pytest.approx(3.009203, abs=1e-6)
    assert result.ci == pytest.approx(0.004601, abs=1e-6)
    assert result.cr == pytest.approx(0.007933, abs=1e-6)
    assert result.weights == pytest.approx((0.539615, 0.296961, 0.163424), abs=1e-5)
    assert result.consistent


def test_inconsistent_matrix():
    # a12 = 2, a13 = 2, a23 = 4: c = 4, lambda = 1 + 4^(1/3) + 4^(-1/3) = 1 + 1.587401 + 0.629961
    # = 3.217362, CI = 0.108681, CR = 0.108681 / 0.58 = 0.187381 >= 0.1.
    # Row geometric means 4^(1/3), 2^(1/3), 1/2 = 1.587401, 1.259921, 0.5 (sum 3.347322).
    result = analyse_matrix([[1, 2, 2], [0.5, 1, 4], [0.5, 0.25, 1]])
    assert result.lambda_max == pytest.approx(3.217362, abs=1e-6)
    assert result.ci == pytest.approx(0.108681, abs=1e-6)
    assert result.cr == pytest.approx(0.187381, abs=1e-6)
    assert result.weights == pytest.approx((0.474230, 0.376397, 0.149373), abs=1e-5)
    assert not result.consistent


def test_cyclic_matrix_is_maximally_inconsistent():
    # Circulant rows (1, 9, 1/9): every row sums to 91/9, so lambda_max = 91/9 with eigenvector
    # (1, 1, 1)/3; CI = (91/9 - 3) / 2 = 32/9, CR = 32/9 / 0.58 = 6.130268.
    result = analyse_matrix([[1, 9, 1 / 9], [1 / 9, 1, 9], [9, 1 / 9, 1]])
    assert result.lambda_max == pytest.approx(91 / 9, abs=1e-9)
    assert result.weights == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-9)
    assert result.cr == pytest.approx(32 / 9 / 0.58, abs=1e-9)
    assert not result.consistent


def test_non_reciprocal_matrix_is_repaired_by_geometric_mean():
    # a12 = 2 but a21 = 2 (should be 1/2): a12' = sqrt(a12 / a21) = 1, a21' = 1. a13 = 4 with
    # a31 = 1/4 is kept; a23 = a32 = 1 is kept; the diagonal 2 becomes 1. The repaired matrix
    # [[1, 1, 4], [1, 1, 1], [1/4, 1, 1]] has c = 1 * 1 / 4, so lambda = 3.217362 (as c = 4),
    # CR = 0.187381; row geometric means 4^(1/3), 1, 4^(-1/3) (sum 3.217362) give
    # w = (0.493385, 0.310814, 0.195801).
    result = analyse_matrix([[2, 2, 4], [2, 1, 1], [0.25, 1, 1]])
    assert np.allclose(result.matrix, [[1, 1, 4], [1, 1, 1], [0.25, 1, 1]])
    assert result.reciprocity_repaired and result.diagonal_repaired
    assert result.weights == pytest.approx((0.493385, 0.310814, 0.195801), abs=1e-5)
    assert result.cr == pytest.approx(0.187381, abs=1e-6)


def test_rounded_reciprocals_are_not_counted_as_repairs():
    # 0.333 for 1/3: 0.333 * 3 = 0.999, within the tolerance.
    a, repaired, diagonal = normalise_matrix([[1, 0.333, 0.5], [3, 1, 1], [2, 1, 1]])
    assert not repaired and not diagonal
    assert a[1, 0] * a[0, 1] == pytest.approx(1.0)


@pytest.mark.parametrize("bad", [[[1, 0], [1, 1]], [[1, -2], [0.5, 1]], [[1, 2, 3]], [[1, float("nan")], [1, 1]]])
def test_invalid_matrices_are_rejected(bad):
    with pytest.raises(ValueError):
        analyse_matrix(bad)


def test_two_by_two_is_always_consistent():
    result = analyse_matrix([[1, 3], [1 / 3, 1]])
    assert result.cr == 0.0 and result.weights == pytest.approx((0.75, 0.25))


def test_equal_weights():
    assert equal_weights(3) == (1 / 3, 1 / 3, 1 / 3)


saaty = st.sampled_from([1 / 9, 1 / 7, 1 / 5, 1 / 3, 1 / 2, 1, 2, 3, 5, 7, 9])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.05, 1.0), min_size=3, max_size=6))
def test_consistent_matrices_give_back_their_weights(raw):
    w = np.array(raw) / sum(raw)
    result = analyse_matrix(np.outer(w, 1 / w))
    assert result.weights == pytest.approx(tuple(w), abs=1e-9)
    assert result.cr == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(saaty, saaty, saaty)
def test_three_by_three_reciprocal_matrices(a12, a13, a23):
    matrix = [[1, a12, a13], [1 / a12, 1, a23], [1 / a13, 1 / a23, 1]]
    result = analyse_matrix(matrix)
    c = a12 * a23 / a13
    assert result.lambda_max == pytest.approx(1 + c ** (1 / 3) + c ** (-1 / 3), rel=1e-9)
    assert result.lambda_max >= 3 - 1e-9
    gm = np.array([math.prod(row) ** (1 / 3) for row in matrix])
    assert result.weights == pytest.approx(tuple(gm / gm.sum()), abs=1e-9)
    assert sum(result.weights) == pytest.approx(1.0) and min(result.weights) > 0
    assert result.cr == pytest.approx((result.lambda_max - 3) / 2 / 0.58, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.floats(0.1, 9.0), min_size=4, max_size=4), min_size=4, max_size=4))
def test_repair_always_yields_a_positive_reciprocal_matrix(rows):
    a, _, _ = normalise_matrix(rows)
    assert np.allclose(a * a.T, 1.0)
    assert np.allclose(np.diag(a), 1.0)
    value, vector = principal_eigen(a)
    assert np.allclose(a @ vector, value * vector)
    assert vector.sum() == pytest.approx(1.0) and np.all(vector > 0)
