"""``gecscore imeasure`` (the I-measure) and ``gecscore m2-to-ixml`` (M2 -> I-measure XML)."""
from __future__ import annotations

import argparse
import sys
import warnings


def register(subparsers) -> None:
    help_text = "I-measure: WAS counts on a 3-way alignment, WAcc and improvement I"
    parser = subparsers.add_parser("imeasure", help=help_text, description=help_text)
    group = parser.add_argument_group("inputs (--xml or --m2 gold with --hyp; or --src --hyp --ref ...)")
    group.add_argument("--xml", metavar="GOLD.xml", help="I-measure XML gold")
    group.add_argument("--m2", metavar="GOLD.m2", help="gold edits (M2), converted to the XML gold")
    group.add_argument("--hyp", metavar="HYP.txt", required=True,
                       help="hypothesis, one tokenised sentence per line")
    group.add_argument("--src", metavar="SRC.txt", help="source (with --ref)")
    group.add_argument("--ref", metavar="REF.txt", action="append", default=[],
                       help="a reference file; its edits are extracted by ERRANT (one annotator each)")
    parser.add_argument("--no-mix", action="store_true",
                        help="one reference per annotator instead of mixing their corrections")
    parser.add_argument("--max", default="cwacc", dest="max_metric",
                        help="metric maximised per sentence: [d|c][tp|tn|fp|fn|p|r|f|acc|wacc|i] (default cwacc)")
    parser.add_argument("--opt", choices=("sent", "corpus"), default="sent",
                        help="choose each reference on the sentence alone or on the running totals")
    parser.add_argument("--beta", type=float, default=1.0, help="F beta (default 1.0)")
    parser.add_argument("--w", type=float, default=2.0, help="WAcc weight of TP and FP (default 2.0)")
    parser.add_argument("--max-candidates", type=int, default=None,
                        help="enumerate at most this many reference combinations per sentence "
                             "(default 16384); beyond, a segment-wise search (warned)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--per-sentence", metavar="FILE",
                        help="write one JSON record per sentence (alignment and labels) to FILE")
    parser.set_defaults(run=run, metric="imeasure")

    convert = subparsers.add_parser("m2-to-ixml", help="convert an M2 gold to the I-measure XML gold",
                                    description="Convert an M2 gold to the I-measure XML gold.")
    convert.add_argument("input", metavar="IN.m2")
    convert.add_argument("output", metavar="OUT.xml")
    convert.add_argument("--lenient", action="store_true",
                         help="accept edit spans past the end of a sentence (moved to its end, with a warning)")
    convert.set_defaults(run=run_convert, metric="m2-to-ixml")


def _load_gold(args: argparse.Namespace):
    from gecscore.errors import GecInputError
    from gecscore.imeasure.gold import m2_to_ixml
    from gecscore.io.ixml import read_ixml
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines

    given = [name for name in ("xml", "m2", "src") if getattr(args, name)]
    if len(given) != 1:
        raise GecInputError("give exactly one gold: --xml GOLD.xml, --m2 GOLD.m2 or --src SRC.txt --ref REF.txt ...")
    if args.xml:
        return read_ixml(args.xml)
    if args.m2:
        return m2_to_ixml(read_m2(args.m2))
    if not args.ref:
        raise GecInputError("--src needs at least one --ref")
    from gecscore.imeasure.scorer import gold_from_references

    sources = read_lines(args.src, allow_empty=False)
    refs = [read_lines(path) for path in args.ref]
    for path, lines in zip(args.ref, refs):
        if len(lines) != len(sources):
            raise GecInputError(f"{len(lines)} lines but the source has {len(sources)}", path)
    return gold_from_references(sources, [list(r) for r in zip(*refs)])


def run(args: argparse.Namespace) -> int:
    from gecscore.cli.inputs import print_result, write_json_lines
    from gecscore.errors import GecInputError
    from gecscore.io.text import read_lines
    from gecscore.imeasure.scorer import DEFAULT_MAX_CANDIDATES, result_dict, score_imeasure, sentence_records

    gold = _load_gold(args)
    hypotheses = read_lines(args.hyp)
    if len(hypotheses) != len(gold):
        raise GecInputError(f"{len(hypotheses)} lines but the gold has {len(gold)} sentences", args.hyp)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = score_imeasure(gold, [line.split() for line in hypotheses], mix=not args.no_mix,
                                max_metric=args.max_metric, opt=args.opt, beta=args.beta, w=args.w,
                                max_candidates=args.max_candidates or DEFAULT_MAX_CANDIDATES)
    for warning in caught:
        print(f"gecscore imeasure: warning: {warning.message}", file=sys.stderr)
    if args.per_sentence:
        write_json_lines(args.per_sentence, sentence_records(result))
    out = result_dict(result)
    if args.json:
        print_result(out, True)
    else:
        print(out["signature"])
        print(f"{'':<11}" + "".join(f"{k.upper():>10}" for k in ("tp", "tn", "fp", "fn", "fpn", "p", "r", "f",
                                                                  "acc", "acc_base", "wacc", "wacc_base", "i")))
        for aspect in ("detection", "correction"):
            row = out[aspect]
            cells = [f"{row[k]:>10d}" for k in ("tp", "tn", "fp", "fn", "fpn")]
            cells += [f"{100 * row[k]:>10.2f}" for k in ("p", "r", "f", "acc", "acc_base", "wacc", "wacc_base", "i")]
            print(f"{aspect:<11}" + "".join(cells))
    return 0


def run_convert(args: argparse.Namespace) -> int:
    from gecscore.imeasure.gold import m2_to_ixml
    from gecscore.io.ixml import write_ixml
    from gecscore.io.m2 import read_m2

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sentences = read_m2(args.input, strict=not args.lenient)
    for warning in caught:
        print(f"gecscore m2-to-ixml: warning: {warning.message}", file=sys.stderr)
    write_ixml(m2_to_ixml(sentences), args.output)
    return 0
