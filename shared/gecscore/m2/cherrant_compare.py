"""ChERRANT's scorer (``compare_m2_for_evaluation.py``): ERRANT's compare with three differences.

ChERRANT's scorer is ERRANT's ``compare_m2`` (implemented in
:mod:`gecscore.m2.errant_compare`, which this module reuses for keys, counts, the choice of
reference and the report) except that:

1. **alignments pool**: it reads every ``A`` line of a block and ignores the ``T<k>-A<a>``
   lines, so the edits of all alignments of annotator ``k`` form *one* coder ``k``; an edit in
   two alignments is one key with two types, i.e. it counts twice as TP (or FN, or FP);
2. **corrections lose spaces**: the key's correction is the M2 string with spaces removed
   (``"对 方"`` and ``"对方"`` are the same correction);
3. **not annotatable**: a sentence whose reference has exactly one coder with exactly one key,
   of type ``NA`` (``无法标注``), is skipped (no TP, FP or FN). An ``NA`` coder among others is
   an ordinary reference whose one key ``(-1, -1, "-NONE-")`` is matched by an unchanged
   hypothesis (noop) and is otherwise one FN.

Options as ChERRANT's: ``max_answer_num`` keeps the coders below it (ChERRANT: 1, 2 or 3);
``reference_num`` scores only sentences with that many reference coders.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from gecscore.errors import GecInputError
from gecscore.lang.zh.classify import NOOP, NOT_ANNOTATABLE
from gecscore.lang.zh.corpus import ZhGold, gold_from_para, hypothesis_annotations
from gecscore.lang.zh.extractor import ZhAnnotation, ZhCharExtractor
from gecscore.m2.errant_compare import parse_block as errant_parse_block
from gecscore.m2.errant_compare import read_edits as errant_read_edits
from gecscore.m2.errant_compare import SKIPPED, CompareOptions, CompareResult, M2Edit
from gecscore.m2.errant_compare import compare as errant_compare



def annotation_edits(annotations: Sequence[ZhAnnotation]) -> tuple[M2Edit, ...]:
    """The edits ChERRANT's scorer reads from one block written for these targets (target k is
    coder k; every alignment's edits, in order; corrections without spaces)."""
    out: list[M2Edit] = []
    for coder, annotation in enumerate(annotations):
        if annotation.kind in (NOOP, NOT_ANNOTATABLE):
            out.append(M2Edit(-1, -1, annotation.kind, "-NONE-", coder))
            continue
        for edits in annotation.alignments:
            out.extend(M2Edit(e.start, e.end, e.type, "".join(e.correction) or "-NONE-", coder)
                       for e in edits)
    return tuple(out)


def parse_block(block: str) -> tuple[M2Edit, ...]:
    """The ``A`` lines of one block as ChERRANT's scorer reads them (``T`` lines ignored)."""
    return errant_parse_block(block, chinese=True)


def read_edits(path: str | Path) -> list[tuple[M2Edit, ...]]:
    """Every block's edits of a ChERRANT M2 file."""
    return errant_read_edits(path, chinese=True)


def _not_annotatable(ref: dict[int, dict]) -> bool:
    if len(ref) != 1:
        return False
    keys = next(iter(ref.values()))
    return len(keys) == 1 and next(iter(keys.values()))[0] == NOT_ANNOTATABLE


def compare(hypotheses: Sequence[Sequence[M2Edit]], references: Sequence[Sequence[M2Edit]],
            options: CompareOptions = CompareOptions(), *, max_answer_num: int | None = None,
            reference_num: int | None = None) -> CompareResult:
    """ChERRANT's corpus TP/FP/FN (see the module docstring): ERRANT's compare on the edits of
    the first ``max_answer_num`` coders, leaving out sentences whose only reference is not
    annotatable, or (with ``reference_num``) whose number of references differs."""
    if max_answer_num is not None:
        hypotheses = [[e for e in edits if e.coder < max_answer_num] for edits in hypotheses]
        references = [[e for e in edits if e.coder < max_answer_num] for edits in references]

    def skip(ref: dict[int, dict]) -> bool:
        return (reference_num is not None and len(ref) != reference_num) or _not_annotatable(ref)

    return errant_compare(hypotheses, references, options, skip=skip)


def compare_files(hyp: str | Path, ref: str | Path, options: CompareOptions = CompareOptions(),
                  **kwargs) -> CompareResult:
    """ChERRANT's scores of two char-level M2 files (ours or ``parallel_to_m2.py``'s)."""
    return compare(read_edits(hyp), read_edits(ref), options, **kwargs)


def cherrant_score(gold: ZhGold, hypotheses: Sequence[Sequence[ZhAnnotation]],
                   options: CompareOptions = CompareOptions(), **kwargs) -> CompareResult:
    """``compare_m2_for_evaluation.py``'s result for these annotations (options as ChERRANT's;
    ``max_answer_num``, ``reference_num`` as keywords)."""
    if len(hypotheses) != len(gold.annotations):
        raise GecInputError(f"{len(hypotheses)} hypotheses but {len(gold.annotations)} gold sentences")
    return compare([annotation_edits(h) for h in hypotheses],
                   [annotation_edits(r) for r in gold.annotations], options, **kwargs)


def score_para_files(hyp_path: str | Path, ref_path: str | Path, *, beta: float = 0.5,
                     strategy: str = "all", simplified: bool = True, **kwargs) -> CompareResult:
    """ChERRANT's char-level score of a prediction file against a reference file, both parallel
    (what ``parallel_to_m2.py`` on each, then ``compare_m2_for_evaluation.py``, print). Each
    side's edits are taken against its own file's sources, as ChERRANT does; the prediction
    file's ids and sources must be the reference's (:mod:`gecscore.io.hypotheses`)."""
    from gecscore.io.hypotheses import PARALLEL_LINE, ExpectedLines, read_hypotheses
    from gecscore.io.para import read_para

    extractor = ZhCharExtractor(strategy=strategy, simplified=simplified, progress=False)
    gold = gold_from_para(ref_path, extractor=extractor)
    reference = read_para(ref_path)
    hyp = read_hypotheses(hyp_path, ExpectedLines(reference.sources, reference.ids, f"the reference {ref_path}"))
    if hyp.format != "parallel":
        raise GecInputError(f"plain text: the prediction file is parallel ({PARALLEL_LINE})", str(hyp_path))
    annotations = hypothesis_annotations(extractor.tokenize(hyp.sources), [(p,) for p in hyp.predictions],
                                         extractor=extractor)
    return cherrant_score(gold, annotations, CompareOptions(beta=beta), **kwargs)
