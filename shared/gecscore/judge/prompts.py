"""The papers' judge prompts: DSGram appendix A.1 (sub-scores) and A.2 (AHP judgment matrix),
CLEME2.0 appendix A (edit weights).

Kept as the papers give them, except: typesetting artefacts are undone (curly quotes for code
fences, "9 to10", "dont"); A.1's edit-level band "5 to 8" is "5 to 6" (the bands partition
1-10); A.1's output example is valid JSON for the one pair we send, with the reason before the
scores (the paper's "reason before scoring"); A.2 states what a row means and its example is a
reciprocal matrix (the paper's is not), and its last line names the sentence pair instead of
"candidate equipment".
"""
from __future__ import annotations

import json
import re
from typing import Sequence

from gecscore.judge.types import Message

SUB_SCORE_PROMPT = """# Character
You are an expert in sentence revision quality assessment, specializing in evaluating the accuracy of grammatical error corrections. Your task is to assess the quality of these corrections based on three key metrics: semantic coherence, edit level, and fluency.

# Input Format
You will be provided with a valid JSON string containing the following keys:
- original sentence: This sentence may contain grammatical errors.
- corrected sentence: This is the sentence after it has been corrected by a grammatical error correction model.
the input format is as follows:
```json
[
  {
    "original sentence": "...",
    "corrected sentence": "..."
  }
]
```

# Task Instruction
## 1. Understand the Sentences
Ensure you comprehend both the original and corrected sentences before proceeding with the analysis.

## 2. Apply Evaluation Criteria
Evaluate each sentence pair using the three sub-metrics below, scoring them independently.

### 2.1 Semantic Coherence
Evaluate how well the corrected sentence preserves the meaning of the original sentence.
- 9 to 10 points: The context and meaning remain perfectly intact.
- 7 to 8 points: Minor changes noted, yet the intended meaning stays preserved.
- 5 to 6 points: Some loss of purpose, but comprehensible.
- 3 to 4 points: Meaning notably altered, leading to possible confusion.
- 1 to 2 points: Severely changed meaning, straying from the original intention.

### 2.2 Edit Level
Assess whether the corrections were necessary or if the sentence was over-edited.
- 9 to 10 points: Purely essential edits made, free of needless corrections or no editing.
- 7 to 8 points: Slight and unimportant modifications that don't majorly affect overall quality.
- 5 to 6 points: Some avoidable changes made that nonetheless don't hinder overall clarity.
- 3 to 4 points: Numerous unneeded corrections that potentially degrade sentence quality.
- 1 to 2 points: Sentence quality seriously compromised due to unnecessary editing.

### 2.3 Fluency
Evaluate the grammatical accuracy and natural flow of the corrected sentence.
- 9 to 10 points: Grammatically flawless and naturally flowing like a native speaker.
- 7 to 8 points: Few minor grammatical misalignments resulting in slight awkwardness.
- 5 to 6 points: Some grammar inaccuracies persist, leading to noticeable clumsiness.
- 3 to 4 points: Several grammar mistakes unamended, destroying the flow.
- 1 to 2 points: The sentence is littered with uncorrected major grammar errors, rendering it unreadable.

### Step 4: Assign an Overall score
Render an encompassing score reflecting the overall effectiveness of the correction. Taking all factors into consideration, check that all grammatical errors have been corrected, that there are no unnecessary corrections, or that there are no semantic inconsistencies, etc. The goal is to provide a score that reflects the most accurate and natural feedback a human would give.

# Output format
Output the result in JSON format. The output format is as follows:
```json
[
  {
    "original sentence": "original sentence 1",
    "corrected sentence": "corrected sentence 1",
    "reason": "Explanation for the assigned scores.",
    "score": {
      "semantic coherence": X,
      "edit level": X,
      "fluency": X,
      "overall": X
    },
    "id": 1
  }
]
```"""

MATRIX_PROMPT = """# Task Description:
As an expert evaluator, you will utilize the Analytic Hierarchy Process (AHP) to determine the weightage of three key dimensions in an evaluation model for grammar correction algorithms. You will evaluate and compare the relative importance of the following key dimensions by constructing judgment matrices.

You will be provided with a pair of sentences. Based on the sentence pair, you can judge the importance weight of the following three evaluation dimensions.

# Evaluation Criteria:
1. Semantic Coherence Weight: To what extent the semantic similarity of the two sentences needs to be emphasized.
2. Edit Level Weight: To what extent the sentences have been overly modified and unnecessarily change should be avoided.
3. Fluency Weight: To what extent the corrected sentence's fluidity and the natural flow of the sentence is important

- 1 indicates equal importance between two dimensions.
- 3 indicates a slightly more important dimension.
- 5 indicates a strongly more important dimension.
- 7 indicates a very strongly more important dimension.
- 9 indicates an extremely more important dimension.
Intermediate values (2, 4, 6, 8) represent varying degrees of importance.

# Scoring Process:
1. Construct a Judgment Matrix: For each pair of evaluation criteria (e.g., Semantic Coherence vs. Fluency), construct a judgment matrix and rate each pair based on their relative importance in the context of grammar correction.
2. Output matrix in the following format, where each row gives the importance of its dimension compared with Semantic Coherence, Edit Level and Fluency, in that order (so the value of B compared with A is the reciprocal of A compared with B):
{
 "Semantic Coherence":[1,0.333,0.5],
 "Edit Level":[3,1,1],
 "Fluency":[2,1,1]
}
If there are scores, please replace them with decimals
3. Please do not output any other information except for the matrix

# Notes:
- Ensure that your evaluations and weight allocations are based on professional knowledge and expert judgment.
- Maintain objectivity and consistency when making pairwise comparisons.
Based on these guidelines, please construct the judgment matrix for the following sentence pair."""

