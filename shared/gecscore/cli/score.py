"""``gecscore <metric>``: one command per registered metric, each a thin translation of flags onto
the metric seam. Its flags come from the metric's config, the extra flags from what the metric
class declares (``llm_weights``: ``--max-fallback-share``; ``per_edit``: ``--per-edit``), and
the text it prints from the result (:meth:`gecscore.metric.Result.format`): no metric is named
here."""
from __future__ import annotations

import argparse
import sys

from gecscore.cli.numbers import POSITIVE, SEED, SHARE
from gecscore.outputs import json_text
from gecscore.warnings_once import with_warnings
from gecscore.cli.inputs import add_input_arguments, add_output_arguments, prepare_gold, read_systems, write_json_lines
from gecscore.cli.options import add_config_arguments, config_from_args

# Exit code when scores were printed but the LLM judge let the run down: more than
# --max-fallback-share of the LLM edit weights fell back to 1 (CLEME2.0 --weighting llm), or every
# DSGram sentence failed.
JUDGE_SHORTFALL = 3
DEFAULT_MAX_FALLBACK_SHARE = 0.1


def register(subparsers, only: str | None = None) -> None:
    """One command per registered metric (:mod:`gecscore.registry`), its flags read from the
    metric's config; metric ``only``'s alone when given (its command line's)."""
    from gecscore.registry import metric_class, metric_names

    for name in metric_names() if only is None else [only]:
        cls = metric_class(name)
        from gecscore.cli import in_cli_vocabulary
        from gecscore.cli.options import flag
        from gecscore.options import fields_of

        summary = in_cli_vocabulary(cls.summary, {f.name: flag(f.name) for f in fields_of(cls.config_type)})
        parser = subparsers.add_parser(name, help=summary, description=summary)
        add_input_arguments(parser, reference_free=not cls.needs_references)
        add_output_arguments(parser)
        add_config_arguments(parser, cls.config_type)
        if cls.llm_weights:
            parser.add_argument("--max-fallback-share", type=SHARE, default=DEFAULT_MAX_FALLBACK_SHARE,
                                metavar="FRACTION",
                                help=f"--weighting llm: exit with status {JUDGE_SHORTFALL} when more than this share "
                                     f"of the edits fell back to weight 1 (default {DEFAULT_MAX_FALLBACK_SHARE:g})")
        if cls.per_edit:
            add_per_edit_arguments(parser)
        parser.set_defaults(run=run, metric=name)


def add_per_edit_arguments(parser: argparse.ArgumentParser) -> None:
    """The --per-edit output and how it is computed: output options of the command, not metric
    options (they change no score or signature), so declared here once, as argparse flags."""
    from gecscore.attribution.methods import DEFAULT_SAMPLES, METHODS

    group = parser.add_argument_group("per-edit attribution (--per-edit)")
    group.add_argument("--per-edit", metavar="FILE",
                       help="write one JSON record per hypothesis edit (JSON Lines) to FILE: its sentence, span, "
                            "correction and share of the metric's sentence-level score")
    group.add_argument("--attribution", choices=tuple(METHODS), default="shapley",
                       help="how an edit's share is measured (default shapley: exact, sampled beyond 14 edits)")
    group.add_argument("--attribution-samples", type=POSITIVE, default=DEFAULT_SAMPLES, metavar="N",
                       help=f"permutations of sampled Shapley (default {DEFAULT_SAMPLES})")
    group.add_argument("--seed", type=SEED, default=0, help="seed of sampled Shapley's permutations (default 0)")


