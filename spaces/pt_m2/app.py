"""Gradio Space for PT-M2: M2 / ERRANT edits weighted by a pretrained scorer (BERTScore, BARTScore).

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gecscore
from gecscore.m2.config import PtM2Config
from gecscore.spaces import attribution_view
from gecscore.spaces import metric_views
from gecscore.spaces import per_type_view
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.lang.profiles import OFFERED_LANGS
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.inputs import score_request
import gradio as gr

INTRO = """\
PT-M2 scores a system like M2 (precision, recall, F0.5 over edits), but each edit counts by its
**weight**: how much applying it changes a pretrained model's similarity (BERTScore) to the
reference. Trivial edits weigh little, meaningful ones a lot. Below each sentence you see the
system's edits (green: matched a gold edit, purple: not matched) and the gold edits it missed
(blue), each with its weight. Press *Load example* to see it in action.
"""



# What an empty box means where the declaration's help does not say.
PLACEHOLDERS = {"model": "default: bert-base-uncased (facebook/bart-base for bartscore)",
                "batch_size": "default: 64 (16 for bartscore)"}


def compute(corpus, options: dict, attribution: str = "none") -> Outcome:
    """Score with ``gecscore.load("pt_m2", **options)``: the Space's values, by name; with
    ``attribution``, each hypothesis edit's share of its sentence's score as well."""
    metric = gecscore.load("pt_m2", **options)
    result = score_request(metric, corpus)
    contract = result.as_dict()
    chart = metric_views.prf_chart(contract, "Corpus: weighted precision / recall / F")
    if "per_type" in contract:
        chart += per_type_view.per_type_html(contract["per_type"])
    records = attribution_view.with_attribution(metric, corpus, result.records(), attribution)
    return Outcome(contract, chart, records)


def build_view() -> list:
    return [gr.Slider(1, 500, value=50, step=1, label="at most this many sentences"),
            attribution_view.colour_radio()]


def render_view(records, limit=50, colour="labels") -> str:
    if colour == "attribution":
        return attribution_view.sentences_html(records, limit=int(limit))
    return metric_views.records_html(records, metric_views.edits_html, int(limit))


SPACE = MetricSpace(
    name="pt_m2",
    title="PT-M2: edits weighted by a pretrained model",
    intro=INTRO,
    legend_html=metric_views.edits_legend(),
    result_groups=(("scores", ("score", "p", "r")), ("weighted edit counts", ("correct", "proposed", "gold"))),
    configs={"pt_m2": PtM2Config},
    choices={"lang": OFFERED_LANGS},
    placeholders=PLACEHOLDERS,
    space_controls={"attribution": attribution_view.method_radio},
    compute=compute,
    render_view=render_view,
    build_view=build_view,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