EDIT_WEIGHT_PROMPT = """As an evaluator for grammatical error correction, you are tasked with assessing the importance of each error. You will be provided with two lines: the first is an uncorrected sentence, the second shows the edit. Then you output the importance score of the given edit.

The scores range from 1 to 5, where a higher score reflects the greater significance of the correction, while a lower score indicates minor importance.

- A score of 1 means the correction is almost negligible and unnecessary.
- A score of 2 means the correction has slight influence.
- A score of 3 signifies some impact by the correction.
- A score of 4 means the edit is essential.
- A score of 5 indicates the modification is highly important and necessary.

Next, I'll provide you a sentence with an edit. You should score each edit accordingly. The output should only be the score, with no additional explanation.

Example Input:
Uncorrected sentence: Nowadays the technologies were improved a lot compared to the last century.
Edit: were -> have
Example Output (1-5): 5

Note that the output must be a number between 1 and 5. Here is the formal input:

Uncorrected sentence: {sentence}
Edit: {edit}

Example Output (1-5):"""


def pair_json(source: str, hypothesis: str) -> str:
    return json.dumps({"original sentence": source, "corrected sentence": hypothesis}, ensure_ascii=False)


def sub_score_messages(source: str, hypothesis: str) -> tuple[Message, ...]:
    """DSGram A.1: the rubric as the system turn, the pair as the JSON the prompt describes."""
    return (("system", SUB_SCORE_PROMPT), ("user", f"```json\n[{pair_json(source, hypothesis)}]\n```"))


def matrix_messages(source: str, hypothesis: str) -> tuple[Message, ...]:
    """DSGram A.2: the AHP instructions as the system turn, the labelled pair as the user turn."""
    return (("system", MATRIX_PROMPT), ("user", pair_json(source, hypothesis)))


_EDIT_SLOTS = re.compile(r"\{(sentence|edit)\}")


def edit_weight_messages(sentence: str, edit: str) -> tuple[Message, ...]:
    """CLEME2.0 appendix A, one user turn. The slots are filled in one pass, so a sentence that
    contains ``{edit}`` stays as it is (filling them one after the other would put the edit
    into the sentence, and two different (sentence, edit) pairs would ask the same prompt and
    share one cached answer)."""
    values = {"sentence": sentence, "edit": edit}
    return (("user", _EDIT_SLOTS.sub(lambda match: values[match.group(1)], EDIT_WEIGHT_PROMPT)),)


# ------------------------------------------------------------------ reading requests back

PROMPT_KINDS = ("scores", "matrix", "edit")
_EDIT_HEAD = EDIT_WEIGHT_PROMPT.split("{sentence}")[0]


def prompt_kind(messages: Sequence[Message]) -> str:
    """``scores`` (DSGram A.1), ``matrix`` (A.2), ``edit`` (CLEME2.0 edit weight) or ``other``."""
    if not messages:
        return "other"
    first = messages[0][1]
    if first == SUB_SCORE_PROMPT:
        return "scores"
    if first == MATRIX_PROMPT:
        return "matrix"
    if first.startswith(_EDIT_HEAD):
        return "edit"
    return "other"


def prompt_subject(messages: Sequence[Message]) -> tuple[str, str] | None:
    """What a request asks about: (source, hypothesis) for DSGram prompts, (sentence, edit) for
    an edit weight; None for other prompts or a user turn that does not parse."""
    kind = prompt_kind(messages)
    try:
        if kind == "edit":
            tail = messages[0][1][len(_EDIT_HEAD):]
            sentence, rest = tail.split("\nEdit: ", 1)
            return sentence, rest.split("\n", 1)[0]
        if kind in ("scores", "matrix") and len(messages) > 1:
            user = messages[1][1].strip()
            if user.startswith("```"):
                user = user.strip("`").strip().removeprefix("json").strip()
            pair = json.loads(user)
            pair = pair[0] if isinstance(pair, list) else pair
            return str(pair["original sentence"]), str(pair["corrected sentence"])
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return None
