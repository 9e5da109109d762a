"""The named leaderboard configurations (``cleme2-corpus-dep``, ``pt_m2-sentence``,
``m2-corpus``, ...): presets of the form ``NAME:key=value,...``, each validated when it is
added. This table is data: the one place of the leaderboard's sharing and scoring code that
names metrics."""
from __future__ import annotations

from typing import Any

from gecscore.leaderboard.configurations import MetricConfig
from gecscore.options import build_config
from gecscore.registry import metric_class

PRESETS: dict[str, MetricConfig] = {}


def preset(name: str, metric: str, description: str, family: str = "", **options: Any) -> MetricConfig:
    """Add a named configuration (validated now: a preset with a bad option cannot exist)."""
    if name in PRESETS:
        raise ValueError(f"metric configuration {name!r} registered twice")
    config = MetricConfig(name, metric, tuple(options.items()), description, family or metric)
    build_config(metric_class(metric).config_type, dict(config.options))
    PRESETS[name] = config
    return config


def _register_presets() -> None:
    for level in ("corpus", "sentence"):
        prefix = "Sent" if level == "sentence" else ""
        for assumption in ("dep", "ind"):
            preset(f"cleme2-{level}-{assumption}", "cleme2", f"{prefix}CLEME2.0-{assumption} (unweighted)",
                   level=level, assumption=assumption)
            preset(f"cleme-{level}-{assumption}", "cleme", f"{prefix}CLEME-{assumption} (length weighting)",
                   level=level, assumption=assumption, weighting="length")
            preset(f"cleme-{level}-{assumption}-unw", "cleme", f"{prefix}CLEME-{assumption} (unweighted)",
                   level=level, assumption=assumption, weighting="none")
    for weighting, tag, label in (("similarity", "sim", "BERTScore similarity weights"),
                                  ("llm", "llm", "LLM edit weights (judge)")):
        for level in ("corpus", "sentence"):
            for assumption in ("dep", "ind"):
                preset(f"cleme2-{tag}-{level}-{assumption}", "cleme2",
                       f"{'Sent' if level == 'sentence' else ''}CLEME2.0-{assumption} ({label})", f"cleme2_{tag}",
                       level=level, assumption=assumption, weighting=weighting)
    for name, base, scorer, label in (
            ("m2", "m2", "none", "M2 (MaxMatch)"),
            ("pt_m2", "m2", "bertscore", "PT-M2 (BERTScore-weighted MaxMatch edits)"),
            ("errant", "errant", "none", "ERRANT (hypothesis ERRANT edits, M2's annotator choice)"),
            ("pt_errant", "errant", "bertscore", "PT-ERRANT (BERTScore-weighted ERRANT edits)")):
        for level in ("corpus", "sentence"):
            preset(f"{name}-{level}", "pt_m2", f"{'Sent' if level == 'sentence' else ''}{label}", name,
                   base=base, scorer=scorer, level=level)
    preset("imeasure", "imeasure", "I-measure (correction I over the corpus, XML gold)")
    preset("green", "green", "GREEN (Koyama et al. 2024; n-gram F2)")
    preset("green-sentence", "green", "SentGREEN (mean sentence GREEN)", level="sentence")
    preset("gotoscorer", "gotoscorer", "GoToScorer (chunk weights from the systems of the run)")
    preset("gotoscorer-noweight", "gotoscorer", "GoToScorer without weights", no_weight=True)
    preset("gleu", "gleu", "GLEU (Napoles et al. 2016; the SEEDA/DSGram reference-based baseline)")
    preset("dsgram", "dsgram", "DSGram (LLM judge, dynamic AHP weights; reference-free)")


_register_presets()
