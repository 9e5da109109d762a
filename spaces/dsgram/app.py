"""Gradio Space for DSGram: an LLM judge's sub-scores combined with per-sentence AHP weights.

The judge endpoint and API key are typed in by the user, used for this run only and never
stored (no judge cache is written by the Space). Runs from the repository or from a published
Space folder; needs only ``gecscore`` (and gradio).
"""
from gecscore.dsgram.config import DsgramConfig
from gecscore.dsgram.metric import DsgramMetric
from gecscore.errors import GecInputError
from gecscore.options import build_config
from gecscore.spaces import judge_inputs
from gecscore.spaces import metric_views
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.framework import limit_slider
from gecscore.spaces.render import legend_html
from gecscore.spaces.render import Style

INTRO = """\
DSGram asks an LLM judge to rate each correction on three sub-metrics (1-10): **semantic
coherence** (is the meaning kept?), **edit level** (are the edits necessary and minimal?) and
**fluency** (is the result fluent and grammatical?). With *dynamic* weights the judge also
fills an AHP pairwise comparison matrix for the sentence; its eigenvector gives the three
**weights** and its consistency ratio **CR** (< 0.1 is consistent). The score is the weighted
sum. Enter an OpenAI-compatible endpoint and key (used for this run only, never stored), then
press *Load example*. No references needed.

**Your Hugging Face token works as the key**: set base_url to `https://router.huggingface.co/v1`
(Hugging Face Inference Providers), model to a Hub model id such as
`meta-llama/Llama-3.3-70B-Instruct`, and paste your token (`hf_...`) in the API key box. The key
goes only into this run's request headers; it is not stored, logged or written to any cache.
"""
LEGEND = legend_html([Style(key, label, meaning, "transparent", colour) for (key, label, colour), meaning in zip(
    metric_views.SUB_SCORES, ("meaning of the source kept", "edits necessary and minimal",
                              "fluent, grammatical result"))], "Sub-metrics")




def compute(corpus, options: dict, api_key: str | None = None) -> Outcome:
    """Score with the options by name, as ``gecscore.load("dsgram", **options)`` would, but with
    a judge built here around the typed-in key (load would read the key from the environment)."""
    config = build_config(DsgramConfig, options)
    metric = DsgramMetric(config, judge=judge_inputs.make_judge(config, judge_inputs.typed_key(api_key)))
    try:
        result = metric.score(metric.prepare_text(corpus.sources), corpus.hypotheses)
    finally:
        metric.close()
    contract = result.as_dict()
    notes = []
    if contract["n_failed"]:
        notes.append(f"{contract['n_failed']} sentence(s) got no usable answer from the judge and are "
                     "left out of the means (see the per-sentence view).")
    if contract["score"] is None:
        raise GecInputError("the judge answered no sentence; check the endpoint, model and key")
    return Outcome(contract, metric_views.dsgram_chart(contract), result.records(), notes)


def render_view(records, limit=50) -> str:
    return metric_views.records_html(records, metric_views.judgement_html, int(limit))


SPACE = MetricSpace(
    name="dsgram",
    title="DSGram: LLM-judged sub-scores with AHP weights",
    intro=INTRO,
    legend_html=LEGEND,
    result_groups=(("scores (0-10)", ("score", "semantic_coherence", "edit_level", "fluency", "overall")),
                   ("mean AHP weights", ("weights semantic_coherence", "weights edit_level", "weights fluency")),
                   ("sentences", ("n_sentences", "n_inconsistent", "n_weights_fallback", "n_failed"))),
    configs={"dsgram": DsgramConfig},
    choices=judge_inputs.CHOICES,
    placeholders=judge_inputs.placeholders(),
    space_controls={"api_key": judge_inputs.api_key_box},
    compute=compute,
    render_view=render_view,
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
