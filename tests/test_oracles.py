"""Differential oracles: every default of ours against its reference implementation, cell by
cell, on every output in GEC_DATA (SEEDA's 15 systems, full and subset; CoNLL-2014's annotators
scored as systems; the published attacks) and a generated stress set.

The reference numbers (``tests/fixtures/oracles/<tool>.json.gz``) were computed by running each
reference implementation ourselves, outside the project; each file records its recipe
(repository, commit, command, Python and package versions, the mechanical changes of a Python 3
port). ``docs/oracles.md`` describes them and lists every cell that differs with the option that
reproduces it. The inputs are rebuilt from GEC_DATA by ``tests/oracle_inputs.py`` (skipped
without it).

Compared: exact counts; scores within 1e-9. ``GECSCORE_ORACLES=all`` compares every input for
the metrics that parse text (the default run takes a fixed part of SEEDA for those, see
``in_default_run``).
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

from datapaths import GEC_DATA
from oracle_inputs import OracleInput, materialise

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "oracles"
TOLERANCE = 1e-9

pytestmark = pytest.mark.realdata


@lru_cache(maxsize=None)
def fixture(tool: str) -> dict:
    """A reference's numbers (``<tool>.json.gz``: gzip-compressed JSON, machine-written)."""
    import gzip

    path = FIXTURES / f"{tool}.json.gz"
    return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8")) if path.exists() else {"cells": {}}


# The default run (make test, inside CI's 15 minutes on a 2-core machine) compares, for every
# reference, the inputs below: the generated stress inputs, the CoNLL-2014 references scored as
# systems, one attack and SEEDA's fluent rewrite REF-F, full and subset (the inputs on which a
# default chosen on CoNLL-2014's systems differed). GECSCORE_ORACLES=all compares every input
# (make test-oracles; docs/oracles.md gives the figures of a full run), the attacks included
# (their whole-sentence rewrites once took the reference MaxMatch graph minutes; compiled, all
# 41 MaxMatch cells take under a minute).
DEFAULT_RUN_SEEDA = ("REF-F",)
DEFAULT_RUN_ATTACKS = ("llmsent",)


def in_default_run(input_id: str) -> bool:
    kind, name = input_id.split("/", 1)
    if kind in ("seeda-all", "seeda-subset"):
        return name in DEFAULT_RUN_SEEDA
    return kind != "attacks" or name in DEFAULT_RUN_ATTACKS


def cells(tool: str, config: str, *, heavy: bool = False, whole_set: bool = False) -> list[str]:
    """The input ids the reference finished for ``config`` (the parameters of a test): those of
    the default run unless GECSCORE_ORACLES=all (``heavy``: kept for the callers' record of which
    tests parse text; every test is filtered the same way now), or all of them for a test that
    needs a whole set of systems at once (``whole_set``: GoToScorer's weights)."""
    every = whole_set or os.environ.get("GECSCORE_ORACLES") == "all"
    return [input_id for input_id, configs in fixture(tool)["cells"].items()
            if config in configs and "unfinished" not in configs[config]
            and (every or in_default_run(input_id))]


@pytest.fixture(scope="module")
def oracle_inputs(tmp_path_factory) -> dict[str, OracleInput]:
    if not (GEC_DATA / "seeda").exists():
        pytest.skip(f"evaluation data not found at {GEC_DATA} (set GEC_DATA)")
    return {item.id: item for item in materialise(GEC_DATA, tmp_path_factory.mktemp("oracle-inputs"))}


def lines(path: Path) -> list[str]:
    from gecscore.io.text import read_lines

    return read_lines(path)


# --- M2: m2scorer 3.2 (nusnlp/m2scorer, the official CoNLL-2014 scorer) ---------------------

