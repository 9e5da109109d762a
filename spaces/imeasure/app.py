"""Gradio Space for the I-measure: token-level WAS labels on a 3-way alignment, and improvement I.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gecscore
from gecscore.imeasure.config import IMeasureConfig
from gecscore.imeasure.config import METRIC_NAMES
from gecscore.spaces import metric_views
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.lang.profiles import OFFERED_LANGS
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.framework import limit_slider
from gecscore.spaces.inputs import score_request

INTRO = """\
The I-measure aligns the **source**, the **hypothesis** and the best **reference** token by
token and labels every aligned column (the Writer-Annotator-System table): **TP** (changed as
the reference did), **FP** (changed what the reference kept), **FN** (missed a change),
**FPN** (both changed it, differently) and **TN**. Weighted accuracy (WAcc) of the hypothesis
is compared with that of the uncorrected source: **I** > 0 means the system improved the text,
I < 0 that it made it worse. Press *Load example* to see it in action.
"""
# The values ``max`` accepts (the config checks it by a rule, so the Space lists them).
MAX_CHOICES = tuple(f"{aspect}{name}" for aspect in "cd" for name in METRIC_NAMES)


def compute(corpus, options: dict) -> Outcome:
    """Score with ``gecscore.load("imeasure", **options)``: the Space's values, by name."""
    metric = gecscore.load("imeasure", **options)
    result = score_request(metric, corpus)
    contract = result.as_dict()
    return Outcome(contract, metric_views.imeasure_chart(contract), result.records(), list(result.detail.warnings))


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
    configs={"imeasure": IMeasureConfig},
    choices={"max": MAX_CHOICES, "lang": OFFERED_LANGS},
    compute=compute,
    render_view=render_view,
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
    input_help="One tokenised sentence per line. Upload a gold .m2 or I-measure .xml file instead of "
               "source and references if you have one.",
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
