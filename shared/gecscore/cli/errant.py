"""``gecscore errant``: ERRANT's span-based F-beta, counts and layout as ``errant_compare``.

    gecscore errant -hyp HYP.m2 -ref REF.m2 [-cat 1|2|3] [-ds|-dt|-cs|-cse] [-b BETA]
                    [-single|-multi] [-filt TYPE ...] [--json]
    gecscore errant --src SRC.txt --hyp HYP.txt --ref REF.txt [--ref REF2.txt ...] [...]

With ``--src`` the hypothesis and references are text and their edits are extracted by ERRANT
through the seam (as ``errant_parallel`` would write them); otherwise both are M2 files.
"""
from __future__ import annotations

import argparse

from gecscore.cli.numbers import Number
from gecscore.outputs import json_text
from gecscore.warnings_once import with_warnings
from gecscore.m2.errant_compare import CompareOptions
import sys


def register(subparsers) -> None:
    help_text = "ERRANT span-based F-beta with per-type tables (the counts of errant_compare)"
    parser = subparsers.add_parser("errant", help=help_text, description=help_text)
    parser.add_argument("-hyp", "--hyp", required=True, metavar="HYP",
                        help="hypothesis M2 file (or text, one sentence per line, with --src)")
    parser.add_argument("-ref", "--ref", required=True, action="append", metavar="REF",
                        help="reference M2 file (or text files, repeat for several references, with --src)")
    parser.add_argument("--src", metavar="SRC.txt", help="source text: --hyp/--ref are text, edits by ERRANT")
    parser.add_argument("--tokenize", action="store_true", help="tokenise the text inputs with spaCy first")
    parser.add_argument("-b", "--beta", type=Number(float, exclusive_minimum=0), default=CompareOptions.beta,
                        help=f"beta of F-beta (default {CompareOptions.beta:g})")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("-dt", dest="mode", action="store_const", const="dt", help="token-based detection")
    mode.add_argument("-ds", dest="mode", action="store_const", const="ds", help="span-based detection")
    mode.add_argument("-cs", dest="mode", action="store_const", const="cs",
                      help="span-based correction (default)")
    mode.add_argument("-cse", dest="mode", action="store_const", const="cse",
                      help="span-based correction and error types")
    parser.add_argument("-single", action="store_true", help="only single-token edits (0:1, 1:0, 1:1)")
    parser.add_argument("-multi", action="store_true", help="only multi-token edits (2+:n or n:2+)")
    parser.add_argument("-filt", nargs="+", default=[], metavar="TYPE", help="error types not evaluated")
    parser.add_argument("-cat", type=Number(int, minimum=1, maximum=3),
                        help="per-type table: 1 operation (M/R/U), 2 main type, 3 full type")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    from gecscore.cli.options import add_option_flag
    from gecscore.options import LanguageOptions, fields_of

    for f in fields_of(LanguageOptions):   # --lang, declared once (zh: ChERRANT's char-level scorer)
        add_option_flag(parser, f)
    parser.set_defaults(run=run, metric="errant", mode="cs")


def run(args: argparse.Namespace) -> int:
    from gecscore.errors import GecInputError
    from gecscore.m2.errant_compare import CompareOptions, compare, edits_from_text, format_report, read_edits

    from gecscore.lang.profiles import check_lang

    args.lang = check_lang(args.lang)   # zh-CN is zh
    if args.lang == "zh":   # ChERRANT's parallel files or char-level M2, and its scorer
        from gecscore.cli.errant_zh import run_zh

        return run_zh(args)
    options = CompareOptions(args.beta, args.mode, args.single, args.multi, frozenset(args.filt))
    if args.src:
        from gecscore.io.text import check_line_count, read_lines

        sources = read_lines(args.src, allow_empty=False)
        hyps = check_line_count(args.hyp, read_lines(args.hyp), len(sources), args.src)
        refs = [check_line_count(path, read_lines(path), len(sources), args.src) for path in args.ref]
        hyp_edits, ref_edits = edits_from_text(sources, hyps, [list(r) for r in zip(*refs)],
                                               tokenize=args.tokenize, lang=args.lang)
    else:
        if len(args.ref) != 1:
            raise GecInputError("give one reference M2 file (-ref REF.m2); several -ref need --src")
        hyp_edits, ref_edits = read_edits(args.hyp), read_edits(args.ref[0])
    result = compare(hyp_edits, ref_edits, options)
    if args.json:
        print(json_text(with_warnings({"metric": "errant", **result.as_dict(args.cat)})))
    else:
        sys.stdout.write(format_report(result, args.cat))
    return 0
