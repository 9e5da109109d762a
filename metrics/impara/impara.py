"""IMPARA (Maeda et al. 2022): an impact-based reference-less metric for grammatical error
correction, a BERT quality estimator gated by source-hypothesis similarity.

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{maeda-etal-2022-impara,
  title = {{IMPARA}: Impact-Based Metric for {GEC} Using Parallel Data},
  author = {Maeda, Koki and Kaneko, Masahiro and Okazaki, Naoaki},
  booktitle = {Proceedings of the 29th International Conference on Computational Linguistics},
  year = {2022},
  pages = {3578--3588}
}
"""

_DESCRIPTION = """\
IMPARA scores a correction without references: IMPARA(s, h) = sigmoid(QE(h)) when
sim(s, h) >= threshold (0.9), else 0. QE is a BERT quality estimator (one output) reading the
hypothesis h; sim is the cosine of the mean-pooled last-layer states of an encoder
(bert-base-cased) for the source s and h, a gate that keeps a fluent but unfaithful rewrite from
scoring well. The system score is the mean over the sentences. The quality estimator defaults
to gotutiyan/IMPARA-QE on the Hugging Face Hub (gec-metrics' default); both models may be local
folders.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences.
    predictions (list of str): system outputs.
    references (list of list of str, optional): ignored (IMPARA is reference-free).
""" + options_description("impara") + """
Returns:
    score (= impara, the mean sentence score, 0-1), impara, quality (mean sigmoid(QE) before the
    gate), similarity (mean), gated (sentences zeroed by the gate), metric, signature.
Examples:
    >>> impara = evaluate.load("impara")
    >>> type(impara).__name__
    'Impara'

    With the quality estimator and the encoder (from the Hub, or local folders; not run by
    doctests: no weights offline):

    >>> result = impara.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                         quality_estimator="gotutiyan/IMPARA-QE",
    ...                         similarity_model="bert-base-cased")  # doctest: +SKIP
    >>> 0 <= result["score"] <= 1  # doctest: +SKIP
    True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Impara(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/gotutiyan/gec-metrics"],
            reference_urls=["https://aclanthology.org/2022.coling-1.316/",
                            "https://huggingface.co/gotutiyan/IMPARA-QE"],
        )

    # evaluate's input methods (references optional; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("impara")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("impara")
