"""Hand-built samples (edits written by hand, not by ERRANT) used by several tests.

Sample 1 is the first case of the CLEME2.0 paper's Table 3:
  source     Do one who suffered from this disease keep it a secret of infrom their relatives ?
  reference  Does one who suffers from this disease keep it a secret or inform their relatives ?
  hypothesis Do one who suffer from this disease keep it a secret to inform their relatives ?
Sample 2 has a TP, an inserted word and a changed full stop that the reference does not make:
  source     She go to school yesterday .
  reference  She went to school yesterday .
  hypothesis She went to the school yesterday !
"""
from __future__ import annotations

from gecscore.types import Edit, Sample, Target

SOURCE_1 = tuple("Do one who suffered from this disease keep it a secret of infrom their relatives ?".split())
SOURCE_2 = tuple("She go to school yesterday .".split())


def edit(start: int, end: int, text: str, kind: str = "R:X") -> Edit:
    return Edit(start, end, tuple(text.split()), kind)


def sample_1() -> Sample:
    ref = Target.from_edits(SOURCE_1, [edit(0, 1, "Does"), edit(3, 4, "suffers"),
                                       edit(11, 12, "or"), edit(12, 13, "inform")], 0)
    hyp = Target.from_edits(SOURCE_1, [edit(3, 4, "suffer"), edit(11, 12, "to"), edit(12, 13, "inform")])
    return Sample(SOURCE_1, hyp, (ref,), 0)


def sample_2() -> Sample:
    ref = Target.from_edits(SOURCE_2, [edit(1, 2, "went")], 0)
    hyp = Target.from_edits(SOURCE_2, [edit(1, 2, "went"), edit(3, 3, "the", "M:DET"),
                                       edit(5, 6, "!", "R:PUNCT")])
    return Sample(SOURCE_2, hyp, (ref,), 1)
