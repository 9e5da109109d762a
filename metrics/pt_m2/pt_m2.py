"""PT-M2: the M2 (MaxMatch) scorer with edits weighted by a pretrained model (BERTScore/BARTScore).

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{gong-etal-2022-revisiting,
  title = {Revisiting Grammatical Error Correction Evaluation and Beyond},
  author = {Gong, Peiyuan and Liu, Xuebo and Huang, Heyan and Zhang, Min},
  booktitle = {Proceedings of the 2022 Conference on Empirical Methods in Natural Language Processing},
  year = {2022},
  pages = {6891--6902}
}
@inproceedings{dahlmeier-ng-2012-better,
  title = {Better Evaluation for Grammatical Error Correction},
  author = {Dahlmeier, Daniel and Ng, Hwee Tou},
  booktitle = {Proceedings of the 2012 Conference of the North American Chapter of the Association for Computational Linguistics},
  year = {2012},
  pages = {568--572}
}
"""

_DESCRIPTION = """\
PT-M2 extracts the system edits with MaxMatch (the M2 scorer: the edit sequence that best
matches the gold edits) and weighs every system and gold edit u by how much it moves a
pretrained score towards the reference: w_u = |BERTScore(S_u, R) - BERTScore(S, R)|, S_u
being the source with only u applied. Precision, recall and F0.5 are computed over the
weights. level="sentence" (SentPT-M2, the paper's recommended setting) averages sentence F0.5;
scorer="none" gives plain M2 / SentM2; base="errant" uses ERRANT edits (PT-ERRANT).
Reference edits are extracted from the references by ERRANT; text is whitespace-tokenised
(tokenize=True runs spaCy tokenisation first).
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences (tokenised, space-separated).
    predictions (list of str): system outputs.
    references (list of list of str): one or more corrected references per source.
""" + options_description("pt_m2") + """
Returns:
    score (F_beta), p, r, correct, proposed, gold (weighted sums), signature.
Examples:
    >>> pt_m2 = evaluate.load("pt_m2")
    >>> result = pt_m2.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                        references=[["He goes home ."]], scorer="none")
    >>> result["score"]
    1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PtM2(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/pygongnlp/PT-M2"],
        )

    # evaluate's input methods (references as lists; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("pt_m2")
    # one keyword parameter per option, with the declared default (generated from the configs)
    _compute = compute_method("pt_m2")