def run(args: argparse.Namespace) -> int:
    """Score each --hyp system against one prepared reference side; print one result (one
    system) or one JSON object with a result per system (``systems``)."""
    from gecscore.registry import metric_class

    cls = metric_class(args.metric)
    metric = cls(config_from_args(cls.config_type, args))
    prepared = prepare_gold(args, metric)   # checks every output path (--per-edit too) first
    systems = read_systems(args, prepared)
    judge = None
    try:
        results = metric.score_systems(prepared, systems)
    finally:
        judge = metric.judge_used()
        if judge is not None:
            from gecscore.cli import in_cli_vocabulary

            print(in_cli_vocabulary(judge.summary(), getattr(args, "cli_flags", {})), file=sys.stderr)
            judge.close()
    if judge is not None and judge.exporter is not None:
        # the requests went to a batch file: these scores are not the metric's, print none
        exported = judge.exporter.result
        if args.json:
            print(json_text(with_warnings({"metric": args.metric, "batch_export": {
                "files": [str(p) for p in exported.paths], "requests": exported.written}})))
        return 0
    if args.per_sentence:
        several = len(results) > 1
        write_json_lines(args.per_sentence, ({"system": name, **record} if several else record
                                             for name, result in results for record in result.records()))
    if getattr(args, "per_edit", None):
        write_per_edit(args, metric, prepared, systems)
    if len(results) > 1 and args.json:
        print(json_text(with_warnings({"metric": args.metric,
                                        "systems": {name: result.as_dict() for name, result in results}})))
        return 0
    for name, result in results:
        if len(results) > 1:
            print(f"== {name}")
        print(json_text(with_warnings(result.as_dict())) if args.json else result.format())
    return judge_shortfall(args, results)


def per_edit_records(metric, prepared, systems, method: str = "shapley", samples: int = 64,
                     seed: int = 0) -> list[dict]:
    """Each system's per-edit attribution records (:func:`gecscore.attribution.corpus.attribute_corpus`)
    with the metric at sentence level: an edit's share is of its own sentence's score, which a
    corpus-level score (pooled counts) does not split into. ``system`` is added with several."""
    import dataclasses

    from gecscore.attribution.corpus import attribute_corpus
    from gecscore.types import Target

    sentence = type(metric)(dataclasses.replace(metric.config, level="sentence"))
    records = []
    for name, predictions in systems:
        checked = sentence.checked_predictions(prepared, predictions)
        targets = (checked if checked and isinstance(checked[0], Target)
                   else sentence.hypothesis_edits(prepared, checked, {}))
        found = attribute_corpus(sentence, prepared.gold, targets, method, samples, seed)
        records += [{"system": name, **r} if len(systems) > 1 else r for r in found]
    return records


def write_per_edit(args: argparse.Namespace, metric, prepared, systems) -> None:
    """The --per-edit file: JSON Lines, one record per hypothesis edit."""
    from gecscore.outputs import open_output

    records = per_edit_records(metric, prepared, systems, args.attribution, args.attribution_samples, args.seed)
    with open_output(args.per_edit, "w", "--per-edit") as handle:
        for record in records:
            handle.write(json_text(record, ensure_ascii=False) + "\n")


def judge_shortfall(args: argparse.Namespace, results) -> int:
    """0, or JUDGE_SHORTFALL (with a line on stderr) when the judge's failures make the scores
    untrustworthy: too many LLM edit weights fell back to 1, or no DSGram sentence was judged."""
    status = 0
    for name, result in results:
        values = result.values
        if "llm_edits" in values and values["llm_edits"]:
            share = values["llm_fallbacks"] / values["llm_edits"]
            if share > args.max_fallback_share:
                print(f"gecscore {args.metric}: error: {name}: {values['llm_fallbacks']} of {values['llm_edits']} "
                      f"LLM edit weights fell back to 1 ({share:.0%} > --max-fallback-share "
                      f"{args.max_fallback_share:g})", file=sys.stderr)
                status = JUDGE_SHORTFALL
        if values.get("n_sentences") and values.get("n_failed") == values["n_sentences"]:
            print(f"gecscore {args.metric}: error: {name}: every judge call failed; no sentence was scored",
                  file=sys.stderr)
            status = JUDGE_SHORTFALL
    return status