@lru_cache(maxsize=2)
def our_m2_levels(item: OracleInput):
    """Plain M2 and SentM2 with every other option at its default, through the seam (the two
    levels share the MaxMatch edits, as a leaderboard's configurations do)."""
    from gecscore.io.m2 import read_m2
    from gecscore.m2.config import PtM2Config
    from gecscore.m2.metric import PtM2Metric
    from gecscore.types import GoldCorpus, Target

    corpus, sentence = (PtM2Metric(PtM2Config(scorer="none", level=level)) for level in ("corpus", "sentence"))
    prepared = corpus.prepare(GoldCorpus(tuple(read_m2(item.gold)), "m2"))
    targets = [Target(tuple(line.split()), ()) for line in lines(item.hypothesis)]
    work: dict = {}
    return {"corpus": corpus.score(prepared, targets, work=work).detail,
            "sentence": sentence.score(prepared, targets, work=work).detail}


def our_m2(item: OracleInput, level: str):
    return our_m2_levels(item)[level]


def m2scorer_differences(reference: dict, ours) -> list[str]:
    """Where our plain M2 (corpus level) differs from m2scorer 3.2's cell."""
    problems = []
    differing = []
    for index, (expected, candidates) in enumerate(zip(reference["annotators"], ours.candidates, strict=True)):
        if expected is None:          # the reference did not finish this sentence
            continue
        got = [[c.edits.annotator, *map(int, (c.counts.correct, c.counts.proposed, c.counts.gold))] for c in candidates]
        if got != expected:
            differing.append((index, expected, got))
    if differing:
        problems.append(f"m2: {len(differing)} sentences differ, first: {differing[:3]}")
    corpus = reference.get("corpus")
    if corpus and "unfinished" not in corpus:
        counts = (ours.counts.correct, ours.counts.proposed, ours.counts.gold)
        if counts != (corpus["correct"], corpus["proposed"], corpus["gold"]):
            problems.append(f"m2 counts {counts} != {corpus}")
        if (ours.p, ours.r, ours.f) != pytest.approx((corpus["p"], corpus["r"], corpus["f"]), abs=TOLERANCE):
            problems.append(f"m2 P/R/F {(ours.p, ours.r, ours.f)} != {corpus}")
        chosen = [c[s.choice].edits.annotator for c, s in zip(ours.candidates, ours.sentences)]
        if "chosen" in reference and chosen != reference["chosen"]:
            problems.append("m2: another annotator chosen at sentences "
                            f"{[i for i, (a, b) in enumerate(zip(chosen, reference['chosen'])) if a != b][:10]}")
    return problems


def sentm2_differences(reference: dict, ours) -> list[str]:
    """Where our SentM2 differs from the PT-M2 reference code's (base sentm2, scorer self)."""
    got = [s.f for s in ours.sentences]
    differing = [(i, e, g) for i, (e, g) in enumerate(zip(reference["sentences"], got, strict=True))
                 if e is not None and abs(e - g) > TOLERANCE]
    problems = [f"sentm2: {len(differing)} sentences differ, first: {differing[:3]}"] if differing else []
    if reference.get("score") is not None and abs(ours.f - reference["score"]) > TOLERANCE:
        problems.append(f"sentm2 mean {ours.f} != {reference['score']}")
    return problems


MAXMATCH_INPUTS = sorted(set(cells("m2scorer", "m2")) | set(cells("ptm2", "sentm2")) | set(cells("ptm2", "m2")))


@pytest.mark.parametrize("input_id", MAXMATCH_INPUTS)
def test_m2_and_sentm2_defaults_equal_m2scorer_and_the_pt_m2_reference(input_id, oracle_inputs):
    """Plain M2 against m2scorer 3.2 (every sentence's every annotator, the corpus counts, the
    chosen annotators) and against PT-M2's base m2; SentM2 against PT-M2's base sentm2 (every
    sentence's F and the mean): the cells each reference finished for this input."""
    item = oracle_inputs[input_id]
    problems = []
    m2scorer_cell = fixture("m2scorer")["cells"].get(input_id, {}).get("m2")
    if m2scorer_cell and "annotators" in m2scorer_cell:
        problems += m2scorer_differences(m2scorer_cell, our_m2(item, "corpus"))
    ptm2_cells = fixture("ptm2")["cells"].get(input_id, {})
    if "sentences" in ptm2_cells.get("sentm2", {}):
        problems += sentm2_differences(ptm2_cells["sentm2"], our_m2(item, "sentence"))
    if ptm2_cells.get("m2", {}).get("score") is not None:
        if abs(our_m2(item, "corpus").f - ptm2_cells["m2"]["score"]) > TOLERANCE:
            problems.append(f"pt_m2 base m2: {our_m2(item, 'corpus').f} != {ptm2_cells['m2']['score']}")
    assert problems == []


