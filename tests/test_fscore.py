"""The F-beta conventions (:mod:`gecscore.fscore`): every zero case of every convention by hand,
and every site's numbers bit for bit as its inline formula gave them before the one module."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecscore.chunks.cleme import precision_recall_f
from gecscore.fscore import CONVENTIONS, ERRANT, IMEASURE, M2SCORER, PRF, f_beta
from gecscore.gotoscorer import scorer as goto
from gecscore.green.scorer import green, _geometric_mean
from gecscore.imeasure import scorer as imeasure
from gecscore.m2.errant_compare import f_score as errant_f_score
from gecscore.m2.scoring import EditCounts

# ------------------------------------------------------------------ the zero cases, by hand

# (tp, fp, fn, beta) -> {convention name: (P, R, F) or the exception raised}
ZERO_CASES = {
    "empty table": ((0, 0, 0, 0.5), {"m2scorer": (1.0, 1.0, 1.0), "errant": (1.0, 1.0, 1.0),
                                     "imeasure": (1.0, 1.0, 1.0)}),
    "nothing proposed": ((0, 0, 3, 0.5), {"m2scorer": (1.0, 0.0, 0.0), "errant": (1.0, 0.0, 0.0),
                                          "imeasure": (1.0, 0.0, 0.0)}),
    "nothing to find": ((0, 2, 0, 0.5), {"m2scorer": (0.0, 1.0, 0.0), "errant": (0.0, 1.0, 0.0),
                                         "imeasure": (0.0, 1.0, 0.0)}),
    "P + R = 0": ((0, 2, 3, 0.5), {"m2scorer": (0.0, 0.0, 0.0), "errant": (0.0, 0.0, 0.0),
                                   "imeasure": (0.0, 0.0, 0.0)}),
    "all proposed correct": ((4, 0, 4, 0.5), {"m2scorer": (1.0, 0.5, 0.8333333333333334),
                                              "errant": (1.0, 0.5, 0.8333333333333334),
                                              "imeasure": (1.0, 0.5, 0.8333333333333334)}),
    # beta = 0 (F = P): the families part
    "nothing proposed, beta 0": ((0, 0, 3, 0.0), {"m2scorer": (1.0, 0.0, 1.0), "errant": ZeroDivisionError,
                                                  "imeasure": (1.0, 0.0, 0.0)}),
    "empty table, beta 0": ((0, 0, 0, 0.0), {"m2scorer": (1.0, 1.0, 1.0), "errant": (1.0, 1.0, 1.0),
                                             "imeasure": (1.0, 1.0, 1.0)}),
    "P + R = 0, beta 0": ((0, 2, 3, 0.0), {"m2scorer": (0.0, 0.0, 0.0), "errant": (0.0, 0.0, 0.0),
                                           "imeasure": (0.0, 0.0, 0.0)}),
}


@pytest.mark.parametrize("case", sorted(ZERO_CASES))
@pytest.mark.parametrize("convention", CONVENTIONS, ids=lambda c: c.name)
def test_zero_cases_by_hand(case, convention):
    (tp, fp, fn, beta), expected = ZERO_CASES[case]
    want = expected[convention.name]
    if isinstance(want, type):
        with pytest.raises(want):
            f_beta(tp, fp, fn, beta, convention)
    else:
        got = f_beta(tp, fp, fn, beta, convention)
        assert tuple(got) == want
        assert all(type(x) is float for x in got)


def test_f_of_p_and_r_at_beta_zero():
    """P > 0 = R (GREEN's geometric means can give it): ERRANT divides by zero, the I-measure 0."""
    with pytest.raises(ZeroDivisionError):
        ERRANT.f_of(0.5, 0.0, 0.0)
    assert IMEASURE.f_of(0.5, 0.0, 0.0) == 0.0


def test_exact_counts_stay_exact():
    scores = f_beta(Fraction(0), Fraction(0), Fraction(0), Fraction(1, 2), IMEASURE)
    assert scores == PRF(Fraction(1), Fraction(1), Fraction(1))
    assert all(type(x) is Fraction for x in scores)
    assert IMEASURE.f_of(Fraction(0), Fraction(0), Fraction(1, 2)) == 0 and type(IMEASURE.f_of(
        Fraction(0), Fraction(0), Fraction(1, 2))) is Fraction


# ------------------------------------------------------------------ the sites, bit for bit

def old_m2(correct, proposed, gold, beta):             # m2/scoring.py EditCounts.scores
    p = correct / proposed if proposed else 1.0
    r = correct / gold if gold else 1.0
    b2 = beta * beta
    denominator = b2 * gold + proposed
    if denominator:
        f = (1.0 + b2) * correct / denominator
    else:
        f = 1.0 if correct == 0 else 0.0
    return p, r, f


def old_errant(tp, fp, fn, beta):                      # m2/errant_compare.py f_score
    p = float(tp) / (tp + fp) if fp else 1.0
    r = float(tp) / (tp + fn) if fn else 1.0
    f = float((1 + beta ** 2) * p * r) / ((beta ** 2) * p + r) if p + r else 0.0
    return round(p, 4), round(r, 4), round(f, 4)


def old_goto(counts, beta):                            # gotoscorer/scorer.py f_beta
    tp, fp, fn = float(counts[0]), float(counts[1]), float(counts[2])
    p = 1.0 if fp == 0 else tp / (tp + fp)
    r = 1.0 if fn == 0 else tp / (tp + fn)
    return (1 + beta ** 2) * p * r / (beta ** 2 * p + r) if p + r else 0.0


def old_green(table, beta):                            # green/scorer.py green
    table = np.asarray(table, dtype=np.float64)
    tp, fp, fn = table[:, 0], table[:, 1], table[:, 2]
    precisions = [1.0 if f == 0 else t / (t + f) for t, f in zip(tp, fp)]
    recalls = [1.0 if f == 0 else t / (t + f) for t, f in zip(tp, fn)]
    p = _geometric_mean(precisions)
    r = _geometric_mean(recalls)
    return float((1 + beta ** 2) * p * r / (beta ** 2 * p + r)) if p + r else 0.0


def old_cleme(tp, fp, fn, beta):                       # chunks/cleme.py precision_recall_f
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    b2 = beta * beta
    f = (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else 0.0
    return p, r, f


def old_imeasure(c, beta):                             # imeasure/scorer.py precision, recall, f_beta
    p = c.tp / (c.tp + c.fp) if c.tp + c.fp else 1.0
    r = c.tp / (c.tp + c.fn) if c.tp + c.fn else 1.0
    b2 = beta * beta
    return p, r, (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else 0.0


def old_imeasure_exact(c, beta):                       # imeasure/scorer.py _exact_value
    p = Fraction(c.tp, c.tp + c.fp) if c.tp + c.fp else Fraction(1)
    r = Fraction(c.tp, c.tp + c.fn) if c.tp + c.fn else Fraction(1)
    b2 = beta * beta
    return p, r, (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else Fraction(0)


def old_imeasure_arrays(tp, fp, fn, beta):             # imeasure/scorer.py _float_values
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), 1.0)
        r = np.where(tp + fn > 0, tp / (tp + fn), 1.0)
        b2 = beta * beta
        return p, r, np.where(b2 * p + r > 0, (1 + b2) * p * r / (b2 * p + r), 0.0)


def outcome(compute):
    """What a computation gives, bit for bit (float hex, the type), or the exception it raises."""
    try:
        value = compute()
    except ZeroDivisionError as error:
        return type(error)
    if isinstance(value, (tuple, list, PRF)):
        return tuple(bits(v) for v in value)
    return bits(value)


def bits(value):
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.tobytes())
    if isinstance(value, float):
        return (type(value), value.hex())
    return (type(value), value)


ints = st.integers(min_value=0, max_value=10 ** 6)
floats = st.floats(min_value=0.0, max_value=1e6, allow_nan=False, allow_infinity=False)
small_floats = st.floats(min_value=0.0, max_value=50.0, allow_nan=False, allow_infinity=False)
counts = st.one_of(ints, floats, small_floats, st.sampled_from([0, 0.0, 1, 0.5]))
betas = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0, 1, 2, 1e-200]),
                  st.floats(min_value=0.0, max_value=10.0, allow_nan=False, allow_infinity=False))


