"""Gradio Space for GLEU: n-gram precision against the references, taking back the source n-grams
the reference changed.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gecscore
from gecscore.gleu.config import GleuConfig
from gecscore.lang.profiles import OFFERED_LANGS
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
GLEU counts the **n-grams** (n = 1..4) of the **hypothesis** that a **reference** has, and takes
back those it kept from the **source** where the reference changed them; a hypothesis shorter
than the reference pays a brevity penalty. With several references, each of `iterations` rounds
draws one per sentence (as the reference implementation does) and the score is the rounds'
mean. The corpus score pools the n-gram counts; the per-sentence view shows each sentence's
smoothed GLEU, averaged over its references. Press *Load example* to see it in action.
"""
# Each widget is generated from GleuConfig's declaration.
OPTIONS = ("lang", "order", "iterations", "seed")


def compute(corpus, options: dict) -> Outcome:
    """Score with ``gecscore.load("gleu", **options)``: the Space's values, by name."""
    metric = gecscore.load("gleu", **options)
    prepared = prepare_request(metric, corpus)
    result = metric.score(prepared, corpus.hypotheses)
    contract = result.as_dict()
    chart = bar_chart_html([Bar("GLEU", contract["score"], "#4263eb",
                                f"mean of {contract['rounds']} round(s) of reference choice")], "Corpus GLEU")
    records = metric_views.with_texts(result.records(), request_sources(corpus, prepared), corpus.hypotheses)
    return Outcome(contract, chart, records)


SPACE = MetricSpace(
    name="gleu",
    title="GLEU: n-gram precision that penalises what the source kept",
    intro=INTRO,
    legend_html="",
    result_groups=(("score", ("score", "gleu", "rounds")),),
    configs={"gleu": GleuConfig},
    options=OPTIONS,
    choices={"lang": OFFERED_LANGS},
    compute=compute,
    render_view=sentence_table(("gleu",)),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
