"""Gradio Space for LLM-S and LLM-E: an LLM judge scores each correction 1-5, shown as the
corrected sentence (LLM-S) or as its edits in the source (LLM-E).

The judge endpoint and API key are typed in by the user, used for this run only and never
stored (no judge cache is written by the Space). Runs from the repository or from a published
Space folder; needs only ``gecscore`` (and gradio).
"""
from gecscore.errors import GecInputError
from gecscore.lang.profiles import OFFERED_LANGS
from gecscore.llm_eval.config import PAPER_MODEL
from gecscore.llm_eval.config import LlmEConfig
from gecscore.llm_eval.config import LlmSConfig
from gecscore.options import build_config
from gecscore.registry import metric_class
from gecscore.spaces import judge_inputs
from gecscore.spaces import metric_views
from gecscore.spaces.examples import FOUR_LABELS
from gecscore.spaces.examples import THREE_SENTENCES
from gecscore.spaces.framework import MetricSpace
from gecscore.spaces.framework import Outcome
from gecscore.spaces.framework import build_demo
from gecscore.spaces.framework import launch
from gecscore.spaces.framework import limit_slider
from gecscore.spaces.render import Bar
from gecscore.spaces.render import bar_chart_html
import gradio as gr

INTRO = """\
An LLM judge reads each **source** with its correction and gives it a score from 1 to 5 (the
prompts of Kobayashi et al. 2024). **LLM-S** shows the judge the corrected **sentence**; **LLM-E**
shows the correction as its **edits** in the source, `[go→goes]`. An unreadable answer is asked
again; a sentence still without a score is left out of the mean. The Space scores one system:
each prompt shows its one correction (the paper compares up to five systems' outputs in one
prompt: score systems together with the library or the leaderboard). Enter an OpenAI-compatible
endpoint and key (used for this run only, never stored), then press *Load example*. No
references needed.

**Your Hugging Face token works as the key**: set base_url to `https://router.huggingface.co/v1`
(Hugging Face Inference Providers), model to a Hub model id such as
`meta-llama/Llama-3.3-70B-Instruct`, and paste your token (`hf_...`) in the API key box.
"""

# The two metrics this Space serves; the metric radio picks one. The options only LLM-E has (the
# edits' language, tokenisation and format) show for it only; criteria lists both metrics'
# criteria (each metric accepts its own).
CONFIGS = {"llm_s": LlmSConfig, "llm_e": LlmEConfig}


def metric_radio():
    """Not a metric option: which of the two metrics scores."""
    return gr.Radio(list(CONFIGS), value="llm_s", label="metric", elem_id="gec-metric",
                    info="llm_s: the judge reads the corrected sentence; llm_e: the judge reads its edits")


def compute(corpus, options: dict, metric: str = "llm_s", api_key: str | None = None) -> Outcome:
    """Score with the options by name, as ``gecscore.load(metric, **options)`` would, but with a
    judge built here around the typed-in key (load would read the key from the environment)."""
    config = build_config(CONFIGS[metric], options)
    scorer = metric_class(metric)(config, judge=judge_inputs.make_judge(config, judge_inputs.typed_key(api_key)))
    try:
        result = scorer.score(scorer.prepare_text(corpus.sources), corpus.hypotheses)
    finally:
        scorer.close()
    contract = result.as_dict()
    if contract["score"] is None:
        raise GecInputError("the judge answered no sentence; check the endpoint, model and key")
    notes = []
    if contract["n_failed"]:
        notes.append(f"{contract['n_failed']} sentence(s) got no usable answer from the judge and are "
                     "left out of the mean (see the per-sentence view).")
    return Outcome(contract, score_chart(contract), result.records(), notes)


def score_chart(result: dict) -> str:
    """How often the judge gave each score, and the mean."""
    low, high = result["scale"]
    scored = sum(result["distribution"].values()) or 1
    bars = [Bar(str(value), result["distribution"].get(str(value), 0) / scored, "#4263eb",
                f"{result['distribution'].get(str(value), 0)} sentence(s)") for value in range(low, high + 1)]
    return bar_chart_html(bars, f"Share of the scored sentences per score (mean {result['score']:.3f})")


def render_view(records, limit=50) -> str:
    edits = any(r["shown"] != r["hypothesis"] for r in records)   # LLM-E: the target as the judge saw it
    columns = ("score", "shown", "attempts", "problems") if edits else ("score", "attempts", "problems")
    return metric_views.sentence_scores_html(records, columns, int(limit))


SPACE = MetricSpace(
    name="llm_eval",
    title="LLM-S and LLM-E: an LLM judge scores each correction 1-5",
    intro=INTRO,
    legend_html="",
    result_groups=(("score (mean judge score)", ("score",)),
                   ("sentences", ("n_sentences", "n_failed", "n_reasked"))),
    configs=CONFIGS,
    choices={**judge_inputs.CHOICES, "lang": OFFERED_LANGS},
    placeholders=judge_inputs.placeholders(PAPER_MODEL),
    space_controls={"metric": metric_radio, "api_key": judge_inputs.api_key_box},
    pick_metric=lambda space_values: space_values.get("metric") or "llm_s",
    compute=compute,
    render_view=render_view,
    build_view=limit_slider,
    examples=(FOUR_LABELS, THREE_SENTENCES),
)

demo = build_demo(SPACE)

if __name__ == "__main__":
    launch(demo)
