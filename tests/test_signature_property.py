"""Every option that changes a number changes the signature: each declared option of every
metric that needs no model or judge, set to another valid value, either leaves every number
as it was or changes the signature (on the bundled example, a small hand-made M2 corpus whose
precision and recall differ, so that beta moves F without any data, and, with GEC_DATA, a
CoNLL-2014 slice). An option missing from the signature, or shown under a rule that hides it when it
matters, fails here."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gecscore
from gecscore.io.m2 import read_m2
from gecscore.io.text import read_lines
from gecscore.options import applies, fields_of
from gecscore.registry import metric_class
from gecscore.types import GoldCorpus

from datapaths import CONLL14

MODEL_FREE = {"cleme": {}, "cleme2": {}, "pt_m2": {"scorer": "none"}, "imeasure": {}, "gleu": {}, "green": {},
              "gotoscorer": {"no_weight": True}}
# options whose values are free text: a valid other value for each
TEXT_VALUES = {"max": ["cf", "dp", "ci"], "alpha": ["0.4,0.3,0.2,0.1", "1,0,0,0"], "lang": ["zh"]}
SLICE = 30
# precision 1/2 and recall 1/3 (M2): every beta gives another F, on any machine
HANDMADE_M2 = """S He go to school yesterday and buy a apple .
A 1 2|||R:VERB:SVA|||went|||REQUIRED|||-NONE-|||0
A 6 7|||R:VERB:TENSE|||bought|||REQUIRED|||-NONE-|||0
A 8 9|||R:DET|||an|||REQUIRED|||-NONE-|||0

S The cats is on mat .
A 2 3|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
"""
HANDMADE_HYPOTHESES = ["He went to the school yesterday and buy a apple .", "The cats is on a mat ."]


def other_values(f, current: Any) -> list[Any]:
    """Valid values of option ``f`` other than ``current``."""
    meta = f.metadata
    if meta["choices"] is not None:
        return [c for c in meta["choices"] if c != current]
    kinds = meta["kind"] if isinstance(meta["kind"], tuple) else (meta["kind"],)
    if bool in kinds:
        return [not current]
    if f.name in TEXT_VALUES:
        return TEXT_VALUES[f.name]
    if int in kinds and float not in kinds:
        base = current if isinstance(current, int) else 1
        values = [base + 1, base + 3] + ([base - 1] if base - 1 >= (meta["minimum"] or 0) else [])
        return [v for v in values if meta["maximum"] is None or v <= meta["maximum"]]
    if float in kinds:
        base = current if isinstance(current, float) else 1.0
        return [v for v in (base * 0.5, base * 2.0) if meta["maximum"] is None or v <= meta["maximum"]]
    if tuple in kinds or list in kinds:
        return [("x.jsonl",)]
    return ["other"]


def corpora() -> list[tuple[str, GoldCorpus, list[str]]]:
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples"
    sources = read_lines(examples / "source.txt")
    references = [read_lines(examples / f"reference{k}.txt") for k in (0, 1)]
    from gecscore.lang.en.gold import gold_from_text

    found = [("examples", gold_from_text(sources, [list(r) for r in zip(*references)]),
              read_lines(examples / "hypothesis.txt"))]
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "handmade.m2"
        path.write_text(HANDMADE_M2, encoding="utf-8")
        found.append(("handmade", GoldCorpus(tuple(read_m2(path)), "m2"), list(HANDMADE_HYPOTHESES)))
    gold_path = CONLL14 / "official-2014.combined.m2"
    if gold_path.exists():
        gold = tuple(read_m2(gold_path)[:SLICE])
        found.append(("conll14", GoldCorpus(gold, "m2"), read_lines(CONLL14 / "systems" / "AMU.txt")[:SLICE]))
    return found


CORPORA = corpora()


def numbers(result) -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in result.values.items():
        if isinstance(value, dict) and key != "per_type":
            out.update({f"{key}.{k}": v for k, v in value.items() if isinstance(v, (int, float))})
        elif isinstance(value, (int, float)):
            out[key] = value
    return out


def scored(name: str, options: dict[str, Any], gold: GoldCorpus, predictions: list[str]):
    metric = gecscore.load(name, **options)
    return metric.score(metric.prepare(gold), predictions)


CASES = [(name, f.name) for name, base in MODEL_FREE.items() for f in fields_of(metric_class(name).config_type)]


@pytest.mark.parametrize("name, option", CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_an_option_that_changes_a_number_changes_the_signature(name, option):
    base_options = MODEL_FREE[name]
    config_type = metric_class(name).config_type
    f = next(f for f in fields_of(config_type) if f.name == option)
    default_config = config_type(**base_options)
    for corpus, gold, predictions in CORPORA:
        reference = scored(name, base_options, gold, predictions)
        for value in other_values(f, getattr(default_config, option)):
            options = {**base_options, option: value}
            if gecscore.load(name, **options).needs():
                continue   # a value that needs a model or a judge (weighting=similarity, scorer=bertscore)
            try:
                result = scored(name, options, gold, predictions)
            except gecscore.errors.GecInputError:
                continue   # a value refused for this input (e.g. a lattice bound) changes no number
            changed = numbers(result) != numbers(reference) or not np.array_equal(
                result.sentence_stats, reference.sentence_stats)
            if changed:
                assert str(result.signature) != str(reference.signature), (corpus, option, value)
            if f.metadata["signature"] is None or not applies(config_type(**options), option):
                assert str(result.signature) == str(reference.signature), (corpus, option, value)


def test_the_property_catches_an_option_left_out_of_the_signature(monkeypatch):
    """Left out of the signature, ``beta`` (which changes PT-M2's F) fails the check above."""
    import dataclasses

    from gecscore.m2.config import PtM2Config

    fields = {f.name: f for f in dataclasses.fields(PtM2Config)}
    hidden = dict(fields["beta"].metadata, signature=None)
    monkeypatch.setattr(fields["beta"], "metadata", hidden)
    with pytest.raises(AssertionError):
        test_an_option_that_changes_a_number_changes_the_signature("pt_m2", "beta")
