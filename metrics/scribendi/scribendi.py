"""The Scribendi score (Islam & Magnani 2021): a reference-less GEC metric from a causal language
model's perplexity and two string-similarity ratios.

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{islam-magnani-2021-end,
  title = {Is this the end of the gold standard? A straightforward reference-less grammatical error correction metric},
  author = {Islam, Md Asadul and Magnani, Enrico},
  booktitle = {Proceedings of the 2021 Conference on Empirical Methods in Natural Language Processing},
  year = {2021},
  pages = {3009--3015}
}
"""

_DESCRIPTION = """\
The Scribendi score needs no references. Each sentence scores 0 when the hypothesis h equals the
source s; -1 when a causal language model's perplexity does not fall (ppl(h) >= ppl(s));
otherwise +1 when max(token sort ratio, Levenshtein distance ratio) of s and h reaches the
threshold (0.8: the change stayed close to the source), else -1. The system score is the SUM of
the sentence scores (so it grows with the number of sentences). The language model is GPT-2
small by default (lm="gpt2": a Hub name, a local folder or a .gguf file); unchanged sentences are
not sent to it.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences.
    predictions (list of str): system outputs.
    references (list of list of str, optional): ignored (the Scribendi score is reference-free).
""" + options_description("scribendi") + """
Returns:
    score (= scribendi, the sum of the sentence scores), scribendi, improved, worsened, unchanged
    (sentences scoring +1, -1, 0), sentences, metric, signature.
Examples:
    >>> scribendi = evaluate.load("scribendi")
    >>> type(scribendi).__name__
    'Scribendi'

    An unchanged sentence scores 0 without asking the language model:

    >>> result = scribendi.compute(sources=["This is no change ."], predictions=["This is no change ."])
    >>> result["score"], result["unchanged"]
    (0.0, 1)

    Changed sentences need the language model (GPT-2 from the Hub, or a local folder; not run by
    doctests: no weights offline). gec-metrics' own test expects, with gpt2 and threshold 0.8,
    the sentence scores [1, -1, 0], so a score of 0:

    >>> result = scribendi.compute(
    ...     sources=["This sentences contain gramamtical error .", "This is a sentence .", "This is no change ."],
    ...     predictions=["This sentence contains a grammatical error .",
    ...                  "the sentence was corrected into completely different one .", "This is no change ."],
    ...     lm="gpt2")  # doctest: +SKIP
    >>> result["improved"], result["worsened"], result["unchanged"]  # doctest: +SKIP
    (1, 1, 1)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Scribendi(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/gotutiyan/gec-metrics"],
            reference_urls=["https://aclanthology.org/2021.emnlp-main.239/"],
        )

    # evaluate's input methods (references optional; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("scribendi")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("scribendi")
