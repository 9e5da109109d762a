"""``gecscore pt_m2``: PT-M2 / PT-ERRANT, and plain M2 / SentM2 with ``--scorer none``."""
from __future__ import annotations

import argparse

from gecscore.cli.inputs import add_input_arguments, add_output_arguments, print_result, write_json_lines
from gecscore.errors import GecInputError


def register(subparsers) -> None:
    help_text = "PT-M2 / PT-ERRANT: M2 or ERRANT F_beta with edits weighted by BERTScore or BARTScore"
    parser = subparsers.add_parser("pt_m2", help=help_text, description=help_text)
    add_input_arguments(parser)
    add_output_arguments(parser)
    parser.add_argument("--base", choices=("m2", "errant"), default="m2",
                        help="system edits by MaxMatch (m2, default) or ERRANT (errant)")
    parser.add_argument("--scorer", choices=("none", "bertscore", "bartscore"), default="bertscore",
                        help="edit weights (default bertscore; none = plain M2 / SentM2)")
    parser.add_argument("--beta", type=float, default=0.5, help="F beta (default 0.5)")
    parser.add_argument("--model", help="model name or local directory (default bert-base-uncased; "
                                        "facebook/bart-base for bartscore)")
    parser.add_argument("--num-layers", type=int, help="BERTScore layer (default: the model's, "
                                                       "bert-base-uncased 9)")
    parser.add_argument("--batch-size", type=int, help="model batch size (default 64; 16 for bartscore)")
    parser.add_argument("--device", help="torch device (default cuda when available, else cpu)")
    parser.add_argument("--max-unchanged-words", type=int, default=2,
                        help="MaxMatch: unchanged tokens allowed inside one edit (default 2)")
    parser.set_defaults(run=run, metric="pt_m2")


def load_gold_and_hypotheses(args: argparse.Namespace):
    """(gold sentences with every annotator's raw edits, hypothesis targets).

    With --m2 the gold edits are read as they are (MaxMatch counts every A line); with
    --src/--hyp/--ref each reference's edits are extracted by ERRANT. Hypothesis edits are
    only extracted (ERRANT) for --base errant.
    """
    from gecscore import corpus
    from gecscore.cli.inputs import load_samples
    from gecscore.extract.errant_edits import ErrantExtractor
    from gecscore.io.m2 import read_m2
    from gecscore.io.text import read_lines
    from gecscore.m2.pt_m2 import gold_from_samples
    from gecscore.types import Target

    if args.m2 and args.hyp and not (args.hyp_m2 or args.src or args.ref):
        gold = read_m2(args.m2)
        lines = read_lines(args.hyp)
        if args.base == "m2" and not args.tokenize:
            if len(lines) != len(gold):
                raise GecInputError(f"{len(lines)} lines but the gold M2 has {len(gold)} sentences", args.hyp)
            return gold, [Target(tuple(line.split()), ()) for line in lines]
        extractor = ErrantExtractor(n_process=args.n_process)
        if args.tokenize:
            lines = extractor.tokenize(lines)
        samples = corpus.samples_from_m2_and_text(gold, lines, extractor, args.hyp)
        return gold, [s.hypothesis for s in samples]
    if args.m2 and args.hyp_m2 and not (args.hyp or args.src or args.ref):
        gold = read_m2(args.m2)
        samples = corpus.samples_from_m2(gold, read_m2(args.hyp_m2), args.m2, args.hyp_m2)
        return gold, [s.hypothesis for s in samples]
    samples = load_samples(args)
    return gold_from_samples(samples), [s.hypothesis for s in samples]


def run(args: argparse.Namespace) -> int:
    from gecscore.m2.pt_m2 import result_dict, score_pt_m2, sentence_records

    if args.beta <= 0:
        raise GecInputError(f"--beta must be positive, got {args.beta}")
    if args.max_unchanged_words < 0:
        raise GecInputError(f"--max-unchanged-words must be >= 0, got {args.max_unchanged_words}")
    gold, hypotheses = load_gold_and_hypotheses(args)
    result = score_pt_m2(gold, hypotheses, base=args.base, scorer=args.scorer, level=args.level,
                         beta=args.beta, model=args.model, num_layers=args.num_layers,
                         batch_size=args.batch_size, device=args.device,
                         max_unchanged_words=args.max_unchanged_words)
    if args.per_sentence:
        write_json_lines(args.per_sentence, sentence_records(result, gold))
    print_result(result_dict(result), args.json)
    return 0
