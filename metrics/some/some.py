"""SOME (Yoshimura et al. 2020): reference-less sub-metrics (grammaticality, fluency, meaning
preservation) optimised for manual evaluations of grammatical error correction.

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{yoshimura-etal-2020-reference,
  title = {{SOME}: Reference-less Sub-Metrics Optimized for Manual Evaluations of Grammatical Error Correction},
  author = {Yoshimura, Ryoma and Kaneko, Masahiro and Kajiwara, Tomoyuki and Komachi, Mamoru},
  booktitle = {Proceedings of the 28th International Conference on Computational Linguistics},
  year = {2020},
  pages = {6516--6522}
}
"""

_DESCRIPTION = """\
SOME scores a correction without references with three BERT regressors fine-tuned on 1-4 human
ratings (TMU-GFM): grammaticality G and fluency F read the hypothesis h, meaning preservation M
reads the pair (source s, hypothesis h). Each output x is normalised from the rating scale,
n(x) = (x - 1) / 3 (not clipped), and SOME(s, h) = w_g n(G(h)) + w_f n(F(h)) + w_m n(M(s, h))
with the paper's weights 0.55, 0.43, 0.02. The system score is the mean over the sentences. The
released checkpoints (gfm-models/grammer, fluency, meaning) are given as local folders.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences.
    predictions (list of str): system outputs.
    references (list of list of str, optional): ignored (SOME is reference-free).
""" + options_description("some") + """
Returns:
    score (= some, the mean sentence score), some, grammaticality, fluency, meaning (the mean
    normalised sub-scores), metric, signature.
Examples:
    >>> some = evaluate.load("some")
    >>> type(some).__name__
    'Some'

    The three regressors are the released checkpoints, named by folder; without them nothing
    is downloaded and the call stops at once:

    >>> some.compute(sources=["He go home ."], predictions=["He goes home ."])
    Traceback (most recent call last):
    ...
    gecscore.errors.MissingModelError: SOME needs its three released regressors: grammaticality=, fluency= and meaning= naming the unpacked gfm-models folders

    With the folders unpacked from the SOME release (not run by doctests: no weights offline):

    >>> result = some.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                       grammaticality="gfm-models/grammer", fluency="gfm-models/fluency",
    ...                       meaning="gfm-models/meaning")  # doctest: +SKIP
    >>> sorted(k for k in result if k not in ("metric", "signature"))  # doctest: +SKIP
    ['fluency', 'grammaticality', 'meaning', 'score', 'some']
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Some(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/kokeman/SOME"],
            reference_urls=["https://aclanthology.org/2020.coling-main.573/"],
        )

    # evaluate's input methods (references optional; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("some")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("some")
