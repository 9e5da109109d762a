"""GREEN (Koyama et al. 2024): an alignment-free n-gram F-score for grammatical error correction.

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{koyama-etal-2024-n-gram,
  title = {n-gram {F}-score for Evaluating Grammatical Error Correction},
  author = {Koyama, Shota and Nagata, Ryo and Takamura, Hiroya and Okazaki, Naoaki},
  booktitle = {Proceedings of the 17th International Natural Language Generation Conference},
  year = {2024},
  pages = {303--313}
}
"""

_DESCRIPTION = """\
GREEN treats the source s, hypothesis h and reference r as multisets of n-grams (n = 1..4) and
classifies every n-gram count without an alignment: true deletions, insertions and keeps are
TP (max(s - max(r, h), 0) + max(min(r, h) - s, 0) + min(s, h, r)), over-deletions and
over-insertions FP (max(min(s, r) - h, 0) + max(h - max(s, r), 0)), under-deletions and
under-insertions FN (max(min(s, h) - r, 0) + max(r - max(s, h), 0)). Per order
P_n = TP/(TP+FP) and R_n = TP/(TP+FN) (1 when the denominator's error count is 0); P and R are
their geometric means over the orders, and GREEN = (1 + b^2) P R / (b^2 P + R) with b = 2.
Each sentence keeps its best reference; the corpus score pools the counts (level="sentence":
the mean of sentence GREEN). References are read as text: no edits are extracted.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences (tokenised, space-separated).
    predictions (list of str): system outputs.
    references (list of list of str): one or more corrected references per source.
""" + options_description("green") + """
Returns:
    score (= green, 0-1), green, metric, signature.
Examples:
    A hypothesis equal to its reference:

    >>> green = evaluate.load("green")
    >>> green.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...               references=[["He goes home ."]])["score"]
    1.0

    The unchanged source with unigrams only: He, home and . are true keeps (TP 3), "go" kept
    where the reference deletes it and "goes" not inserted are under-corrections (FN 2), nothing
    is over-corrected (FP 0): P = 1, R = 3/5, F2 = 5 * 0.6 / (4 + 0.6) = 0.6522:

    >>> result = green.compute(sources=["He go home ."], predictions=["He go home ."],
    ...                        references=[["He goes home ."]], order=1)
    >>> round(result["score"], 4)
    0.6522
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Green(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/shotakoyama/green"],
            reference_urls=["https://aclanthology.org/2024.inlg-main.25/"],
        )

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("green")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("green")
