"""Gradio Space for GREEN: an alignment-free F2 over the n-grams of source, hypothesis and
reference.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gecscore
from gecscore.green.config import GreenConfig
from gecscore.spaces import metric_views
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.framework import limit_slider
from gecscore.spaces.framework import sentence_table
from gecscore.spaces.inputs import prepare_request
from gecscore.spaces.inputs import request_sources
from gecscore.spaces.render import Bar
from gecscore.spaces.render import bar_chart_html

INTRO = """\
GREEN compares the **n-grams** (n = 1..4) of the **source**, the **hypothesis** and the
**reference** without aligning them: an n-gram the hypothesis deletes, inserts or keeps as the
reference does is a **TP**; one it deletes or inserts where the reference does not is an **FP**
(over-correction); one it keeps or leaves out where the reference changes it is an **FN**
(under-correction). Precision and recall per order, their geometric means and F2 give the score;
each sentence keeps its best reference. The per-sentence view lists each sentence's GREEN and
its TP / FP / FN per n-gram order. Press *Load example* to see it in action.
"""
# Each widget is generated from GreenConfig's declaration.
OPTIONS = ("order", "beta", "unit", "level")


def compute(corpus, options: dict) -> Outcome:
    """Score with ``gecscore.load("green", **options)``: the Space's values, by name."""
    metric = gecscore.load("green", **options)
    prepared = prepare_request(metric, corpus)
    result = metric.score(prepared, corpus.hypotheses)
    contract = result.as_dict()
    chart = bar_chart_html([Bar("GREEN", contract["score"], "#2b8a3e", f"F{metric.config.beta:g}, "
                                f"{metric.config.level} level")], "GREEN")
    records = metric_views.with_texts(result.records(), request_sources(corpus, prepared), corpus.hypotheses)
    return Outcome(contract, chart, records)


SPACE = MetricSpace(
    name="green",
    title="GREEN: n-gram F2 without alignment",
    intro=INTRO,
    legend_html="",
    result_groups=(("score", ("score", "green")),),
    configs={"green": GreenConfig},
    options=OPTIONS,
    compute=compute,
    render_view=sentence_table(("green", "tp", "fp", "fn")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
