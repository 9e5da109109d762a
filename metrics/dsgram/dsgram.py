"""DSGram: LLM-judged sub-metrics (semantic coherence, edit level, fluency) with AHP weights.

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@misc{xie-etal-2024-dsgram,
  title = {{DSGram}: Dynamic Weighting Sub-Metrics for Grammatical Error Correction in the Era of Large Language Models},
  author = {Xie, Jinxiang and Li, Yilin and Yin, Xunjian and Wan, Xiaojun},
  year = {2024},
  howpublished = {https://github.com/jxtse/GEC-Metrics-DSGram}
}
"""

_DESCRIPTION = """\
DSGram asks an LLM judge to score each (source, correction) pair on semantic coherence, edit
level and fluency (1-10) and to give a 3x3 pairwise judgment matrix over those criteria; the
Analytic Hierarchy Process turns the matrix into per-sentence weights (principal eigenvector,
consistency ratio < 0.1, re-asked at most 3 times, then equal weights). The sentence score is
the weighted sum; the system score is the mean (0-10). Reference-free: references are accepted
and ignored. The judge is any OpenAI-compatible endpoint or a local transformers model; answers
are cached on disk, so reruns and interrupted runs cost nothing twice.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences.
    predictions (list of str): system outputs.
    references (list of list of str, optional): ignored (DSGram is reference-free).
""" + options_description("dsgram") + """
Returns:
    score (mean weighted score, 0-10), semantic_coherence, edit_level, fluency (means), weights
    (mean AHP weights), n_inconsistent, n_failed, overall, n_sentences, n_weights_fallback,
    n_reciprocity_repaired, judge (request counts and failures), signature.
Examples:
    >>> dsgram = evaluate.load("dsgram")
    >>> type(dsgram).__name__
    'Dsgram'

    With an LLM judge at an OpenAI-compatible endpoint (not run by doctests: it needs the judge):

    >>> result = dsgram.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                         base_url="http://localhost:8000/v1", model="my-judge")  # doctest: +SKIP
    >>> sorted(result["weights"])  # doctest: +SKIP
    ['edit_level', 'fluency', 'semantic_coherence']
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Dsgram(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/jxtse/GEC-Metrics-DSGram"],
        )

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("dsgram")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("dsgram")
