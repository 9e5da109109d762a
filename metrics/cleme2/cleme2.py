"""CLEME2.0: interpretable GEC evaluation (hit-, wrong-, under- and over-correction).

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

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
    metric (str): "cleme2" (default) or "cleme" (chunk P/R/F_beta, length weighting by default).
    Options of cleme2 (cleme has beta instead of alpha; its weighting default is "length"):
""" + options_description("cleme2", "        ") + """
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

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("cleme2")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("cleme2")
