"""Gradio Space for the Scribendi score: a causal language model's perplexity and two similarity
ratios, per changed sentence; reference-free.

The language model is loaded once per configuration and kept (as the evaluate module keeps it).
Runs from the repository or from a published Space folder; needs ``gecscore[models]`` (and gradio).
"""
from gecscore.evaluate_info import configured
from gecscore.scribendi.config import ScribendiConfig
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
from gecscore.spaces.render import Bar
from gecscore.spaces.render import bar_chart_html

INTRO = """\
The Scribendi score needs no references. Each **changed** sentence scores **+1** when a causal
language model (GPT-2 by default) finds the **hypothesis** more likely than the **source** (lower
perplexity) and the change stays close to the source (token sort or Levenshtein ratio at least
the threshold), **-1** otherwise; an unchanged sentence scores **0**. The score is the **sum**.
The first run downloads the model (`lm`: a Hub name or a local folder). Press *Load example*.
"""
# Each widget is generated from ScribendiConfig's declaration.
OPTIONS = ("lm", "threshold", "batch_size", "device")


def compute(corpus, options: dict) -> Outcome:
    """Score with the metric ``gecscore.load("scribendi", **options)`` builds, kept across runs."""
    metric = configured("scribendi", options)
    result = metric.score(prepare_request(metric, corpus), corpus.hypotheses)
    contract = result.as_dict()
    n = contract["sentences"] or 1
    chart = bar_chart_html([Bar("improved", contract["improved"] / n, "#2b8a3e", f"{contract['improved']} sentence(s): +1"),
                            Bar("worsened", contract["worsened"] / n, "#e03131", f"{contract['worsened']} sentence(s): -1"),
                            Bar("unchanged", contract["unchanged"] / n, "#868e96", f"{contract['unchanged']} sentence(s): 0")],
                           f"Share of the sentences (score = sum = {contract['score']:g})")
    records = metric_views.with_texts(result.records(), corpus.sources, corpus.hypotheses)
    return Outcome(contract, chart, records)


SPACE = MetricSpace(
    name="scribendi",
    title="Scribendi score: perplexity and similarity, no references",
    intro=INTRO,
    legend_html="",
    result_groups=(("score (sum)", ("score", "scribendi")),
                   ("sentences", ("improved", "worsened", "unchanged", "sentences"))),
    configs={"scribendi": ScribendiConfig},
    options=OPTIONS,
    compute=compute,
    render_view=sentence_table(("scribendi", "ppl_source", "ppl_hypothesis")),
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
    needs_references=False,
    accepts_m2=False,
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
