"""``gecscore errant --lang zh``: ChERRANT's char-level score (``compare_m2_for_evaluation.py``).

:func:`run_zh` takes the namespace of ``gecscore errant`` (``hyp``, ``ref`` (a list), ``beta``,
``mode``, ``single``, ``multi``, ``filt``, ``cat``, ``json``): ``gecscore.cli.errant.run`` calls it
when ``args.lang == "zh"``. Each of ``-hyp``/``-ref`` is either ChERRANT's parallel format
(``id<TAB>source<TAB>target...``; edits extracted as ``parallel_to_m2.py -g char`` does) or a
char-level M2 file (a file whose first line starts with ``S ``), e.g. one written by
``parallel_to_m2.py`` or ``gecscore para-to-m2``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gecscore.outputs import json_text
from gecscore.warnings_once import with_warnings
from gecscore.errors import GecInputError


def is_m2(path: str | Path) -> bool:
    """Whether a file looks like M2 (its first non-blank line starts with ``S``). The file is read
    by the one checked reader (:func:`gecscore.io.text.read_lines`): a missing file, a FIFO, a
    device or a file that is not UTF-8 text is one line naming it."""
    from gecscore.io.text import read_lines

    first = next((line for line in read_lines(path) if line.strip()), "")
    return first.startswith("S ") or first == "S"


def parallel_edits(sources, targets, extractor):
    """ChERRANT's edits of raw ``sources`` to each line's ``targets`` (what ``parallel_to_m2.py
    -g char`` writes and the scorer reads)."""
    from gecscore.lang.zh.corpus import hypothesis_annotations
    from gecscore.m2.cherrant_compare import annotation_edits

    return [annotation_edits(annotations) for annotations in
            hypothesis_annotations(extractor.tokenize(sources), targets, extractor=extractor)]


def reference_side(path: str, extractor):
    """The -ref file, read once: the edits ChERRANT's scorer reads (M2 or parallel), and what a
    parallel -hyp file is checked against (its sources, and its ids when it is parallel)."""
    from gecscore.io.hypotheses import ExpectedLines
    from gecscore.io.para import read_para
    from gecscore.m2.cherrant_compare import read_edits

    described = f"the reference {path}"
    if is_m2(path):
        from gecscore.lang.zh.m2 import read_gold

        return read_edits(path), ExpectedLines(tuple(read_gold(path).sources), None, described)
    para = read_para(path)
    return parallel_edits(para.sources, para.targets, extractor), ExpectedLines(para.sources, para.ids, described)


def hypothesis_edits(path: str, expected, extractor):
    """The -hyp file's edits: a char-level M2 file's, or those ChERRANT extracts from a parallel
    file against its own sources, the file read by the one hypothesis reader (ids and sources
    matched against ``expected``, the -ref file's)."""
    from gecscore.io.hypotheses import PARALLEL_LINE, read_hypotheses
    from gecscore.m2.cherrant_compare import read_edits

    if is_m2(path):
        return read_edits(path)
    hyp = read_hypotheses(path, expected)
    if hyp.format != "parallel":
        raise GecInputError(f"plain text: --lang zh reads ChERRANT's parallel files ({PARALLEL_LINE}) or "
                            "char-level M2 as -hyp", path)
    return parallel_edits(hyp.sources, hyp.predictions, extractor)


def run_zh(args: argparse.Namespace) -> int:
    from gecscore.m2.cherrant_compare import compare
    from gecscore.lang.zh.extractor import ZhCharExtractor
    from gecscore.m2.errant_compare import CompareOptions, format_report

    if getattr(args, "src", None):
        raise GecInputError("--lang zh reads ChERRANT parallel files (id, source, targets) or char-level "
                            "M2 as -hyp/-ref; --src is not used")
    if len(args.ref) != 1:
        raise GecInputError("--lang zh takes one -ref file (a parallel file holds every reference)")
    options = CompareOptions(args.beta, args.mode, args.single, args.multi, frozenset(args.filt))
    extractor = ZhCharExtractor(progress=False)
    references, expected = reference_side(args.ref[0], extractor)
    result = compare(hypothesis_edits(args.hyp, expected, extractor), references, options)
    if args.json:
        print(json_text(with_warnings({"metric": "errant", "lang": "zh", **result.as_dict(args.cat)})))
    else:
        sys.stdout.write(format_report(result, args.cat))
    return 0
