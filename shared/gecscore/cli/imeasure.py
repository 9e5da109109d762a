"""``gecscore m2-to-ixml``: an M2 gold converted to the I-measure XML gold."""
from __future__ import annotations

import argparse


def register(subparsers) -> None:
    convert = subparsers.add_parser("m2-to-ixml", help="convert an M2 gold to the I-measure XML gold",
                                    description="Convert an M2 gold to the I-measure XML gold.")
    convert.add_argument("input", metavar="IN.m2")
    convert.add_argument("output", metavar="OUT.xml")
    convert.add_argument("--lenient", action="store_true",
                         help="accept edit spans past the end of a sentence (moved to its end, with a warning)")
    convert.set_defaults(run=run_convert, metric="m2-to-ixml")


def run_convert(args: argparse.Namespace) -> int:
    from gecscore.imeasure.gold import m2_to_ixml
    from gecscore.io.ixml import check_xml_lines, write_ixml
    from gecscore.io.m2 import parse_m2
    from gecscore.io.text import read_lines

    from gecscore.outputs import check_output_file

    check_output_file(args.output, "OUT.xml")
    lines = read_lines(args.input)
    check_xml_lines(lines, str(args.input))
    # --lenient: a warning per moved span, printed by the command line once per kind with a count
    sentences = list(parse_m2(lines, str(args.input), strict=not args.lenient))
    write_ixml(m2_to_ixml(sentences), args.output)
    return 0
