"""Gradio Space for GREEN: an alignment-free F2 over the n-grams of source, hypothesis and
reference.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
from gecscore.green.config import GreenConfig
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import ChartedScore
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.framework import limit_slider
from gecscore.spaces.framework import sentence_table
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


def chart(contract: dict, metric) -> str:
    return bar_chart_html([Bar("GREEN", contract["score"], "#2b8a3e", f"F{metric.config.beta:g}, "
                               f"{metric.config.level} level")], "GREEN")


SPACE = MetricSpace(
    name="green",
    title="GREEN: n-gram F2 without alignment",
    intro=INTRO,
    legend_html="",
    result_groups=(("score", ("score", "green")),),
    configs={"green": GreenConfig},
    leave_out=("lang",),   # as the Space has always been: English text, read as given
    compute=ChartedScore("green", chart),
    render_view=sentence_table(("green", "tp", "fp", "fn")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
