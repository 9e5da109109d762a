"""Gradio Space for IMPARA: a BERT quality estimator gated by source-hypothesis similarity;
reference-free.

The models are loaded once per configuration and kept (as the evaluate module keeps them).
Runs from the repository or from a published Space folder; needs ``gecscore[models]`` (and gradio).
"""
from gecscore.evaluate_info import configured
from gecscore.impara.config import ImparaConfig
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
IMPARA needs no references. A **quality estimator** (a BERT regressor) scores each **hypothesis**
(its sigmoid, 0-1), and a **similarity** gate compares it with its **source** (the cosine of
mean-pooled BERT states): a hypothesis less similar than the threshold scores 0, so a fluent but
unfaithful rewrite cannot score well. The score is the mean over the sentences. The first run
downloads the models (`gotutiyan/IMPARA-QE` and `bert-base-cased`, or give local folders), then
press *Load example*.
"""


def chart(contract: dict, metric) -> str:
    return bar_chart_html([Bar("quality", contract["quality"], "#1971c2", "mean sigmoid(QE), before the gate"),
                           Bar("similarity", contract["similarity"], "#e8590c",
                               f"mean; {contract['gated']} sentence(s) below {metric.config.threshold:g}"),
                           Bar("IMPARA", contract["score"], "#2b8a3e", "mean of the gated scores")],
                          "IMPARA")


SPACE = MetricSpace(
    name="impara",
    title="IMPARA: a quality estimator gated by similarity, no references",
    intro=INTRO,
    legend_html="",
    result_groups=(("score (mean)", ("score", "impara")),
                   ("parts", ("quality", "similarity", "gated"))),
    configs={"impara": ImparaConfig},
    compute=ChartedScore("impara", chart, configured),   # the models kept across runs
    render_view=sentence_table(("impara", "quality", "similarity")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
