"""LLM-S and LLM-E (Kobayashi, Mita and Komachi 2024): an LLM judge scores each correction on a
1-5 scale, shown as the corrected sentence (LLM-S, the default) or as its edits in the source
(LLM-E, ``metric="llm_e"``).

A thin evaluate wrapper: all the work is done by the gecscore library.
"""
import evaluate
from gecscore.evaluate_info import compute_method
from gecscore.evaluate_info import gec_metric_info
from gecscore.evaluate_info import input_methods
from gecscore.evaluate_info import options_description

_CITATION = """\
@inproceedings{kobayashi-etal-2024-large,
  title = {Large Language Models Are State-of-the-Art Evaluator for Grammatical Error Correction},
  author = {Kobayashi, Masamune and Mita, Masato and Komachi, Mamoru},
  booktitle = {Proceedings of the 19th Workshop on Innovative Use of NLP for Building Educational Applications (BEA 2024)},
  year = {2024},
  pages = {68--77}
}
"""

_DESCRIPTION = """\
An LLM judge reads each source with its correction and answers one score s_i on a 1-5 scale
(the paper's prompts). One call scores one system, so each prompt shows that system's one
output (targets_per_prompt, the paper's up to five outputs of a source side by side, applies when
the library scores several systems together). LLM-S (metric="llm_s", the default) shows the
corrected sentence; LLM-E (metric="llm_e") shows the correction as its edits in the source,
[o→c], extracted with ERRANT for English. An unreadable or off-scale answer is asked again (at
most max_reasks times); a sentence still without a score is counted in n_failed and left out.
The system score is the mean over the scored sentences: score = (1/|S|) sum_{i in S} s_i.
The judge is any OpenAI-compatible endpoint (default model gpt-4, the paper's best judge) or a
local transformers model; answers are cached on disk. Reference-free: references are ignored.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): source sentences.
    predictions (list of str): system outputs.
    references (list of list of str, optional): ignored (LLM-S and LLM-E are reference-free).
""" + options_description("llm_eval") + """
Returns:
    score (the mean judge score, on the scale; None when no sentence was scored), n_sentences,
    n_failed, n_unshown (0 for one system), n_reasked, scale, distribution (how often each score
    was given), judge (request counts), metric ("llm_s" or "llm_e"), signature.
Examples:
    >>> llm_eval = evaluate.load("llm_eval")
    >>> type(llm_eval).__name__
    'LlmEval'

    With an LLM judge at an OpenAI-compatible endpoint (not run by doctests: it needs the judge):

    >>> result = llm_eval.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                           base_url="http://localhost:8000/v1", model="my-judge")  # doctest: +SKIP
    >>> result["metric"], result["scale"]  # doctest: +SKIP
    ('llm_s', [1, 5])

    LLM-E, the judge reading the edits ("He [go→goes] home ."):

    >>> result = llm_eval.compute(sources=["He go home ."], predictions=["He goes home ."],
    ...                           metric="llm_e", base_url="http://localhost:8000/v1",
    ...                           model="my-judge")  # doctest: +SKIP
    >>> result["metric"]  # doctest: +SKIP
    'llm_e'
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class LlmEval(evaluate.Metric):
    def _info(self):
        return gec_metric_info(
            _DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION,
            codebase_urls=["https://github.com/gotutiyan/gec-metrics"],
            reference_urls=["https://aclanthology.org/2024.bea-1.6/"],
        )

    # evaluate's input methods (references optional; its input format forgotten after a failed call)
    compute, add_batch, add = input_methods("llm_eval")
    # one keyword parameter per option, with the declared default (generated from the configs);
    # metric="llm_s" (default) or "llm_e"
    _compute = compute_method("llm_eval")
