"""Gradio Space for the Scribendi score: a causal language model's perplexity and two similarity
ratios, per changed sentence; reference-free.

The language model is loaded once per configuration and kept (as the evaluate module keeps it).
Runs from the repository or from a published Space folder; needs ``gecscore[models]`` (and gradio).
"""
from gecscore.evaluate_info import configured
from gecscore.scribendi.config import ScribendiConfig
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
The Scribendi score needs no references. Each **changed** sentence scores **+1** when a causal
language model (GPT-2 by default) finds the **hypothesis** more likely than the **source** (lower
perplexity) and the change stays close to the source (token sort or Levenshtein ratio at least
the threshold), **-1** otherwise; an unchanged sentence scores **0**. The score is the **sum**.
The first run downloads the model (`lm`: a Hub name or a local folder). Press *Load example*.
"""


def chart(contract: dict, metric) -> str:
    n = contract["sentences"] or 1
    bars = [Bar(key, contract[key] / n, colour, f"{contract[key]} sentence(s): {points}")
            for key, colour, points in (("improved", "#2b8a3e", "+1"), ("worsened", "#e03131", "-1"),
                                        ("unchanged", "#868e96", "0"))]
    return bar_chart_html(bars,
                          f"Share of the sentences (score = sum = {contract['score']:g})")


SPACE = MetricSpace(
    name="scribendi",
    title="Scribendi score: perplexity and similarity, no references",
    intro=INTRO,
    legend_html="",
    result_groups=(("score (sum)", ("score", "scribendi")),
                   ("sentences", ("improved", "worsened", "unchanged", "sentences"))),
    configs={"scribendi": ScribendiConfig},
    compute=ChartedScore("scribendi", chart, configured),   # the model kept across runs
    render_view=sentence_table(("scribendi", "ppl_source", "ppl_hypothesis")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
