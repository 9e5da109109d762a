"""What every gecscore evaluate module declares: the GEC input features and its MetricInfo."""
from __future__ import annotations

import datasets
import evaluate


def gec_features() -> datasets.Features:
    """``sources`` and ``predictions`` (strings) and ``references`` (a list of strings each)."""
    return datasets.Features({
        "sources": datasets.Value("string", id="sequence"),
        "predictions": datasets.Value("string", id="sequence"),
        "references": datasets.Sequence(datasets.Value("string", id="sequence"), id="references"),
    })


def gec_metric_info(description: str, citation: str, inputs_description: str,
                    **urls: list[str]) -> evaluate.MetricInfo:
    """The MetricInfo of a gecscore metric (``urls``: codebase_urls, reference_urls)."""
    return evaluate.MetricInfo(description=description, citation=citation,
                               inputs_description=inputs_description, features=gec_features(), **urls)
