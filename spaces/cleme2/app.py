"""Gradio Space for CLEME2.0: hit-, wrong-, under- and over-correction of chunks.

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gecscore
from gecscore.chunks.config import ClemeConfig
from gecscore.chunks.config import Cleme2Config
from gecscore.spaces import attribution_view
from gecscore.spaces import chunks_view
from gecscore.spaces import per_type_view
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.lang.profiles import OFFERED_LANGS
from gecscore.options import JudgeOptions
from gecscore.options import fields_of
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.inputs import score_request
from gecscore.spaces.render import Bar
from gecscore.spaces.render import bar_chart_html
import gradio as gr

INTRO = """\
CLEME2.0 cuts the **source**, the **hypothesis** and every **reference** into the same chunks
and colours each chunk the hypothesis got right or wrong. The corpus is summarised by four
ratios: **hit** (share of real errors fixed exactly), **wrong** (real errors fixed
differently), **under** (real errors missed) and **over** (share of the hypothesis's edits that
were not needed), combined into one **score**. Press *Load example* to see it in action.
"""

# The two metrics this Space serves; the metric radio picks one. Options only one declares
# (alpha: cleme2, beta: cleme) show for that one only, and weighting (none for cleme2, length for
# cleme) starts at "default": each keeps its own.
CONFIGS = {"cleme2": Cleme2Config, "cleme": ClemeConfig}
# The llm weighting's judge runs on the host's judge settings: the Space has no typed-in key, so
# it offers none of the judge's endpoint options.
JUDGE_OPTIONS = tuple(f.name for f in fields_of(JudgeOptions))

# What an empty model box means here (the declaration's help speaks of every model-backed metric).
PLACEHOLDERS = {"model": "default: bert-base-uncased (similarity); the judge's default model (llm)"}


def metric_radio():
    """Not a metric option: which of the two metrics scores."""
    return gr.Radio(list(CONFIGS), value="cleme2", label="metric", elem_id="gec-metric",
                    info="cleme2: hit/wrong/under/over; cleme: chunk precision/recall/F")


def compute(corpus, options: dict, metric: str = "cleme2", attribution: str = "none") -> Outcome:
    """Score with ``gecscore.load(metric, **options)``: only the options ``metric`` has, by name;
    with ``attribution``, each hypothesis edit's share of its sentence's score as well."""
    scorer = gecscore.load(metric, **options)
    result = score_request(scorer, corpus)
    contract = result.as_dict()
    if metric == "cleme2":
        chart = chunks_view.ratio_chart(contract)
    else:
        chart = bar_chart_html([Bar(k, contract[k], "#4263eb", "higher is better") for k in ("p", "r", "f")],
                               "Corpus: chunk precision / recall / F")
    if "per_type" in contract:
        chart += per_type_view.per_type_html(contract["per_type"])
    records = attribution_view.with_attribution(scorer, corpus, result.records(), attribution)
    return Outcome(contract, chart, records)


def build_view() -> list:
    show = gr.Dropdown(list(chunks_view.SHOW_CHOICES), value="all sentences", label="show",
                       elem_id="gec-show")
    limit = gr.Slider(1, 500, value=50, step=1, label="at most this many sentences")
    return [show, limit, attribution_view.colour_radio()]


def render_view(records, show="all sentences", limit=50, colour="labels") -> str:
    if colour == "attribution":
        return attribution_view.sentences_html(records, limit=int(limit))
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
    configs=CONFIGS,
    leave_out=JUDGE_OPTIONS,
    choices={"lang": OFFERED_LANGS},
    placeholders=PLACEHOLDERS,
    space_controls={"metric": metric_radio, "attribution": attribution_view.method_radio},
    pick_metric=lambda space_values: space_values.get("metric") or "cleme2",
    compute=compute,
    render_view=render_view,
    build_view=build_view,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