@settings(max_examples=400, deadline=None)
@given(counts, counts, counts, betas)
def test_m2scorer_site(tp, fp, fn, beta):
    correct, proposed, gold = tp, tp + fp, tp + fn
    assert outcome(lambda: EditCounts(correct, proposed, gold).scores(beta)) == outcome(
        lambda: old_m2(correct, proposed, gold, beta))


@settings(max_examples=400, deadline=None)
@given(counts, counts, counts, betas)
def test_errant_site(tp, fp, fn, beta):
    assert outcome(lambda: errant_f_score(tp, fp, fn, beta)) == outcome(lambda: old_errant(tp, fp, fn, beta))


@settings(max_examples=400, deadline=None)
@given(counts, counts, counts, betas)
def test_gotoscorer_site(tp, fp, fn, beta):
    row = np.array([tp, fp, fn, 0], dtype=np.float64)
    assert outcome(lambda: goto.f_beta(row, beta)) == outcome(lambda: old_goto(row, beta))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(counts, counts, counts), min_size=1, max_size=4), betas)
def test_green_site(rows, beta):
    table = np.array(rows, dtype=np.float64)
    assert outcome(lambda: green(table, beta)) == outcome(lambda: old_green(table, beta))


@settings(max_examples=400, deadline=None)
@given(counts, counts, counts, betas)
def test_cleme_site(tp, fp, fn, beta):
    assert outcome(lambda: precision_recall_f(tp, fp, fn, beta)) == outcome(lambda: old_cleme(tp, fp, fn, beta))


