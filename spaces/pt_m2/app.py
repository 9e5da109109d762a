"""Gradio Space for PT-M2: M2 / ERRANT edits weighted by a pretrained scorer (BERTScore, BARTScore).

Runs from the repository or from a published Space folder; needs only ``gecscore`` (and gradio).
"""
import gradio as gr
from gecscore.m2.config import PtM2Config
from gecscore.options import LEVELS

import gecscore

from gecscore.errors import GecInputError
from gecscore.m2.config import BASES
from gecscore.m2.config import SCORERS
from gecscore.spaces import metric_views
from gecscore.spaces import per_type_view
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.inputs import score_request

INTRO = """\
PT-M2 scores a system like M2 (precision, recall, F0.5 over edits), but each edit counts by its
**weight**: how much applying it changes a pretrained model's similarity (BERTScore) to the
reference. Trivial edits weigh little, meaningful ones a lot. Below each sentence you see the
system's edits (green: matched a gold edit, purple: not matched) and the gold edits it missed
(blue), each with its weight. Press *Load example* to see it in action.
"""


def build_options() -> list:
    base = gr.Radio(list(BASES), value=PtM2Config.base, label="base",
                    info="system edits by MaxMatch (m2) or by ERRANT (errant)")
    scorer = gr.Radio(list(SCORERS), value=PtM2Config.scorer, label="scorer",
                      info="edit weights; none = plain M2 / ERRANT")
    level = gr.Radio(list(LEVELS), value=PtM2Config.level, label="level",
                     info="sentence = SentPT-M2 (the paper's recommended setting)")
    beta = gr.Number(value=PtM2Config.beta, label="beta", minimum=0)
    model = gr.Textbox(label="model (Hub id or local folder)", elem_id="gec-model",
                       placeholder="default: bert-base-uncased (facebook/bart-base for bartscore)")
    num_layers = gr.Textbox(label="num_layers (BERTScore layer)",
                            placeholder="default: the model's (bert-base-uncased: 9)")
    batch_size = gr.Textbox(label="batch_size", placeholder="default: 64 (16 for bartscore)")
    device = gr.Textbox(label="device", placeholder="default: cuda when available, else cpu")
    max_unchanged = gr.Number(value=PtM2Config.max_unchanged_words, label="max_unchanged_words (MaxMatch)", precision=0, minimum=0)
    tokenize = gr.Checkbox(value=False, label="tokenize with spaCy first (for untokenised text)")
    per_type = gr.Radio(list(per_type_view.CHOICES), value="none", label="per error type",
                        info="also a table per ERRANT type: operation (M/R/U), main (NOUN...), full (R:NOUN); "
                             "an M2 gold's own types are kept")
    return [base, scorer, level, beta, model, num_layers, batch_size, device, max_unchanged, tokenize, per_type]


def _optional_int(value, name: str):
    """An empty box is the default (None); anything else must be a whole number."""
    text = str(value if value is not None else "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise GecInputError(f"{name} must be a whole number, got {text!r}") from None


def compute(corpus, base, scorer, level, beta, model, num_layers, batch_size, device, max_unchanged,
            tokenize, per_type="none") -> Outcome:
    metric = gecscore.load("pt_m2", base=base, scorer=scorer, level=level, beta=float(beta),
                           model=(model or "").strip() or None,
                           num_layers=_optional_int(num_layers, "num_layers"),
                           batch_size=_optional_int(batch_size, "batch_size"),
                           device=(device or "").strip() or None, max_unchanged_words=int(max_unchanged),
                           tokenize=bool(tokenize), per_type=per_type_view.option_value(per_type))
    result = score_request(metric, corpus)
    contract = result.as_dict()
    chart = metric_views.prf_chart(contract, "Corpus: weighted precision / recall / F")
    if "per_type" in contract:
        chart += per_type_view.per_type_html(contract["per_type"])
    return Outcome(contract, chart, result.records())


def build_view() -> list:
    return [gr.Slider(1, 500, value=50, step=1, label="at most this many sentences")]


def render_view(records, limit=50) -> str:
    return metric_views.records_html(records, metric_views.edits_html, int(limit))


SPACE = MetricSpace(
    name="pt_m2",
    title="PT-M2: edits weighted by a pretrained model",
    intro=INTRO,
    legend_html=metric_views.edits_legend(),
    result_groups=(("scores", ("score", "p", "r")), ("weighted edit counts", ("correct", "proposed", "gold"))),
    build_options=build_options,
    compute=compute,
    render_view=render_view,
    build_view=build_view,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