# --- ERRANT: errant 3.0.2's errant_parallel + errant_compare ---------------------------------

ERRANT_MODES = {"compare": "cs", "compare-ds": "ds"}


@lru_cache(maxsize=4)
def our_errant_edits(item: OracleInput):
    """Hypothesis edits as errant_parallel writes them (our ERRANT), gold edits as the M2 has them."""
    from gecscore.m2.errant_compare import edits_from_text, read_edits

    sources = lines(item.source)
    hypotheses, _ = edits_from_text(sources, lines(item.hypothesis), [[s] for s in sources], lang="en")
    return hypotheses, read_edits(item.gold)


@pytest.mark.parametrize("config", sorted(ERRANT_MODES))
@pytest.mark.parametrize("input_id", cells("errant", "compare", heavy=True))
def test_errant_equals_errant_compare(input_id, config, oracle_inputs):
    from gecscore.m2.errant_compare import CompareOptions, compare

    reference = fixture("errant")["cells"][input_id].get(config)
    if reference is None or "unfinished" in reference:
        pytest.skip(f"no reference cell for {config}")
    result = compare(*our_errant_edits(oracle_inputs[input_id]), CompareOptions(mode=ERRANT_MODES[config]))
    assert (result.counts.tp, result.counts.fp, result.counts.fn) == (reference["tp"], reference["fp"], reference["fn"])
    # errant_compare rounds P, R and F to 4 decimals (computeFScore), and so do we
    assert result.counts.prf(0.5) == tuple(round(reference[key], 4) for key in ("p", "r", "f0.5"))
    if "sentence_annotator" in reference:
        assert [ref for _, ref in result.chosen] == reference["sentence_annotator"]


# --- GLEU: the official compute_gleu (cnap/gec-ranking) --------------------------------------

@pytest.mark.parametrize("input_id", cells("gleu", "gleu"))
def test_gleu_equals_the_official_script(input_id, oracle_inputs):
    import gecscore

    item = oracle_inputs[input_id]
    reference = fixture("gleu")["cells"][input_id]["gleu"]
    refs = [list(r) for r in zip(*(lines(path) for path in item.references))]
    result = gecscore.load("gleu").compute(lines(item.source), lines(item.hypothesis), refs)
    assert result.score == pytest.approx(reference["corpus"], abs=TOLERANCE)
    if reference.get("sentences"):
        got = [record["gleu"] for record in result.records()]
        assert got == pytest.approx(reference["sentences"], abs=TOLERANCE)


# --- GREEN and GoToScorer: gec-metrics 0.1.1 -------------------------------------------------

def text_references(item: OracleInput) -> list[list[str]]:
    return [list(r) for r in zip(*(lines(path) for path in item.references))]


@pytest.mark.parametrize("input_id", cells("gec_metrics", "green"))
def test_green_equals_gec_metrics(input_id, oracle_inputs):
    import gecscore

    item = oracle_inputs[input_id]
    reference = fixture("gec_metrics")["cells"][input_id]["green"]
    args = (lines(item.source), lines(item.hypothesis), text_references(item))
    assert gecscore.load("green").compute(*args).score == pytest.approx(reference["corpus"], abs=TOLERANCE)
    if reference.get("sentence"):
        sentences = [r["green"] for r in gecscore.load("green", level="sentence").compute(*args).records()]
        assert sentences == pytest.approx(reference["sentence"], abs=TOLERANCE)


