"""CLEME2.0: interpretable GEC evaluation (hit-, wrong-, under- and over-correction).

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import gec_metric_info
from gecscore.api import cleme2_from_text
from gecscore.api import cleme_from_text

_CITATION = """\
@misc{ye-etal-2024-cleme2,
  title = {{CLEME2.0}: Towards Interpretable Evaluation by Disentangling Edits for Grammatical Error Correction},
  author = {Ye, Jingheng and Xu, Zishan and Li, Yinghui and Song, Linlin and Zhou, Qingyu and Zheng, Hai-Tao and Shen, Ying and Jiang, Wenhao and Kim, Hong-Gee and Liu, Ruitong and Su, Xin and Shan, Zifei},
  year = {2024},
  howpublished = {https://github.com/THUKElab/CLEME}
}
@inproceedings{ye-etal-2023-cleme,
  title = {{CLEME}: Debiasing Multi-reference Evaluation for Grammatical Error Correction},
  author = {Ye, Jingheng and Li, Yinghui and Zhou, Qingyu and Li, Yangning and Ma, Shirong and Zheng, Hai-Tao and Shen, Ying},
  booktitle = {Proceedings of the 2023 Conference on Empirical Methods in Natural Language Processing},
  year = {2023}
}
"""

_DESCRIPTION = """\
CLEME2.0 cuts the source, the hypothesis and every reference into the same chunks and labels
each hypothesis chunk TP, FP_ne (wrong correction of a real error), FP_un (unnecessary edit)
or FN (missed error). It reports hit = TP/(TP+FP_ne+FN), wrong = FP_ne/(...),
under = FN/(...), over = FP_un/(TP+FP_ne+FP_un) and a weighted comprehensive score.
With metric="cleme" it reports CLEME's chunk-level P/R/F0.5 instead.
Edits are extracted with ERRANT from whitespace-tokenised text (tokenize=True runs spaCy
tokenisation first).
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences (tokenised, space-separated).
    predictions (list of str): system outputs.
    references (list of list of str): one or more corrected references per source.
    level (str): "corpus" (default) or "sentence" (mean of sentence scores).
    assumption (str): "dep" (default; references judged one at a time) or "ind" (any reference).
    weighting (str): "none" (default for cleme2), "length" (default for cleme), "similarity"
        (BERTScore, CLEME2.0-sim) or "llm" (1-5 ratings from an LLM judge).
    model, num_layers, batch_size, device: the BERTScore model for "similarity" (default
        bert-base-uncased, layer 9) or the judge model for "llm".
    backend, base_url, api_key_env, cache, concurrency: the judge for "llm" (OpenAI-compatible
        endpoint by default; the key is read from the environment variable api_key_env).
    alpha (str or list of 4 floats): trade-off factors; default by level
        (corpus 0.45,0.35,0.15,0.05; sentence 0.35,0.25,0.20,0.20).
    metric (str): "cleme2" (default) or "cleme" (P/R/F0.5).
    beta (float): F beta for metric="cleme" (default 0.5).
    tokenize (bool): tokenise the text with spaCy first (default False).
Returns:
    cleme2: score, hit, wrong, under, over, tp, fp_ne, fp_un, fn, tn, signature.
    cleme: score (= f), p, r, f, tp, fp, fn, tn, signature.
Examples:
    >>> cleme2 = evaluate.load("cleme2")
    >>> result = cleme2.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                         references=[["He goes home ."]])
    >>> result["hit"], result["over"]
    (1.0, 0.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Cleme2(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/THUKElab/CLEME"],
        )

    def _compute(self, sources, predictions, references, level="corpus", assumption="dep",
                 weighting=None, alpha=None, metric="cleme2", beta=0.5, tokenize=False,
                 model=None, num_layers=None, batch_size=None, device=None, backend="openai",
                 base_url=None, api_key_env="OPENAI_API_KEY", cache=None, concurrency=8):
        models = {"model": model, "num_layers": num_layers, "batch_size": batch_size, "device": device,
                  "backend": backend, "base_url": base_url, "api_key_env": api_key_env, "cache": cache,
                  "concurrency": concurrency}
        if metric == "cleme2":
            return cleme2_from_text(sources, predictions, references, level=level, assumption=assumption,
                                    weighting=weighting or "none", alpha=alpha, tokenize=tokenize, **models)
        if metric == "cleme":
            return cleme_from_text(sources, predictions, references, level=level, assumption=assumption,
                                   weighting=weighting or "length", beta=beta, tokenize=tokenize, **models)
        raise ValueError(f"unknown metric {metric!r}; expected 'cleme2' or 'cleme'")
