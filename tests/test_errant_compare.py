"""``gecscore errant`` against ERRANT's own ``errant_compare`` (errant.commands.compare_m2)."""
from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datapaths import CONLL14, EXAMPLES, require
from gecscore.cli import main
from gecscore.m2.errant_compare import CompareOptions, compare, compare_files, format_report, read_edits

compare_m2 = pytest.importorskip("errant.commands.compare_m2", reason="errant is not installed (a base requirement: pip install -e .)")

FLAG_SETS = [[], ["-cat", "1"], ["-cat", "2"], ["-cat", "3"], ["-ds", "-cat", "3"], ["-dt", "-cat", "3"],
             ["-b", "1.0", "-cat", "2"], ["-single", "-cat", "3"], ["-multi", "-cat", "3"],
             ["-filt", "R:VERB", "M:DET", "-cat", "3"], ["-cse", "-cat", "1"], ["-dt", "-single"],
             ["-ds", "-multi", "-filt", "UNK"]]

REF = """S He go to school yesterday and buy a apple .
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0
A 6 7|||R:VERB:TENSE|||bought|||REQUIRED|||-NONE-|||0
A 7 8|||R:DET|||an|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1
A 4 5|||U:ADV||||||REQUIRED|||-NONE-|||1
A 7 8|||R:DET|||an|||REQUIRED|||-NONE-|||1

S This is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I like reading book in the the library .
A 3 4|||R:NOUN:NUM|||books|||REQUIRED|||-NONE-|||0
A 5 6|||U:DET||||||REQUIRED|||-NONE-|||0
A 3 3|||M:DET|||the|||REQUIRED|||-NONE-|||1
A 5 7|||UNK|||the|||REQUIRED|||-NONE-|||1
"""

HYP = """S He go to school yesterday and buy a apple .
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0
A 7 8|||R:DET|||an|||REQUIRED|||-NONE-|||0
A 8 10|||R:OTHER|||apples .|||REQUIRED|||-NONE-|||0

S This is fine .
A 2 3|||R:ADJ|||good|||REQUIRED|||-NONE-|||0

S I like reading book in the the library .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
"""


