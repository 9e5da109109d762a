"""Gradio Space for CLEME2.0: hit-, wrong-, under- and over-correction of chunks.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gradio as gr
from gecscore.chunks.config import ClemeConfig
from gecscore.chunks.config import Cleme2Config
from gecscore.chunks.labels import ASSUMPTIONS
from gecscore.options import LEVELS

import gecscore
from gecscore.chunks.config import WEIGHTINGS
from gecscore.chunks.config import DEFAULT_ALPHAS
from gecscore.spaces import chunks_view
from gecscore.spaces import per_type_view
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.inputs import score_request
from gecscore.spaces.render import Bar
from gecscore.spaces.render import bar_chart_html

INTRO = """\
CLEME2.0 cuts the **source**, the **hypothesis** and every **reference** into the same chunks
and colours each chunk the hypothesis got right or wrong. The corpus is summarised by four
ratios: **hit** (share of real errors fixed exactly), **wrong** (real errors fixed
differently), **under** (real errors missed) and **over** (share of the hypothesis's edits that
were not needed), combined into one **score**. Press *Load example* to see it in action.
"""

def build_options() -> list:
    metric = gr.Radio(["cleme2", "cleme"], value="cleme2", label="metric",
                      info="cleme2: hit/wrong/under/over; cleme: chunk precision/recall/F")
    level = gr.Radio(list(LEVELS), value=Cleme2Config.level, label="level",
                     info="corpus: pool all chunks; sentence: mean of sentence scores")
    assumption = gr.Radio(list(ASSUMPTIONS), value=Cleme2Config.assumption, label="assumption",
                          info="dep: score against one reference at a time; ind: any reference counts")
    weighting = gr.Radio(list(WEIGHTINGS), value=Cleme2Config.weighting, label="weighting",
                         info="length: longer chunks weigh less for TP, more for errors (shown per chunk)")
    alpha = gr.Textbox(label="alpha (cleme2: a1,a2,a3,a4 for hit, wrong, under, over)",
                       placeholder=f"default: corpus {','.join(map(str, DEFAULT_ALPHAS['corpus']))}; "
                                   f"sentence {','.join(map(str, DEFAULT_ALPHAS['sentence']))}")
    beta = gr.Number(value=ClemeConfig.beta, label="beta (cleme: F beta)", minimum=0)
    tokenize = gr.Checkbox(value=False, label="tokenize with spaCy first (for untokenised text)")
    per_type = gr.Radio(list(per_type_view.CHOICES), value="none", label="per error type",
                        info="also a table per error type: operation (M/R/U), main (NOUN...), full (R:NOUN)")
    return [metric, level, assumption, weighting, alpha, beta, tokenize, per_type]


def compute(corpus, metric, level, assumption, weighting, alpha, beta, tokenize, per_type="none") -> Outcome:
    options = dict(level=level, assumption=assumption, weighting=weighting, tokenize=bool(tokenize),
                   per_type=per_type_view.option_value(per_type))
    if metric == "cleme2":
        options["alpha"] = (alpha or "").strip() or None
    else:
        options["beta"] = float(beta)
    result = score_request(gecscore.load(metric, **options), corpus)
    contract = result.as_dict()
    if metric == "cleme2":
        chart = chunks_view.ratio_chart(contract)
    else:
        chart = bar_chart_html([Bar(k, contract[k], "#4263eb", "higher is better") for k in ("p", "r", "f")],
                               "Corpus: chunk precision / recall / F")
    if "per_type" in contract:
        chart += per_type_view.per_type_html(contract["per_type"])
    return Outcome(contract, chart, result.records())


def build_view() -> list:
    show = gr.Dropdown(list(chunks_view.SHOW_CHOICES), value="all sentences", label="show",
                       elem_id="gec-show")
    limit = gr.Slider(1, 500, value=50, step=1, label="at most this many sentences")
    return [show, limit]


def render_view(records, show="all sentences", limit=50) -> str:
    ratios = bool(records) and "hit" in records[0]
    return chunks_view.sentences_html(records, show=show, limit=int(limit), ratios=ratios)


SPACE = MetricSpace(
    name="cleme2",
    title="CLEME2.0: hit, wrong, under and over-correction",
    intro=INTRO,
    legend_html=chunks_view.legend(),
    result_groups=(("scores", ("score", "hit", "wrong", "under", "over", "p", "r", "f")),
                   ("chunk counts (weighted sums when weighting is on)",
                    ("tp", "fp_ne", "fp_un", "fp", "fn", "tn"))),
    build_options=build_options,
    compute=compute,
    render_view=render_view,
    build_view=build_view,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
