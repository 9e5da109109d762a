"""Gradio Space for GLEU: n-gram precision against the references, taking back the source n-grams
the reference changed.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
from gecscore.gleu.config import GleuConfig
from gecscore.lang.profiles import OFFERED_LANGS
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
GLEU counts the **n-grams** (n = 1..4) of the **hypothesis** that a **reference** has, and takes
back those it kept from the **source** where the reference changed them; a hypothesis shorter
than the reference pays a brevity penalty. With several references, each of `iterations` rounds
draws one per sentence (as the reference implementation does) and the score is the rounds'
mean. The corpus score pools the n-gram counts; the per-sentence view shows each sentence's
smoothed GLEU, averaged over its references. Press *Load example* to see it in action.
"""


def chart(contract: dict, metric) -> str:
    return bar_chart_html([Bar("GLEU", contract["score"], "#4263eb",
                               f"mean of {contract['rounds']} round(s) of reference choice")], "Corpus GLEU")


SPACE = MetricSpace(
    name="gleu",
    title="GLEU: n-gram precision that penalises what the source kept",
    intro=INTRO,
    legend_html="",
    result_groups=(("score", ("score", "gleu", "rounds")),),
    configs={"gleu": GleuConfig},
    choices={"lang": OFFERED_LANGS},
    compute=ChartedScore("gleu", chart),
    render_view=sentence_table(("gleu",)),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
