"""``gecscore para-to-m2 --lang zh``: ChERRANT's parallel format to char-level M2.

    gecscore para-to-m2 --lang zh -f INPUT.para -o OUTPUT.m2 [-g char] [-s all|first] [--no-simplified]

Writes what ChERRANT's ``parallel_to_m2.py -g char`` writes for the same file (byte for byte);
word level (``-g word``) needs LTP and is refused. To be listed in ``gecscore.cli.COMMAND_MODULES``.
"""
from __future__ import annotations

import argparse


def register(subparsers) -> None:
    help_text = "ChERRANT parallel file (id, source, targets) to char-level M2, as parallel_to_m2.py"
    parser = subparsers.add_parser("para-to-m2", help=help_text, description=help_text)
    parser.add_argument("--lang", required=True, choices=("zh",), help="language (zh: ChERRANT)")
    parser.add_argument("-f", "--file", required=True, metavar="INPUT",
                        help="parallel file: id<TAB>source<TAB>target[<TAB>target...] ('-': stdin)")
    parser.add_argument("-o", "--output", required=True, metavar="OUTPUT", help="M2 file to write ('-': stdout)")
    parser.add_argument("-g", "--granularity", default="char",
                        help="char (default; word level needs LTP and is not offered)")
    parser.add_argument("-s", "--multi-cheapest-strategy", dest="strategy", choices=("all", "first"),
                        default="all", help="all equally cheap alignments (default) or the first")
    parser.add_argument("--no-simplified", action="store_true",
                        help="do not convert targets to simplified Chinese (OpenCC t2s)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from gecscore.lang.zh.m2 import para_to_m2

    count = para_to_m2(args.file, args.output, granularity=args.granularity, strategy=args.strategy,
                       simplified=not args.no_simplified)
    if args.output != "-":
        print(f"{count} sentences written to {args.output}", file=sys.stderr)
    return 0
