"""Gradio Space for the I-measure: token-level WAS labels on a 3-way alignment, and improvement I.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gradio as gr
from gecscore.imeasure.config import OPTIMISE

import gecscore
from gecscore.imeasure.config import IMeasureConfig
from gecscore.imeasure.scorer import METRIC_NAMES
from gecscore.spaces import metric_views
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.inputs import score_request

INTRO = """\
The I-measure aligns the **source**, the **hypothesis** and the best **reference** token by
token and labels every aligned column (the Writer-Annotator-System table): **TP** (changed as
the reference did), **FP** (changed what the reference kept), **FN** (missed a change),
**FPN** (both changed it, differently) and **TN**. Weighted accuracy (WAcc) of the hypothesis
is compared with that of the uncorrected source: **I** > 0 means the system improved the text,
I < 0 that it made it worse. Press *Load example* to see it in action.
"""
MAX_CHOICES = [f"{aspect}{name}" for aspect in "cd" for name in METRIC_NAMES]


def build_options() -> list:
    no_mix = gr.Checkbox(value=False, label="no_mix: score each annotator's reference as a whole "
                                            "(do not mix corrections of different annotators)")
    maximise = gr.Dropdown(MAX_CHOICES, value=IMeasureConfig.max, label="max",
                           info="the value the reference choice maximises ([c]orrection/[d]etection + metric)")
    opt = gr.Radio(list(OPTIMISE), value=IMeasureConfig.opt, label="opt",
                   info="choose references per sentence, or for the corpus total")
    beta = gr.Number(value=IMeasureConfig.beta, label="beta (F beta)", minimum=0)
    w = gr.Number(value=IMeasureConfig.w, label="w (weight of TP and FP in WAcc)", minimum=1)
    max_candidates = gr.Number(value=IMeasureConfig.max_candidates, precision=0, minimum=1,
                               label="max_candidates (reference combinations enumerated per sentence)")
    tokenize = gr.Checkbox(value=False, label="tokenize with spaCy first (for untokenised text)")
    return [no_mix, maximise, opt, beta, w, max_candidates, tokenize]


def compute(corpus, no_mix, maximise, opt, beta, w, max_candidates, tokenize) -> Outcome:
    metric = gecscore.load("imeasure", no_mix=bool(no_mix), max=maximise, opt=opt, beta=float(beta), w=float(w),
                           max_candidates=int(max_candidates), tokenize=bool(tokenize))
    result = score_request(metric, corpus)
    contract = result.as_dict()
    return Outcome(contract, metric_views.imeasure_chart(contract), result.records(), list(result.detail.warnings))


def build_view() -> list:
    return [gr.Slider(1, 500, value=50, step=1, label="at most this many sentences")]


def render_view(records, limit=50) -> str:
    return metric_views.records_html(records, metric_views.alignment_html, int(limit))


FIELDS = ("i", "wacc", "wacc_base", "p", "r", "f", "acc", "acc_base", "tp", "tn", "fp", "fn", "fpn")


SPACE = MetricSpace(
    name="imeasure",
    title="I-measure: WAS labels on a 3-way alignment",
    intro=INTRO,
    legend_html=metric_views.was_legend(),
    result_groups=(("score (= correction I)", ("score",)),
                   ("correction", tuple(f"correction {k}" for k in FIELDS)),
                   ("detection", tuple(f"detection {k}" for k in FIELDS))),
    build_options=build_options,
    compute=compute,
    render_view=render_view,
    build_view=build_view,
    examples=(FOUR_LABELS, THREE_SENTENCES),
    input_help="One tokenised sentence per line. Upload a gold .m2 or I-measure .xml file instead of "
               "source and references if you have one.",
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