def errant_output(hyp: str, ref: str, flags: list[str]) -> str:
    """What errant's own errant_compare prints for these files and flags."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = ["errant_compare", "-hyp", hyp, "-ref", ref, *flags]
    try:
        with contextlib.redirect_stdout(out):
            compare_m2.main()
    finally:
        sys.argv = argv
    return out.getvalue()


def options_of(flags: list[str]) -> tuple[CompareOptions, int | None]:
    mode = next((f[1:] for f in flags if f in ("-ds", "-dt", "-cs", "-cse")), "cs")
    beta = float(flags[flags.index("-b") + 1]) if "-b" in flags else 0.5
    filt = []
    if "-filt" in flags:
        for f in flags[flags.index("-filt") + 1:]:
            if f.startswith("-"):
                break
            filt.append(f)
    level = int(flags[flags.index("-cat") + 1]) if "-cat" in flags else None
    return CompareOptions(beta, mode, "-single" in flags, "-multi" in flags, frozenset(filt)), level


def ours(hyp: str, ref: str, flags: list[str]) -> str:
    options, level = options_of(flags)
    return format_report(compare_files(hyp, ref, options), level)


@pytest.fixture
def m2_files(tmp_path):
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text(HYP)
    ref.write_text(REF)
    return str(hyp), str(ref)


def test_hand_checked_counts(m2_files):
    # sentence 1: hyp vs ref0 TP 2 (went, an) FP 1 FN 1 -> F0.5 .6667; vs ref1 TP 1 FP 2 FN 2.
    # sentence 2: FP 1 against the noop. sentence 3 (UNK dropped): ref0 FN 2 vs ref1 FN 1 at the
    # same running F (TP stays 2): equal F and TP and FP, lower FN -> ref1.
    result = compare_files(*m2_files)
    assert (result.counts.tp, result.counts.fp, result.counts.fn) == (2, 2, 2)
    assert result.chosen == ((0, 0), (0, 0), (0, 1))
    assert result.counts.prf(0.5) == (0.5, 0.5, 0.5)
    assert result.table(1) == {"R": [2, 2, 1], "M": [0, 0, 1]}


@pytest.mark.parametrize("flags", FLAG_SETS, ids=lambda f: " ".join(f) or "default")
def test_identical_to_errant_compare(m2_files, flags):
    assert ours(*m2_files, flags) == errant_output(*m2_files, flags)


def test_cli_prints_errant_compare_output(m2_files, capsys):
    for flags in (["-cat", "3"], ["-dt", "-b", "1.0"]):
        assert main(["errant", "-hyp", m2_files[0], "-ref", m2_files[1], *flags]) == 0
        assert capsys.readouterr().out == errant_output(*m2_files, flags)
    assert main(["errant", "-hyp", m2_files[0], "-ref", m2_files[1], "-cat", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["tp"], out["fp"], out["fn"], out["f"]) == (2, 2, 2, 0.5)
    assert out["categories"]["M"] == {"tp": 0, "fp": 0, "fn": 1, "p": 1.0, "r": 0.0, "f": 0.0}


TYPES = ["R:VERB", "R:NOUN:NUM", "M:DET", "U:DET", "R:OTHER", "UNK", "R:VERB:SVA", "M:PUNCT"]


@st.composite
def m2_edit_lines(draw, n_tokens: int, coders: list[int]) -> list[str]:
    lines = []
    for coder in coders:
        if draw(st.booleans()) and not draw(st.integers(0, 4)):
            lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}")
            continue
        for _ in range(draw(st.integers(0, 3))):
            start = draw(st.integers(0, n_tokens))
            end = draw(st.integers(start, min(n_tokens, start + 3)))
            cor = draw(st.sampled_from(["", "a", "the", "a b", "x y z", "-NONE-"]))
            lines.append(f"A {start} {end}|||{draw(st.sampled_from(TYPES))}|||{cor}|||REQUIRED|||-NONE-|||{coder}")
    return lines


@st.composite
def m2_pairs(draw) -> tuple[str, str]:
    hyp_blocks, ref_blocks = [], []
    for _ in range(draw(st.integers(1, 6))):
        n = draw(st.integers(1, 6))
        source = "S " + " ".join(f"w{i}" for i in range(n))
        ref_coders = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
        hyp_coders = draw(st.sampled_from([[0], [0], [0, 1]]))
        ref_blocks.append("\n".join([source, *draw(m2_edit_lines(n, ref_coders))]))
        hyp_blocks.append("\n".join([source, *draw(m2_edit_lines(n, hyp_coders))]))
    return "\n\n".join(hyp_blocks) + "\n", "\n\n".join(ref_blocks) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=m2_pairs(), flags=st.sampled_from(FLAG_SETS))
def test_random_edits_identical_to_errant_compare(tmp_path, pair, flags):
    hyp, ref = tmp_path / "h.m2", tmp_path / "r.m2"
    hyp.write_text(pair[0])
    ref.write_text(pair[1])
    assert ours(str(hyp), str(ref), flags) == errant_output(str(hyp), str(ref), flags)


def test_text_inputs_equal_errant_parallel_m2(tmp_path, capsys):
    """--src/--hyp/--ref: the edits errant_parallel would write, then the same comparison."""
    import errant.commands.parallel_to_m2 as parallel

    from gecscore.lang.en.extractor import shared_extractor

    src, hyp = str(EXAMPLES / "source.txt"), str(EXAMPLES / "hypothesis.txt")
    refs = [str(EXAMPLES / "reference0.txt"), str(EXAMPLES / "reference1.txt")]
    import errant

    nlp = shared_extractor().nlp  # the same spaCy model for errant_parallel and the seam
    argv, original_load = sys.argv, errant.load
    errant.load = lambda lang, nlp_=None: original_load(lang, nlp)
    try:
        for out, cor in ((tmp_path / "hyp.m2", [hyp]), (tmp_path / "ref.m2", refs)):
            sys.argv = ["errant_parallel", "-orig", src, "-cor", *cor, "-out", str(out)]
            with contextlib.redirect_stdout(io.StringIO()):
                parallel.main()
    finally:
        sys.argv, errant.load = argv, original_load
    flags = ["-cat", "3"]
    assert main(["errant", "--src", src, "--hyp", hyp, "--ref", refs[0], "--ref", refs[1], *flags]) == 0
    ours_text = capsys.readouterr().out
    assert ours_text == errant_output(str(tmp_path / "hyp.m2"), str(tmp_path / "ref.m2"), flags)


@pytest.mark.realdata
@pytest.mark.parametrize("level", [1, 2, 3])
def test_conll14_amu_tables_equal_errant_compare(level):
    hyp = str(require(CONLL14 / "systems-errant" / "AMU.errant.m2"))
    ref = str(require(CONLL14 / "conll14.errant.m2"))
    flags = ["-cat", str(level)]
    assert ours(hyp, ref, flags) == errant_output(hyp, ref, flags)


def test_sentence_count_mismatch_is_an_input_error(tmp_path):
    from gecscore.errors import GecInputError

    hyp = tmp_path / "h.m2"
    hyp.write_text("S a\n\nS b\n")
    ref = tmp_path / "r.m2"
    ref.write_text("S a\n")
    with pytest.raises(GecInputError, match="2 sentences"):
        compare(read_edits(hyp), read_edits(ref))
