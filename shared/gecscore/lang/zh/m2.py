"""Char-level M2 exactly as ChERRANT's ``parallel_to_m2.py -g char`` writes it.

A block per input line: ``S`` and the source characters; then per target ``k``:

* ``T<k> 没有错误`` and ``A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||<k>`` for a target
  equal to the source or the literal 没有错误;
* ``T<k> 无法标注`` and ``A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||<k>`` for 无法标注;
* otherwise, per distinct alignment ``a``: ``T<k>-A<a>`` and the target characters, then its
  edits ``A start end|||type|||correction|||REQUIRED|||-NONE-|||<k>`` (a deletion's correction
  is ``-NONE-``). All alignments of a target carry the same annotator id ``k``.

Each block ends with a blank line (the file ends with two newlines). Edit lines are written by
:func:`gecscore.io.m2.format_m2`. :func:`read_gold` reads such a file (``T`` lines and all)
back into a :class:`~gecscore.types.GoldCorpus`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import re

from gecscore.io.m2 import format_m2, parse_m2
from gecscore.lang.zh import check_granularity
from gecscore.lang.zh.classify import NOOP, NOT_ANNOTATABLE
from gecscore.lang.zh.extractor import CANNOT_ANNOTATE, NO_ERROR, ZhAnnotation, ZhCharExtractor
from gecscore.types import GoldCorpus, Target, Tokens

ORIGIN = "cherrant"
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


_LATER_ALIGNMENT = re.compile(r"T\d+-A[1-9]\d*( |$)")


def gold_lines(lines) -> list[str]:
    """ChERRANT M2 lines reduced to plain M2: ``T`` lines dropped, the edits of alignments after
    ``A0`` dropped, ``NA`` markers dropped (a not-annotatable target is no annotator)."""
    out: list[str] = []
    keep = True
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line.startswith("T"):
            keep = not _LATER_ALIGNMENT.match(line)
        elif line.startswith("A "):
            if keep and line.split("|||")[1:2] != [NOT_ANNOTATABLE]:
                out.append(line)
        else:
            keep = True
            out.append(line)
    return out


def read_gold(path: str | Path) -> GoldCorpus:
    """The gold of a ChERRANT char-level M2 file (e.g. ``nlpcc2018_official.ref.m2.char``):
    annotator ``k``'s edits are those of its first alignment ``T<k>-A0`` (a ``T<k> 没有错误``
    annotator has none; a ``无法标注`` one is left out). For ChERRANT's exact score, which pools
    every alignment, use :func:`gecscore.m2.cherrant_compare.read_edits` instead."""
    from gecscore.io.text import read_lines

    return GoldCorpus(tuple(parse_m2(gold_lines(read_lines(path)), str(path))), ORIGIN, str(path))
