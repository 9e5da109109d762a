"""GoToScorer (Gotou et al. 2020): chunk-level F0.5 with each chunk weighted by how hard it is
to correct, i.e. by the share of the compared systems that fail to correct it.

A thin evaluate wrapper: all the work is done by the gecscore library. One ``compute`` call
scores one system, and the paper's weights come from all the systems compared, so this module
scores with ``no_weight=True`` (every chunk weighs 1); without it, a call is refused with the
library's message (see the card: the library's ``score_systems``, the CLI with several
``--hyp`` files and the leaderboard build the weights).
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{gotou-etal-2020-taking,
  title = {Taking the Correction Difficulty into Account in Grammatical Error Correction Evaluation},
  author = {Gotou, Takumi and Nagata, Ryo and Mita, Masato and Hanawa, Kazuaki},
  booktitle = {Proceedings of the 28th International Conference on Computational Linguistics},
  year = {2020},
  pages = {2085--2095}
}
"""

_DESCRIPTION = """\
GoToScorer cuts the source into chunks along the edits of one reference (ref_id): each edit is
a chunk, every other token is a chunk, and every gap between tokens holds one insertion chunk.
Each reference chunk c with weight w_c adds to the counts by how the system's chunks treat it:
tried and correct -> TP += w; tried and wrong -> FP += w (and FN += w when c is a reference edit);
not tried, correct -> TN += w; not tried, wrong -> FN += w. P = TP/(TP+FP), R = TP/(TP+FN) (1 when
FP, resp. FN, is 0) and F0.5 over the counts pooled over the corpus (level="sentence": the mean
sentence F). The paper's weight of a chunk is w_c = 1 - (systems correcting c) / (systems
compared): it needs the outputs of several systems, which one evaluate call does not have, so
here no_weight=True (w_c = 1) is required. Edits are extracted with ERRANT.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences (tokenised, space-separated).
    predictions (list of str): system outputs (one system).
    references (list of list of str): corrected references per source (reference ref_id is used).
""" + options_description("gotoscorer") + """
Returns:
    score (= f), f, precision, recall, tp, fp, fn, tn (weighted counts), metric, signature.
Examples:
    One call scores one system, so the chunks are unweighted (no_weight=True). "He go home ."
    has nine chunks: four tokens and five insertion slots. A hypothesis equal to the reference
    makes the one reference edit (go -> goes, TP) and leaves the eight other chunks (TN):

    >>> gotoscorer = evaluate.load("gotoscorer")
    >>> result = gotoscorer.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                             references=[["He goes home ."]], no_weight=True)
    >>> result["score"], result["tp"], result["fn"], result["tn"]
    (1.0, 1.0, 0.0, 8.0)

    The unchanged source misses the edit (FN): P = 1 (no FP), R = 0, F0.5 = 0:

    >>> result = gotoscorer.compute(sources=["He go home ."], predictions=["He go home ."],
    ...                             references=[["He goes home ."]], no_weight=True)
    >>> result["score"], result["recall"], result["fn"]
    (0.0, 0.0, 1.0)

    Without no_weight=True there are no weights to score with (they come from all the systems
    compared), and the call is refused:

    >>> gotoscorer.compute(sources=["He go home ."], predictions=["He go home ."],
    ...                    references=[["He goes home ."]])
    Traceback (most recent call last):
    ...
    gecscore.errors.GecInputError: GoToScorer's weights come from the systems compared: use metric.score_systems(prepared, systems) or metric.weighted(prepared, systems), or no_weight=True
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Gotoscorer(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/gotutiyan/gec-metrics"],
            reference_urls=["https://aclanthology.org/2020.coling-main.188/"],
        )

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("gotoscorer")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("gotoscorer")
