"""Gradio Space for DSGram: an LLM judge's sub-scores combined with per-sentence AHP weights.

The judge endpoint and API key are typed in by the user, used for this run only and never
stored (no judge cache is written by the Space). Runs from the repository or from a published
Space folder; needs only ``gecscore`` (and gradio).
"""
import gradio as gr

from gecscore.judge.backends import BACKENDS
from gecscore.judge.backends import DEFAULT_BASE_URL
from gecscore.judge.backends import DEFAULT_MODEL
from gecscore.judge.backends import OpenAIChatBackend
from gecscore.judge.backends import TransformersBackend
from gecscore.judge.runner import Judge
from gecscore.judge.runner import RetryPolicy
from gecscore.dsgram.config import DsgramConfig
from gecscore.dsgram.metric import DsgramMetric
from gecscore.dsgram.config import WEIGHT_MODES
from gecscore.errors import GecInputError
from gecscore.spaces import metric_views
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
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


def build_options() -> list:
    backend = gr.Radio(list(BACKENDS), value="openai", label="backend",
                       info="openai: any OpenAI-compatible server (OpenAI, Azure, vLLM, Ollama, llama.cpp)")
    base_url = gr.Textbox(label="base_url", value=DEFAULT_BASE_URL, elem_id="gec-base-url")
    api_key = gr.Textbox(label="API key (used for this run only; never stored)", type="password",
                         elem_id="gec-api-key")
    model = gr.Textbox(label="model", value=DEFAULT_MODEL,
                       info="for transformers: a local folder or Hub id of a chat model")
    weights = gr.Radio(list(WEIGHT_MODES), value=DsgramConfig.weights, label="weights",
                       info="dynamic: per-sentence AHP weights; equal: 1/3 each")
    concurrency = gr.Number(value=DsgramConfig.concurrency, precision=0, minimum=1, label="concurrency")
    timeout = gr.Number(value=DsgramConfig.timeout, minimum=1, label="timeout (s)")
    max_retries = gr.Number(value=DsgramConfig.max_retries, precision=0, minimum=0, label="max_retries (HTTP)")
    max_reasks = gr.Number(value=DsgramConfig.max_reasks, precision=0, minimum=0, label="max_reasks (malformed answers)")
    temperature = gr.Number(value=DsgramConfig.temperature, minimum=0, label="temperature")
    top_p = gr.Number(value=DsgramConfig.top_p, minimum=0, maximum=1, label="top_p")
    max_tokens = gr.Number(value=DsgramConfig.max_tokens, precision=0, minimum=1, label="max_tokens")
    device = gr.Textbox(label="device (transformers)", placeholder="default: cuda when available, else cpu")
    batch_size = gr.Number(value=8, precision=0, minimum=1, label="batch_size (transformers)")
    return [backend, base_url, api_key, model, weights, concurrency, timeout, max_retries, max_reasks,
            temperature, top_p, max_tokens, device, batch_size]


def make_judge(backend, base_url, api_key, model, concurrency, timeout, max_retries, device, batch_size):
    """A judge for this run only: the key goes to the HTTP client, no cache is written."""
    if backend == "openai":
        url = (base_url or "").strip() or DEFAULT_BASE_URL
        if not api_key and url.rstrip("/") == DEFAULT_BASE_URL:
            raise GecInputError("the OpenAI API needs a key: enter it in the API key box")
        judge_backend = OpenAIChatBackend((model or "").strip() or DEFAULT_MODEL, url, api_key=api_key or None,
                                          timeout=float(timeout), max_connections=int(concurrency))
    else:
        if not (model or "").strip():
            raise GecInputError("the transformers backend needs a model (a local folder or Hub id)")
        judge_backend = TransformersBackend(model.strip(), device=(device or "").strip() or None,
                                            batch_size=int(batch_size))
    return Judge(judge_backend, None, concurrency=int(concurrency),
                 retry=RetryPolicy(max_retries=int(max_retries)), progress=True)


def compute(corpus, backend, base_url, api_key, model, weights, concurrency, timeout, max_retries,
            max_reasks, temperature, top_p, max_tokens, device, batch_size) -> Outcome:
    config = DsgramConfig(weights=weights, max_reasks=int(max_reasks), temperature=float(temperature),
                          top_p=float(top_p), max_tokens=int(max_tokens))
    judge = make_judge(backend, base_url, api_key, model, concurrency, timeout, max_retries, device, batch_size)
    metric = DsgramMetric(config, judge=judge)
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


def build_view() -> list:
    return [gr.Slider(1, 500, value=50, step=1, label="at most this many sentences")]


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
    build_options=build_options,
    compute=compute,
    render_view=render_view,
    build_view=build_view,
    examples=(FOUR_LABELS, THREE_SENTENCES),
    needs_references=False,
    accepts_m2=False,
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
