"""Gradio Space for SOME: three BERT regressors (grammaticality, fluency, meaning preservation)
combined by weights; reference-free.

The regressors are loaded once per configuration and kept (as the evaluate module keeps them).
Runs from the repository or from a published Space folder; needs ``gecscore[models]`` (and gradio).
"""
from gecscore.evaluate_info import configured
from gecscore.some.config import SomeConfig
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
SOME needs no references. Three BERT regressors trained on human 1-4 ratings score each
**hypothesis**: **grammaticality** and **fluency** read it alone, **meaning** preservation reads it
with its **source**. Each is normalised to 0-1 and the sentence score is their weighted sum
(0.55 / 0.43 / 0.02); the score is the mean over the sentences. Give the three folders unpacked
from the SOME release (`gfm-models/grammer`, `fluency`, `meaning`), then press *Load example*.
"""
SUB_SCORES = (("grammaticality", "#7048e8"), ("fluency", "#1971c2"), ("meaning", "#e8590c"))


def chart(contract: dict, metric) -> str:
    config = metric.config
    weights = {"grammaticality": config.weight_grammaticality, "fluency": config.weight_fluency,
               "meaning": config.weight_meaning}
    return bar_chart_html([Bar(key, contract[key], colour, f"weight {weights[key]:g}") for key, colour in SUB_SCORES]
                          + [Bar("SOME", contract["score"], "#2b8a3e", "the weighted sum")],
                          "Mean normalised sub-scores and SOME")


SPACE = MetricSpace(
    name="some",
    title="SOME: grammaticality, fluency and meaning regressors, no references",
    intro=INTRO,
    legend_html="",
    result_groups=(("score (mean)", ("score", "some")),
                   ("mean normalised sub-scores", ("grammaticality", "fluency", "meaning"))),
    configs={"some": SomeConfig},
    compute=ChartedScore("some", chart, configured),   # the regressors kept across runs
    render_view=sentence_table(("some", "grammaticality", "fluency", "meaning")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
