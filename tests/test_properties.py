"""Property tests (hypothesis) over the readers and the seam's inputs: whatever comes in, the
answer is either a well-formed result (finite numbers in their range) or a gecscore error
(:class:`GecInputError` or a subclass) with a message; never another exception type.

Readers: ``parse_m2``/``read_m2``, ``read_ixml``, ``read_lines`` on arbitrary and on
nearly-valid input. The seam: ``gecscore.load(name).compute(...)`` for cleme2, cleme, pt_m2
(scorer none) and imeasure with arbitrary strings, lists, None, numbers, unicode and empties.
"""
from __future__ import annotations

import math
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import gecscore
from gecscore.errors import GecInputError
from gecscore.io.ixml import read_ixml
from gecscore.io.m2 import parse_m2, read_m2
from gecscore.io.text import read_lines

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.data_too_large])

# Characters that break naive code: whitespace of every kind, BOM, CR, line/paragraph
# separators, NUL, combining marks, surrogate-free astral characters, M2's own separators.
WEIRD = st.sampled_from(["\ufeff", "\r", "\u2028", "\u2029", "\x00", "\x0b", "\x0c", "\x85", "\u00a0",
                         "\u200b", "\u0301", "😀", "|||", "\t", " ", "S", "A", "-1", "\n"])
TEXT = st.lists(st.one_of(st.characters(blacklist_categories=["Cs"]), WEIRD), max_size=20).map("".join)
WORDS = st.lists(st.sampled_from(["a", "b", "cat", "go", "went", ".", "the", "Ä", "naïve", "😀"]),
                 min_size=1, max_size=6).map(" ".join)


