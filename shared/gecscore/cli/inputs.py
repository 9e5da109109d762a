"""Input options shared by the metric commands, and loading them into samples."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable

from gecscore.errors import GecInputError


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("inputs (one of: --m2 with --hyp or --hyp-m2; --src --hyp --ref ...)")
    group.add_argument("--m2", metavar="GOLD.m2", help="gold edits (M2)")
    group.add_argument("--hyp", metavar="HYP.txt", help="hypothesis, one tokenised sentence per line")
    group.add_argument("--hyp-m2", metavar="HYP.m2", help="hypothesis edits given as M2 (first annotator)")
    group.add_argument("--src", metavar="SRC.txt", help="source, one tokenised sentence per line")
    group.add_argument("--ref", metavar="REF.txt", action="append", default=[],
                       help="a reference file (repeat for several references)")
    group.add_argument("--tokenize", action="store_true",
                       help="tokenise --hyp/--src/--ref with spaCy first (for untokenised text)")
    group.add_argument("--n-process", type=int, default=1,
                       help="spaCy parsing processes for ERRANT extraction (default 1)")


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--level", choices=("corpus", "sentence"), default="corpus")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--per-sentence", metavar="FILE",
                        help="write one JSON record per sentence (JSON Lines) to FILE")


def load_samples(args: argparse.Namespace):
    """Samples from whichever input combination was given; a clear error otherwise."""
    from gecscore import corpus
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines

    if args.m2 and args.hyp_m2:
        if args.hyp or args.src or args.ref:
            raise GecInputError("--hyp-m2 goes with --m2 alone")
        return corpus.load_m2_samples(args.m2, args.hyp_m2)
    extractor = _extractor(args)
    if args.m2 and args.hyp:
        if args.src or args.ref:
            raise GecInputError("--m2 --hyp takes the source from the M2 file; drop --src/--ref")
        predictions = _maybe_tokenize(read_lines(args.hyp), extractor, args)
        return corpus.samples_from_m2_and_text(read_m2(args.m2), predictions, extractor, args.hyp)
    if args.src and args.hyp and args.ref:
        sources = _maybe_tokenize(read_lines(args.src, allow_empty=False), extractor, args)
        predictions = _maybe_tokenize(read_lines(args.hyp), extractor, args)
        ref_lines = [_maybe_tokenize(read_lines(path), extractor, args) for path in args.ref]
        for path, lines in zip(args.ref, ref_lines):
            if len(lines) != len(sources):
                raise GecInputError(f"{len(lines)} lines but the source has {len(sources)}", path)
        if len(predictions) != len(sources):
            raise GecInputError(f"{len(predictions)} lines but the source has {len(sources)}", args.hyp)
        references = [list(refs) for refs in zip(*ref_lines)]
        return corpus.samples_from_text(sources, predictions, references, extractor)
    raise GecInputError("give --m2 GOLD --hyp HYP, --m2 GOLD --hyp-m2 HYP.m2, or --src SRC --hyp HYP --ref REF")


def _extractor(args):
    from gecscore.extract.errant_edits import ErrantExtractor

    return ErrantExtractor(n_process=args.n_process)


def _maybe_tokenize(lines: list[str], extractor, args) -> list[str]:
    return extractor.tokenize(lines) if args.tokenize else lines


def write_json_lines(path: str, records: Iterable[dict]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def print_result(result: dict, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return
    print(result["signature"])
    width = max(len(key) for key in result)
    for key, value in result.items():
        if key in ("metric", "signature"):
            continue
        text = f"{value:.4f}" if isinstance(value, float) else str(value)
        print(f"  {key:<{width}}  {text}")
