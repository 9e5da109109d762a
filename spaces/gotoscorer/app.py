"""Gradio Space for GoToScorer: chunk F0.5 with each chunk weighted by how many of the compared
systems fail to correct it.

The weights come from the outputs of all the systems compared (the paper's procedure): besides
the hypothesis, the visitor uploads the other systems' outputs, and all of them build the
weights; the hypothesis is scored with them. With ``no_weight`` every chunk weighs 1 and no
other system is needed. Runs from the repository or from a published Space folder; needs only
``gecscore`` (and gradio).
"""
from pathlib import Path

import gecscore
from gecscore.errors import GecInputError
from gecscore.gotoscorer.config import GoToScorerConfig
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
from gecscore.spaces.inputs import read_upload
from gecscore.spaces.inputs import request_sources
from gecscore.spaces.inputs import upload_path
from gecscore.spaces.render import Bar
from gecscore.spaces.render import bar_chart_html
import gradio as gr

INTRO = """\
GoToScorer cuts the **source** into chunks along the edits of one **reference** (every token and
every gap between tokens is a chunk) and counts how the **hypothesis** treats each: fixed as the
reference did (**TP**), changed wrongly (**FP**), missed (**FN**) or rightly left alone (**TN**).
In the paper each chunk is **weighted by its difficulty**: the share of the compared systems that
fail to correct it (a chunk every system gets right weighs 0). The weights therefore need the
outputs of **several systems**: upload the other systems' outputs below (one .txt file each,
parallel to the hypothesis), or tick **no_weight** to weigh every chunk 1. Then press
*Load example*.
"""
NEEDS_SYSTEMS = ("GoToScorer's weights come from the outputs of all the systems compared (one system alone "
                 "would weigh every chunk it corrects 0): upload the other systems' outputs, or tick no_weight "
                 "(every chunk weighs 1)")


def other_systems_upload():
    """Not a metric option: the outputs the weights are built from, besides the hypothesis."""
    return gr.File(label="Other systems' outputs, for the weights (.txt, one file per system, parallel to "
                         "the hypothesis)", file_count="multiple", file_types=[".txt"], elem_id="gec-other-systems")


def compute(corpus, options: dict, other_systems=None) -> Outcome:
    """Score with ``gecscore.load("gotoscorer", **options)``; with weights, the hypothesis and the
    uploaded systems are scored together (``score_systems``) and the hypothesis's result kept."""
    metric = gecscore.load("gotoscorer", **options)
    prepared = prepare_request(metric, corpus)
    others = []
    for upload in other_systems or ():
        name = Path(upload_path(upload)).name
        lines = read_upload(upload, f"other system ({name})")
        if len(lines) != len(corpus):
            raise GecInputError(f"{len(lines)} lines but the hypothesis has {len(corpus)}", f"other system ({name})")
        others.append((name, lines))
    notes = []
    if metric.needs_all_systems():
        if not others:
            raise GecInputError(NEEDS_SYSTEMS)
        (_, result), *_ = metric.score_systems(prepared, [("hypothesis", corpus.hypotheses), *others])
        notes.append(f"Chunk weights from {len(others) + 1} systems: the hypothesis and "
                     f"{', '.join(name for name, _ in others)}.")
    else:
        result = metric.score(prepared, corpus.hypotheses)
        if others:
            notes.append("no_weight is ticked: every chunk weighs 1, the other systems' outputs are not used.")
    contract = result.as_dict()
    chart = bar_chart_html([Bar("precision", contract["precision"], "#2b8a3e", "weighted TP / (TP + FP)"),
                            Bar("recall", contract["recall"], "#1971c2", "weighted TP / (TP + FN)"),
                            Bar("F", contract["score"], "#4263eb", f"F{metric.config.beta:g}, "
                                f"{metric.config.level} level")], "GoToScorer")
    records = metric_views.with_texts(result.records(), request_sources(corpus, prepared), corpus.hypotheses)
    return Outcome(contract, chart, records, notes)


SPACE = MetricSpace(
    name="gotoscorer",
    title="GoToScorer: chunk F0.5 weighted by correction difficulty",
    intro=INTRO,
    legend_html="",
    result_groups=(("scores", ("score", "f", "precision", "recall")),
                   ("weighted chunk counts", ("tp", "fp", "fn", "tn"))),
    configs={"gotoscorer": GoToScorerConfig},
    choices={"lang": OFFERED_LANGS},
    space_controls={"other_systems": other_systems_upload},
    compute=compute,
    render_view=sentence_table(("f", "tp", "fp", "fn", "tn")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