def tmp_file(data: bytes) -> Path:
    handle = tempfile.NamedTemporaryFile(delete=False, suffix=".bin")
    handle.write(data)
    handle.close()
    return Path(handle.name)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def gec_error_or(call):
    """The value of ``call()``, or None when it raised a GecInputError with a message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call()
    except GecInputError as error:
        assert str(error).strip(), "a gecscore error without a message"
        return None


# ------------------------------------------------------------------ M2

EDIT_LINE = st.builds(
    lambda a, b, kind, corr, ann: f"A {a} {b}|||{kind}|||{corr}|||REQUIRED|||-NONE-|||{ann}",
    st.integers(-2, 8), st.integers(-2, 8), st.sampled_from(["R:X", "noop", "M:DET", "", "U"]),
    st.one_of(WORDS, st.just(""), st.just("-NONE-"), TEXT), st.one_of(st.integers(-1, 3).map(str), TEXT))
M2_LINE = st.one_of(WORDS.map(lambda w: "S " + w), EDIT_LINE, st.just(""), st.just("S"), st.just("A"), TEXT)


@FAST
@given(st.lists(M2_LINE, max_size=12), st.booleans())
def test_parse_m2_gives_gold_or_a_format_error(lines, strict):
    golds = gec_error_or(lambda: list(parse_m2(lines, "t.m2", strict)))
    if golds is None:
        return
    for gold in golds:
        assert gold.source and all(isinstance(t, str) for t in gold.source)
        for edits in gold.annotations.values() if hasattr(gold, "annotations") else ():
            for edit in edits:
                assert 0 <= edit.start <= edit.end


@FAST
@given(st.lists(st.tuples(WORDS, st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), WORDS), max_size=3)),
                min_size=1, max_size=4))
def test_parse_m2_reads_every_well_formed_sentence(sentences):
    lines = []
    for source, edits in sentences:
        n = len(source.split())
        lines.append(f"S {source}")
        for a, b, corr in edits:
            a, b = sorted((min(a, n), min(b, n)))
            lines.append(f"A {a} {b}|||R:X|||{corr}|||REQUIRED|||-NONE-|||0")
        lines.append("")
    golds = list(parse_m2(lines, "t.m2"))
    assert [" ".join(g.source) for g in golds] == [s for s, _ in sentences]


@FAST
@given(st.one_of(st.binary(max_size=200).filter(is_utf8),
                 st.lists(M2_LINE, max_size=8).map(lambda ls: "\n".join(ls).encode("utf-8"))))
def test_read_m2_on_any_utf8_bytes(data):
    path = tmp_file(data)
    try:
        gec_error_or(lambda: read_m2(path))
    finally:
        path.unlink()


@pytest.mark.parametrize("data", [b"\x80", b"S a b\nA 0 1|||R:X|||\xff|||REQUIRED|||-NONE-|||0\n"])
def test_read_m2_names_the_file_and_line_of_bytes_that_are_not_utf8(data):
    path = tmp_file(data)
    try:
        with pytest.raises(GecInputError, match=rf"{path}:\d+: not UTF-8"):
            read_m2(path)
    finally:
        path.unlink()


# ------------------------------------------------------------------ I-measure XML

XML_PIECE = st.sampled_from([
    "<scripts>", "</scripts>", "<script id='1'>", "</script>", "<sentence id='1' numann='1'>",
    "<sentence numann='x'>", "</sentence>", "<text>a b c</text>", "<text></text>", "<error-list>",
    "</error-list>", "<error id='1' req='yes' type='X'>", "</error>", "<alt ann='0'>", "</alt>",
    "<c start='0' end='1'>", "<c start='5' end='2'>", "<c start='-1' end='x'>", "</c>", "<c/>",
    "<corr>d</corr>", "<corr></corr>", "<?xml version='1.0'?>", "&amp;", "&bogus;", "<![CDATA[x]]>"])


@FAST
@given(st.one_of(st.binary(max_size=200),
                 st.lists(st.one_of(XML_PIECE, TEXT), max_size=25).map(lambda ps: "".join(ps).encode("utf-8"))))
def test_read_ixml_on_any_bytes(data):
    path = tmp_file(data)
    try:
        golds = gec_error_or(lambda: read_ixml(path))
        for gold in golds or ():
            assert isinstance(gold.source, tuple)
    finally:
        path.unlink()


# ------------------------------------------------------------------ text

@FAST
@given(st.binary(max_size=200), st.booleans())
def test_read_lines_on_any_bytes(data, allow_empty):
    path = tmp_file(data)
    try:
        lines = gec_error_or(lambda: read_lines(path, allow_empty=allow_empty))
    finally:
        path.unlink()
    if lines is None:
        return
    assert all(isinstance(line, str) and "\n" not in line and not line.endswith("\r") for line in lines)


@FAST
@given(st.lists(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\n\r\x00"), max_size=20),
                max_size=8), st.booleans(), st.booleans())
def test_read_lines_round_trips_utf8_text(lines, bom, crlf):
    """Any UTF-8 text but a NUL byte (a binary file's mark, refused naming the line:
    tests/test_reliability_user_paths.py) reads back as written."""
    end = "\r\n" if crlf else "\n"
    text = end.join(lines) + end if lines else ""
    path = tmp_file((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    try:
        assert read_lines(path) == lines
    finally:
        path.unlink()


# ------------------------------------------------------------------ the seam

METRICS = {"cleme2": {}, "cleme": {}, "pt_m2": {"scorer": "none"}, "imeasure": {}}
SCALAR = st.one_of(st.none(), st.integers(-3, 3), st.floats(allow_nan=True), st.booleans(), st.binary(max_size=4),
                   TEXT, WORDS, st.just(""), st.just({"a": 1}))
ITEM = st.one_of(WORDS, WORDS, TEXT, SCALAR)
LISTY = st.one_of(SCALAR, st.lists(ITEM, max_size=3), st.lists(WORDS, min_size=1, max_size=3),
                  st.lists(st.one_of(WORDS, st.lists(st.one_of(WORDS, TEXT, SCALAR), max_size=2)), max_size=3))

# values that are proportions (0..1); the I-measure's improvement and score are in -1..1.
UNIT = {"score", "p", "r", "f", "hit", "wrong", "under", "over", "acc", "acc_base", "wacc", "wacc_base"}
SIGNED = {"i"}


def check_values(values, metric: str, path: str = "") -> None:
    for key, value in values.items():
        where = f"{path}{key}"
        if isinstance(value, dict):
            check_values(value, metric, where + ".")
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        assert math.isfinite(value), f"{metric} {where} = {value}"
        if key in SIGNED or (metric == "imeasure" and key == "score"):
            assert -1 - 1e-9 <= value <= 1 + 1e-9, f"{metric} {where} = {value}"
        elif key in UNIT:
            assert -1e-9 <= value <= 1 + 1e-9, f"{metric} {where} = {value}"
        else:
            assert value >= 0, f"{metric} {where} = {value}"


@pytest.fixture(scope="module")
def metrics():
    try:
        from gecscore.lang.en.spacy_model import load_spacy_model

        load_spacy_model()
    except Exception as error:  # noqa: BLE001 - no spaCy model: ERRANT cannot run
        pytest.skip(f"no spaCy English model: {error}")
    return {name: gecscore.load(name, **options) for name, options in METRICS.items()}


@pytest.mark.parametrize("name", list(METRICS))
@SLOW
@given(data=st.data())
def test_compute_gives_a_result_or_a_gecscore_error(metrics, name, data):
    metric = metrics[name]
    sources = data.draw(LISTY, "sources")
    predictions = data.draw(LISTY, "predictions")
    references = data.draw(st.one_of(st.none(), LISTY), "references")
    result = gec_error_or(lambda: metric.compute(sources, predictions, references))
    if result is not None:
        check_values(result.values, name)
        assert len(result.sentence_stats) == len(sources)
        assert all(math.isfinite(x) for x in result.sentence_stats.ravel())


@pytest.mark.parametrize("name", list(METRICS))
@SLOW
@given(data=st.data())
def test_compute_on_parallel_text_is_finite_and_in_range(metrics, name, data):
    n = data.draw(st.integers(1, 3), "n")
    line = st.one_of(WORDS, TEXT)
    sources = data.draw(st.lists(WORDS, min_size=n, max_size=n), "sources")
    predictions = data.draw(st.lists(line, min_size=n, max_size=n), "predictions")
    references = data.draw(st.lists(st.lists(line, min_size=1, max_size=2), min_size=n, max_size=n), "references")
    result = gec_error_or(lambda: metric_compute(metrics[name], sources, predictions, references))
    assume(result is not None)
    check_values(result.values, name)


def metric_compute(metric, sources, predictions, references):
    return metric.compute(sources, predictions, references)


# ------------------------------------------------------------------ bugs found by this suite, fixed

@pytest.mark.parametrize("sources, predictions, references", [
    (None, [], [["a"]]), (None, b"", None), ({"a": 1}, b"", b"\x00"), (b"\x00", b"", ""), (None, None, None),
    (None, 0, ""), (["a b"], [], [["a b"]])])
def test_empty_or_odd_predictions_get_an_input_error(metrics, sources, predictions, references):
    with pytest.raises(GecInputError):
        metrics["cleme2"].compute(sources, predictions, references)


@pytest.mark.parametrize("name", ["cleme2", "pt_m2", "imeasure"])
def test_missing_references_get_an_input_error(metrics, name):
    with pytest.raises(GecInputError, match="needs references"):
        metrics[name].compute(["a b"], ["a b"], None)


# ------------------------------------------------------------------ Space request limits

def test_space_request_limits_name_the_bound_and_the_line(tmp_path):
    from gecscore.spaces.inputs import RequestLimits, corpus_input

    limits = RequestLimits(max_sentences=3, max_chars=60, max_line_tokens=4, max_line_chars=20,
                           max_upload_bytes=100)
    ok = corpus_input("a b\nc d", "a B\nc D", ["A b\nC d"], limits=limits)
    assert len(ok) == 2
    cases = [
        (("a\nb\nc\nd", "a\nb\nc\nd", ["a\nb\nc\nd"]), "hypothesis: 4 sentences; a request holds at most 3"),
        (("a b\na b c d e", "a b\nx", ["a b\nx"]), "source:2: line of 5 tokens; at most 4"),
        (("a", "a", ["x" * 21]), "reference 1:1: line of 21 characters; at most 20"),
        (("a b c\n" * 3, "a b c\n" * 3, ["a b c d\n" * 3, "a b c d\n" * 3, "a b c d\n" * 3]),
         "the request holds 108 characters; at most 60"),  # 3 x 6 + 3 x 6 + 9 x 8
    ]
    for args, message in cases:
        with pytest.raises(GecInputError) as error:
            corpus_input(*args, limits=limits)
        assert str(error.value).startswith(message), str(error.value)
    big = tmp_path / "big.txt"
    big.write_text("a b\n" * 30)  # 120 bytes: refused before it is read
    with pytest.raises(GecInputError, match=r"hypothesis \(big.txt\): the file has 120 bytes"):
        corpus_input(None, None, [], hypothesis_file=str(big), limits=limits)
    with pytest.raises(GecInputError, match=r"gold file \(big.txt\): the file has 120 bytes"):
        corpus_input(None, "a", [], m2_file=str(big), limits=limits)


def test_space_limits_from_the_environment():
    from gecscore.spaces.inputs import RequestLimits

    limits = RequestLimits.from_env({"GECSCORE_SPACE_MAX_SENTENCES": "7", "GECSCORE_SPACE_MAX_CHARS": "-3",
                                     "GECSCORE_SPACE_MAX_LINE_TOKENS": "many"})
    assert (limits.max_sentences, limits.max_chars, limits.max_line_tokens) == (7, 500_000, 400)
    assert "At most 7 sentences" in limits.describe()


def test_space_gold_file_sentences_are_bounded(tmp_path):
    from gecscore.spaces.inputs import RequestLimits, corpus_input, score_request

    gold = tmp_path / "gold.m2"
    gold.write_text("S " + " ".join(["w"] * 9) + "\n\n")
    limits = RequestLimits(max_line_tokens=8)
    corpus = corpus_input(None, "w w", [], m2_file=str(gold), limits=limits)
    with pytest.raises(GecInputError, match="gold file:1: line of 9 tokens; at most 8"):
        score_request(gecscore.load("pt_m2", scorer="none"), corpus, limits)


@FAST
@given(st.lists(st.one_of(WORDS, TEXT, st.just("w " * 30)), min_size=1, max_size=8))
def test_space_requests_are_within_limits_or_refused(lines):
    from gecscore.spaces.inputs import RequestLimits, corpus_input

    limits = RequestLimits(max_sentences=5, max_chars=200, max_line_tokens=10, max_line_chars=50)
    text = "\n".join(lines)
    corpus = gec_error_or(lambda: corpus_input(text, text, [text], limits=limits))
    if corpus is None:
        return
    everything = [*corpus.sources, *corpus.hypotheses, *(r for refs in corpus.references for r in refs)]
    assert len(corpus) <= limits.max_sentences
    assert all(len(line) <= limits.max_line_chars and len(line.split()) <= limits.max_line_tokens
               for line in everything)
