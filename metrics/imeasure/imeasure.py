"""I-measure (Felice & Briscoe 2015) as a Hugging Face ``evaluate`` metric.

Each reference becomes one annotator: its ERRANT edits against the source are clustered into
errors as in the M2 -> XML converter, the annotators' corrections are mixed error by error,
and the hypothesis is scored on a 3-way token alignment (source, hypothesis, reference).
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{felice-briscoe-2015-towards,
    title = "Towards a standard evaluation method for grammatical error detection and correction",
    author = "Felice, Mariano and Briscoe, Ted",
    booktitle = "Proceedings of NAACL-HLT 2015",
    year = "2015",
    pages = "578--587",
}
"""

_DESCRIPTION = """\
The I-measure scores grammatical error correction by the improvement of a hypothesis over
the uncorrected source: tokens are aligned three ways (source, hypothesis, reference),
each aligned column is a TP, TN, FP, FN (or FP+FN+FPN) for detection and for correction,
and weighted accuracy WAcc is compared with that of the do-nothing baseline: I > 0 means
the text got better, I < 0 worse, I = 0 unchanged.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources: source sentences (whitespace-tokenised strings).
    predictions: corrected sentences (whitespace-tokenised strings).
    references: per source, a list of corrected references (each one annotator).
""" + options_description("imeasure") + """
Returns:
    score: correction I; detection and correction: {tp, tn, fp, fn, fpn, p, r, f, acc,
    acc_base, wacc, wacc_base, i}; metric; signature.
Examples:
    >>> imeasure = evaluate.load("imeasure")
    >>> imeasure.compute(sources=["This machines is designed for help people ."],
    ...                  predictions=["These machines are designed to help people ."],
    ...                  references=[["These machines are designed for helping people .",
    ...                               "This machine is designed to help people ."]])["score"]
    1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Imeasure(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/mfelice/imeasure"],
            reference_urls=["https://aclanthology.org/N15-1060/"],
        )

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("imeasure")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("imeasure")
