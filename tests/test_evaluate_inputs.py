"""The evaluate modules read their inputs as meant: references given as a string for some
examples and a list for others are lists (never their printed form), a failed call leaves no
input format behind, and every module's ``_compute`` has explicit keyword parameters with the
declared defaults (evaluate's own conformance rule: no ``**kwargs``)."""
from __future__ import annotations

import inspect

import pytest

evaluate = pytest.importorskip("evaluate")

from datapaths import REPO, example_corpus, library_result, offline_hub  # noqa: F401 - fixture

import gecscore
from gecscore.evaluate_info import module_parameters
from gecscore.options import fields_of
from gecscore.registry import metric_class, module_metrics, module_names

pytestmark = pytest.mark.usefixtures("offline_hub")


# the model-free modules that read references (GoToScorer unweighted: one call is one system)
MIXED_OPTIONS = {"cleme2": {}, "pt_m2": {"scorer": "none"}, "imeasure": {}, "gleu": {}, "green": {},
                 "gotoscorer": {"no_weight": True}}


@pytest.mark.parametrize("module", list(MIXED_OPTIONS))
def test_mixed_string_and_list_references_are_lists(module):
    metric = evaluate.load(str(REPO / "metrics" / module))
    sources, hyps, refs = example_corpus()
    options = MIXED_OPTIONS[module]
    mixed = [r[0] if i % 2 else r for i, r in enumerate(refs)]          # a string, a list, ...
    as_lists = [[r[0]] if i % 2 else r for i, r in enumerate(refs)]
    got = metric.compute(sources=sources, predictions=hyps, references=mixed, **options)
    assert got == library_result(module, sources, hyps, as_lists, **options)
    batched = evaluate.load(str(REPO / "metrics" / module))
    batched.add_batch(sources=sources[:2], predictions=hyps[:2], references=mixed[:2])
    batched.add_batch(sources=sources[2:], predictions=hyps[2:], references=mixed[2:])
    assert batched.compute(**options) == got


def test_a_failed_call_leaves_no_input_format_behind():
    metric = evaluate.load(str(REPO / "metrics" / "cleme2"))
    sources, hyps, refs = example_corpus()
    with pytest.raises(Exception):
        metric.compute(sources=sources, predictions=hyps, references=[r[0] for r in refs][:-1])  # one short
    good = metric.compute(sources=sources, predictions=hyps, references=refs)
    assert good == library_result("cleme2", sources, hyps, refs)
    with pytest.raises(Exception):
        metric.compute(sources=sources, predictions=hyps, references=refs, level="document")
    assert metric.compute(sources=sources, predictions=hyps, references=[r[0] for r in refs]) == \
        library_result("cleme2", sources, hyps, [[r[0]] for r in refs])


@pytest.mark.parametrize("module", module_names())
def test_compute_has_the_declared_keyword_parameters(module):
    """What evaluate's LocalModuleTest.test_load checks (no **kwargs), and that each parameter is
    an option of the module's metrics with its declared default."""
    loaded = evaluate.load(str(REPO / "metrics" / module))
    parameters = inspect.signature(type(loaded)._compute).parameters
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    metrics = module_metrics(module)
    declared = {f.name: f.default for m in metrics for f in fields_of(metric_class(m).config_type)}
    options = {n: p.default for n, p in parameters.items() if n not in ("self", "sources", "predictions",
                                                                         "references", "metric")}
    assert set(options) == set(declared)
    for p in module_parameters(module):
        if len(p.metrics) == len(metrics) and len({repr(f.default) for m in metrics for f in
                                                   fields_of(metric_class(m).config_type) if f.name == p.name}) == 1:
            assert options[p.name] == declared[p.name]
    assert "Options (declared in the metric's config)" in type(loaded)._compute.__doc__


def test_cleme_through_the_cleme2_module_keeps_its_own_defaults():
    metric = evaluate.load(str(REPO / "metrics" / "cleme2"))
    sources, hyps, refs = example_corpus()
    cleme = metric.compute(sources=sources, predictions=hyps, references=refs, metric="cleme")
    assert "|weighting:length|" in cleme["signature"]          # CLEME's default, not CLEME2.0's
    assert cleme == gecscore.load("cleme").compute(sources, hyps, refs).as_dict()
    with pytest.raises(gecscore.errors.GecOptionError, match="alpha: not an option of cleme"):
        metric.compute(sources=sources, predictions=hyps, references=refs, metric="cleme", alpha="1,0,0,0")


@pytest.mark.parametrize("module", module_names())
def test_an_unknown_option_is_named_with_the_closest_one(module):
    """A misspelt option is refused before anything is scored, as ``gecscore.load`` refuses it:
    a TypeError (Python's error for an unexpected keyword) that is also a GecOptionError naming
    the closest option and the known ones; the module scores normally afterwards."""
    from gecscore.errors import GecOptionError, UnknownOptionError

    loaded = evaluate.load(str(REPO / "metrics" / module))
    first = module_parameters(module)[0].name
    with pytest.raises(UnknownOptionError, match=rf"{first}x: unknown option for the {module} module \(did you "
                                                 rf"mean '{first}'\?\); known: ") as caught:
        loaded.compute(sources=["a b ."], predictions=["a b ."], references=[["a b ."]], **{first + "x": 1})
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, GecOptionError)
    with pytest.raises(UnknownOptionError, match="did you mean"):
        gecscore.load(module_metrics(module)[0], **{first + "x": 1})