@pytest.mark.parametrize("input_id", cells("gec_metrics", "gotoscorer-noweight", heavy=True))
def test_gotoscorer_without_weights_equals_gec_metrics(input_id, oracle_inputs):
    import gecscore

    item = oracle_inputs[input_id]
    reference = fixture("gec_metrics")["cells"][input_id]["gotoscorer-noweight"]
    args = (lines(item.source), lines(item.hypothesis), text_references(item))
    assert gecscore.load("gotoscorer", no_weight=True).compute(*args).score == \
        pytest.approx(reference["corpus"], abs=TOLERANCE)


# --- ChERRANT (HillZhang1999/MuCGEC, scorers/ChERRANT), char level ---------------------------

@pytest.mark.parametrize("input_id", cells("cherrant", "char"))
def test_chinese_equals_cherrant(input_id, tmp_path):
    from gecscore.cli import main
    from oracle_inputs import mucgec_inputs

    if not (GEC_DATA / "mucgec").exists():
        pytest.skip(f"evaluation data not found at {GEC_DATA} (set GEC_DATA)")
    reference = fixture("cherrant")["cells"][input_id]["char"]
    hyp, ref = {i: (h, r) for i, h, r in mucgec_inputs(GEC_DATA, tmp_path)}[input_id]
    out = tmp_path / "out.json"
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["errant", "--lang", "zh", "--hyp", str(hyp), "--ref", str(ref), "--json"]) == 0
    got = json.loads(buffer.getvalue())
    assert (got["tp"], got["fp"], got["fn"]) == (reference["tp"], reference["fp"], reference["fn"])


# --- CLEME and CLEME2.0: THUKElab/CLEME, unweighted ------------------------------------------

@lru_cache(maxsize=4)
def cleme_samples(item: OracleInput, gold: Path):
    from gecscore.chunks.samples import samples_from_m2_and_text
    from gecscore.io.m2 import read_m2

    return samples_from_m2_and_text(read_m2(gold), lines(item.hypothesis))


@pytest.mark.parametrize("config", ["cleme-dep", "cleme-ind", "cleme2-dep"])
@pytest.mark.parametrize("input_id", cells("cleme", "cleme-dep", heavy=True))
def test_cleme_equals_the_reference(input_id, config, oracle_inputs, tmp_path_factory):
    from gecscore.chunks.cleme import score_cleme
    from gecscore.chunks.cleme2 import score_cleme2
    from gecscore.chunks.config import Cleme2Config, ClemeConfig
    from oracle_inputs import errant_gold

    reference = fixture("cleme")["cells"][input_id].get(config)
    if reference is None or "unfinished" in reference:
        pytest.skip(f"no reference cell for {config}")
    item = oracle_inputs[input_id]
    gold = errant_gold(item, GEC_DATA, tmp_path_factory.mktemp("errant-gold"))
    samples = cleme_samples(item, gold)
    assumption = config.rsplit("-", 1)[1]
    if config.startswith("cleme2"):
        result = score_cleme2(samples, Cleme2Config(assumption=assumption))
        c = result.counts
        assert (c.tp, c.fp_ne, c.fp_un, c.fn, c.tn) == tuple(reference[k] for k in ("tp", "fp_ne", "fp_un", "fn", "tn"))
        assert [result.scores[k] for k in ("hit", "wrong", "under", "over")] == pytest.approx(
            [reference[k] for k in ("hit", "wrong", "under", "over")], abs=TOLERANCE)
        assert result.score == pytest.approx(reference["score"], abs=TOLERANCE)
    else:
        result = score_cleme(samples, ClemeConfig(assumption=assumption, weighting="none"))
        c = result.counts
        assert (c.tp, c.fp, c.fn, c.tn) == tuple(reference[k] for k in ("tp", "fp", "fn", "tn"))
        assert [result.scores[k] for k in ("p", "r", "f")] == pytest.approx(
            [reference[k] for k in ("p_unrounded", "r_unrounded", "f0.5_unrounded")], abs=TOLERANCE)


# --- I-measure: ieval.py (mfelice/imeasure), its defaults -------------------------------------

