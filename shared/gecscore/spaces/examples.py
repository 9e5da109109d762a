"""One-click examples shared by the Spaces (tokenised English, as the metrics expect)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    """A one-click example: pasted text for every input box (references: one text per set)."""

    name: str
    sources: str
    hypotheses: str
    references: tuple[str, ...] = ()


# One sentence with one chunk of each CLEME2.0 label: "childs" fixed as the reference (TP),
# "for" fixed differently (FP_ne), "was" left (FN), "again" added (FP_un).
FOUR_LABELS = Example(
    "one sentence, every kind of edit",
    "The childs were playing for the park and they was happy .",
    "The children were playing at the park and they was happy again .",
    ("The children were playing in the park and they were happy .",))

# The repository's examples/ files: three sentences, two references.
THREE_SENTENCES = Example(
    "three sentences, two references",
    "Do one who suffered from this disease keep it a secret of infrom their relatives ?\n"
    "When we are diagonosed out with certain genetic disease , should we disclose this result "
    "to our relatives ?\nGenetic testing is a very personal decision .",
    "Do one who suffer from this disease keep it a secret to inform their relatives ?\n"
    "When we are diagnosed out with certain genetic diseases , should we disclose the result "
    "to his relatives ?\nGenetic testing is a very personal decision .",
    ("Does one who suffers from this disease keep it a secret or inform their relatives ?\n"
     "When we are diagnosed with certain genetic diseases , should we disclose this result "
     "to our relatives ?\nGenetic testing is a very personal decision .",
     "Does anyone who suffers from this disease keep it secret from their relatives ?\n"
     "When we are diagnosed with a certain genetic disease , should we disclose this result "
     "to our relatives ?\nGenetic testing is a very personal decision ."))
