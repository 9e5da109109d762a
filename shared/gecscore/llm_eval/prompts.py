"""The prompts of LLM-S and LLM-E (Kobayashi, Mita and Komachi 2024, "Large Language Models Are
State-of-the-Art Evaluator for Grammatical Error Correction", BEA 2024).

Source of the text: the paper's prompts, as reproduced in gotutiyan/gec-metrics
(``src/gec_metrics/metrics/llm_kobayashi24.py``, commit 320c830: ``instruction_template`` of
the sentence and edit configs, and the ``criteria2prompt`` sentences). The wording, line breaks
and the output schema are kept exactly, including the schema key ``target1_score`` and the
line break inside "formatted in the\\nfollowing schema" of the edit prompt. Only the scale's
end points are parameters (``{low}``/``{high}``); with the paper's 1 and 5 the text is the
paper's, character for character (tests/test_llm_eval.py checks that).

The paper shows one source with up to five targets (SEEDA's system outputs) and scores them
together; so do we when systems are scored together (``targets_per_prompt``, the targets one per
line as gec-metrics writes them; :mod:`gecscore.llm_eval.scorer`). A system scored alone has one
target per prompt (see docs/llm_eval.md).

LLM-E's targets mark each edit in the source sentence as the prompt itself describes:
``[→the]`` insertion, ``[the→]`` deletion, ``[the→a]`` replacement, the rest of the source
unchanged (``edit_format="inline"``, the default). ``edit_format="list"`` writes the edits
alone, ``o→c`` joined by spaces, as gec-metrics' ``hyp_form`` does.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.judge.types import Message
from gecscore.types import Edit

SENTENCE_TEMPLATE = '''The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of {low} point to a maximum of {high} points to each target based on the quality of the sentence (note that you can assign the same score multiple times).{criteria}

# source
{source}

# targets
{targets}

# output format
The output should be a markdown code snippet formatted in the following schema, including the leading and trailing "```json" and "```":
```json
{{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}}
```
'''

EDIT_TEMPLATE = '''The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of {low} point to a maximum of {high} points to each target based on the quality of the sentence (note that you can assign the same score multiple times).
For targets without any edits, if the sentence is correct, they will be awarded {high} points; if there is an error, they will receive {low} point.
The edits in each target are indicated as follows:
Insert "the": [→the]
Delete "the": [the→]
Replace "the" with "a": [the→a]{criteria}

# context
{source}

# targets
{targets}

# output format
The output should be a markdown code snippet formatted in the
following schema, including the leading and trailing "```json" and "```":
```json
{{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}}
```
'''

#: The criterion sentences of the paper's criteria prompts (gec-metrics' ``criteria2prompt``).
SENTENCE_CRITERIA = {
    "grammaticality": "Please evaluate each target with a focus on the grammaticality of the sentence.",
    "fluency": "Please evaluate each target with a focus on the fluency of the sentence.",
    "meaning": "Please evaluate each target with a focus on preserving the meaning between each target and the "
               "source, which is the middle sentence in the context.",
}
EDIT_CRITERIA = {
    "difficulty": "Please evaluate each edit in the target with a focus on the difficulty of corrections.",
    "impact": "Please evaluate each edit in the target with a focus on its impact on the sentence.",
}
ARROW = "\u2192"  # →


def _criteria_line(criteria: str | None, table: dict[str, str]) -> str:
    """The criterion sentence on its own line after the instructions, or nothing."""
    return "" if criteria in (None, "none") else "\n" + table[criteria]


def sentence_messages(source: str, hypothesis: str, *, low: int = 1, high: int = 5,
                      criteria: str | None = None) -> list[Message]:
    """LLM-S: the paper's sentence prompt with its targets (one per line), as a single user message."""
    text = SENTENCE_TEMPLATE.format(low=low, high=high, criteria=_criteria_line(criteria, SENTENCE_CRITERIA),
                                    source=source, targets=hypothesis)
    return [("user", text)]


def edit_messages(source: str, target: str, *, low: int = 1, high: int = 5,
                  criteria: str | None = None) -> list[Message]:
    """LLM-E: the paper's edit prompt with its targets (one per line, each already rendered by
    :func:`render_edits`)."""
    text = EDIT_TEMPLATE.format(low=low, high=high, criteria=_criteria_line(criteria, EDIT_CRITERIA),
                                source=source, targets=target)
    return [("user", text)]


def render_edits(source: Sequence[str], edits: Sequence[Edit], *, edit_format: str = "inline",
                 joiner: str = " ") -> str:
    """One hypothesis as LLM-E shows it.

    inline: the source tokens with every edit replaced by ``[o→c]`` (``o`` the source span,
    ``c`` the correction, each joined by ``joiner``); no edits: the source itself.
    list: the edits alone, ``o→c`` joined by spaces (gec-metrics); no edits: empty.

    >>> from gecscore.types import Edit
    >>> render_edits("this are a apple".split(), [Edit(1, 2, ("is",)), Edit(2, 3, ("an",))])
    'this [are→is] [a→an] apple'
    >>> render_edits("I go home".split(), [Edit(1, 1, ("will",)), Edit(2, 3, ())])
    'I [→will] go [home→]'
    >>> render_edits("I go home".split(), [Edit(1, 1, ("will",))], edit_format="list")
    '→will'
    """
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    if edit_format == "list":
        return " ".join(f"{joiner.join(source[e.start:e.end])}{ARROW}{joiner.join(e.correction)}" for e in ordered)
    pieces: list[str] = []
    position = 0
    for edit in ordered:
        pieces.extend(source[position:edit.start])
        pieces.append(f"[{joiner.join(source[edit.start:edit.end])}{ARROW}{joiner.join(edit.correction)}]")
        position = max(position, edit.end)
    pieces.extend(source[position:])
    return joiner.join(pieces)
