"""GLEU (Napoles et al. 2015; "GLEU without tuning", 2016) as a Hugging Face ``evaluate`` metric.

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{napoles-etal-2015-ground,
  title = {Ground Truth for Grammatical Error Correction Metrics},
  author = {Napoles, Courtney and Sakaguchi, Keisuke and Post, Matt and Tetreault, Joel},
  booktitle = {Proceedings of the 53rd Annual Meeting of the Association for Computational Linguistics and the 7th International Joint Conference on Natural Language Processing (Volume 2: Short Papers)},
  year = {2015},
  pages = {588--593}
}
@misc{napoles-etal-2016-gleu,
  title = {{GLEU} Without Tuning},
  author = {Napoles, Courtney and Sakaguchi, Keisuke and Post, Matt and Tetreault, Joel},
  year = {2016},
  eprint = {1605.02592},
  archivePrefix = {arXiv}
}
"""

_DESCRIPTION = """\
GLEU rewards the n-grams of the hypothesis h that the reference r has and takes back those it
kept from the source s where the reference changed them. Per sentence and n = 1..N (n-gram
count multisets, & the multiset minimum, s_n \\ r_n the source n-grams the reference lacks):
match_n = max(0, |h_n & r_n| - |h_n & (s_n \\ r_n)|), total_n = max(0, len(h) + 1 - n). On the
corpus sums, GLEU = exp(min(0, 1 - len(r) / len(h)) + (1/N) sum_n log(match_n / total_n)), 0
when any sum is 0. With several references, each of `iterations` rounds draws one reference per
sentence as the reference implementation (cnap/gec-ranking) draws it, and the score is the
mean of the rounds' GLEU. References are read as whitespace-tokenised text (no edit extraction).
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences (tokenised, space-separated).
    predictions (list of str): system outputs.
    references (list of list of str): one or more corrected references per source.
""" + options_description("gleu") + """
Returns:
    score (= gleu, 0-1), gleu, rounds (rounds of reference choice: 1 with one reference per
    sentence), metric, signature.
Examples:
    A hypothesis equal to its reference gets every n-gram:

    >>> gleu = evaluate.load("gleu")
    >>> gleu.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...              references=[["He goes home ."]])["score"]
    1.0

    The unchanged source with unigrams only: He, home and . match the reference, go is a
    source unigram the reference lacks and is taken back, so match = 3 - 1 = 2 of 4 unigrams
    (equal lengths: no brevity penalty):

    >>> gleu.compute(sources=["He go home ."], predictions=["He go home ."],
    ...              references=[["He goes home ."]], order=1)["score"]
    0.5
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Gleu(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/cnap/gec-ranking"],
            reference_urls=["https://aclanthology.org/P15-2097/", "https://arxiv.org/abs/1605.02592"],
        )

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("gleu")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("gleu")