def run_cli_json(args: list[str]) -> dict:
    import contextlib
    import io

    from gecscore.cli import main

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0
    return json.loads(buffer.getvalue())


def imeasure_excluded(reference_file: dict, item: OracleInput, cell: dict) -> set[int]:
    """0-based sentences left out of the comparison: where the reference converter's XML gold
    differs from ours (NLTK re-tokenises corrections such as 'known,the'), where the reference did
    not finish, and where its choice among tied references depends on Python's set order."""
    differences = reference_file.get("gold_conversion_differences", {})
    by_name = {Path(path).name: ids for path, ids in differences.items() if path != "what"}
    excluded = {i - 1 for i in by_name.get(item.gold.name, [])}
    excluded |= {i - 1 for i in cell.get("sentences_tied_with_different_counts", [])}
    excluded |= {i for i, row in enumerate(cell["sentences_correction"]) if row is None}
    return excluded


@pytest.mark.parametrize("input_id", cells("imeasure", "default", heavy=True))
def test_imeasure_equals_ieval(input_id, oracle_inputs, tmp_path):
    reference_file = fixture("imeasure")
    cell = reference_file["cells"][input_id]["default"]
    item = oracle_inputs[input_id]
    records = tmp_path / "sentences.jsonl"
    ours = run_cli_json(["imeasure", "--m2", str(item.gold), "--hyp", str(item.hypothesis), "--json", "--quiet",
                         "--per-sentence", str(records)])
    rows = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    excluded = imeasure_excluded(reference_file, item, cell)
    keys = ("tp", "tn", "fp", "fn", "fpn")
    differing = []
    for index, record in enumerate(rows):
        if index in excluded:
            continue
        for aspect in ("detection", "correction"):
            expected = cell[f"sentences_{aspect}"][index][:10]
            got = [record[aspect][k] for k in keys] + [record["baseline"][k] for k in keys]
            if got != expected:
                differing.append((index, aspect, expected, got))
    assert differing == [], f"{len(differing)} rows differ, first: {differing[:3]}"
    corpus = cell.get("corpus", {})
    if not excluded and "unfinished" not in corpus:
        for aspect in ("detection", "correction"):
            assert {k: ours[aspect][k] for k in keys} == {k: corpus[aspect][k] for k in keys}
            assert ours[aspect]["i"] == pytest.approx(corpus[aspect]["i"], abs=TOLERANCE)
            assert ours[aspect]["wacc"] == pytest.approx(corpus[aspect]["wacc"], abs=TOLERANCE)


@pytest.mark.parametrize("seeda_set", ["seeda-all", "seeda-subset"])
def test_weighted_gotoscorer_with_the_correction_rule_equals_gec_metrics(seeda_set, oracle_inputs):
    """Weights from the set's 15 systems. gec-metrics counts a reference chunk corrected by a
    system when any chunk of the system has the same corrected string (``weight_match=
    "correction"``); our default is the paper's rule (same span and correction), see
    docs/oracles.md."""
    import gecscore

    if seeda_set == "seeda-all" and os.environ.get("GECSCORE_ORACLES") != "all":
        pytest.skip("15 systems x 1,312 sentences through ERRANT: GECSCORE_ORACLES=all (seeda-subset runs always)")
    ids = [i for i in cells("gec_metrics", "gotoscorer", whole_set=True) if i.startswith(seeda_set + "/")]
    if not ids:
        pytest.skip("no reference cells")
    items = [oracle_inputs[i] for i in ids]
    metric = gecscore.load("gotoscorer", weight_match="correction")
    prepared = metric.prepare_text(lines(items[0].source), text_references(items[0]))
    scored = dict(metric.score_systems(prepared, [(item.id, lines(item.hypothesis)) for item in items]))
    got = {i: scored[i].score for i in ids}
    expected = {i: fixture("gec_metrics")["cells"][i]["gotoscorer"]["corpus"] for i in ids}
    assert got == pytest.approx(expected, abs=TOLERANCE)