@settings(max_examples=400, deadline=None)
@given(ints, ints, ints, betas)
def test_imeasure_sites(tp, fp, fn, beta):
    c = imeasure.WasCounts(tp, 0, fp, fn, 0)
    new = lambda: (imeasure.precision(c), imeasure.recall(c),
                   imeasure.f_beta(imeasure.precision(c), imeasure.recall(c), beta))
    assert outcome(new) == outcome(lambda: old_imeasure(c, beta))
    exact_beta = Fraction(beta)
    baseline = imeasure.WasCounts()
    new_exact = lambda: tuple(imeasure._exact_value(c, baseline, name, exact_beta, Fraction(2)) for name in "prf")
    assert outcome(new_exact) == outcome(lambda: old_imeasure_exact(c, exact_beta))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ints, ints, ints), min_size=1, max_size=6), betas)
def test_imeasure_array_site(rows, beta):
    vectors = np.zeros((len(rows), imeasure.VECTOR_SIZE), dtype=np.int64)
    for i, (tp, fp, fn) in enumerate(rows):
        vectors[i, 0], vectors[i, 2], vectors[i, 3] = tp, fp, fn
    v = vectors.astype(np.float64)
    want = old_imeasure_arrays(v[:, 0], v[:, 2], v[:, 3], beta)
    for name, expected in zip("prf", want):
        assert bits(imeasure._float_values(vectors, "detection", name, beta, 2.0)) == bits(expected)


def test_every_site_names_its_convention():
    """No inline F-beta formula is left outside :mod:`gecscore.fscore` (metaeval's TrueSkill
    ``beta`` is another beta)."""
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "shared" / "gecscore"
    inline = [f"{path.relative_to(package)}:{number}" for path in package.rglob("*.py")
              if path.name != "fscore.py" and "metaeval" not in path.parts
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
              if ("* p * r" in line or "* self.correct /" in line)]
    assert not inline, inline
