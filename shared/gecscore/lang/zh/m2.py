"""Char-level M2 exactly as ChERRANT's ``parallel_to_m2.py -g char`` writes it.

A block per input line: ``S`` and the source characters; then per target ``k``:

* ``T<k> 没有错误`` and ``A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||<k>`` for a target
  equal to the source or the literal 没有错误;
* ``T<k> 无法标注`` and ``A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||<k>`` for 无法标注;
* otherwise, per distinct alignment ``a``: ``T<k>-A<a>`` and the target characters, then its
  edits ``A start end|||type|||correction|||REQUIRED|||-NONE-|||<k>`` (a deletion's correction
  is ``-NONE-``). All alignments of a target carry the same annotator id ``k``.

Each block ends with a blank line (the file ends with two newlines). Edit lines are written by
:func:`gecscore.io.m2.format_m2`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from gecscore.io.m2 import format_m2
from gecscore.lang.zh import check_granularity
from gecscore.lang.zh.classify import NOOP, NOT_ANNOTATABLE
from gecscore.lang.zh.extractor import CANNOT_ANNOTATE, NO_ERROR, ZhAnnotation, ZhCharExtractor
from gecscore.types import Target, Tokens

NA_LINE = "A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||{}"


def format_block(source: Tokens, annotations: Sequence[ZhAnnotation]) -> str:
    """One block of ChERRANT's char-level M2 (without the separating blank line)."""
    lines = ["S " + " ".join(source)]
    for k, annotation in enumerate(annotations):
        if annotation.kind == NOOP:
            lines.append(f"T{k} {NO_ERROR}")
            lines.extend(format_m2(source, [Target(source, (), k)]).splitlines()[1:])
        elif annotation.kind == NOT_ANNOTATABLE:
            lines += [f"T{k} {CANNOT_ANNOTATE}", NA_LINE.format(k)]
        else:
            for a, edits in enumerate(annotation.alignments):
                lines.append(f"T{k}-A{a} " + " ".join(annotation.target))
                if edits:
                    block = format_m2(source, [Target(annotation.target, edits, k)], deletion="-NONE-")
                    lines.extend(block.splitlines()[1:])
    return "\n".join(lines) + "\n"


def annotate_para(path: str | Path, *, extractor: ZhCharExtractor | None = None):
    """The parallel file at ``path`` and, per line, its tokenised source and the annotation of
    each target (``parallel_to_m2.py``'s work, before writing)."""
    from gecscore.io.para import read_para

    para = read_para(path)
    extractor = extractor or ZhCharExtractor(progress=False)
    sources = extractor.tokenize(para.sources)
    annotations = []
    for source, targets in zip(sources, para.targets):
        annotations.append(tuple(extractor.annotate(source, target)
                                 for target in extractor.tokenize_targets(targets)))
    return para, [tuple(s.split()) for s in sources], annotations


def para_to_m2(in_path: str | Path, out_path: str | Path, *, granularity: str = "char",
               strategy: str = "all", simplified: bool = True) -> int:
    """Write the char-level M2 of a parallel file (as ``parallel_to_m2.py -g char -s STRATEGY``,
    ``--no_simplified`` when not ``simplified``); return the number of sentences. ``out_path``
    ``-`` writes to standard output."""
    import sys

    check_granularity(granularity)
    extractor = ZhCharExtractor(strategy=strategy, simplified=simplified, progress=False)
    _, sources, annotations = annotate_para(in_path, extractor=extractor)
    text = "".join(format_block(source, anns) + "\n" for source, anns in zip(sources, annotations))
    if str(out_path) == "-":
        sys.stdout.write(text)
    else:
        Path(out_path).write_text(text, encoding="utf-8")
    return len(sources)
