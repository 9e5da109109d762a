"""``gecscore leaderboard``: every system of a folder x every metric configuration."""
from __future__ import annotations

import argparse
import importlib.util
import sys

from gecscore.cli.numbers import COUNT, OPEN_UNIT, POSITIVE, SECONDS, SEED, Number
from gecscore.extras import install_hint
from gecscore.options import JudgeOptions, LanguageOptions, LayerOptions, ModelOptions, PerTypeOptions, fields_of

# Run-wide options, each flag made from its one declaration: the similarity model's (PT-M2,
# PT-ERRANT, CLEME2.0-sim), the judge's (DSGram, CLEME2.0-llm: --judge-<option>, its model
# --judge-model) and per-type tables; each configuration takes those that apply to it.
SIMILARITY_FIELDS = (*fields_of(ModelOptions), *fields_of(LayerOptions))
JUDGE_FIELDS = (*(f for f in fields_of(ModelOptions) if f.name == "model"), *fields_of(JudgeOptions))


def register(subparsers) -> None:
    help_text = "score every system of a folder with every metric configuration; correlate with humans"
    parser = subparsers.add_parser("leaderboard", help=help_text, description=help_text)
    add_input_arguments(parser)
    add_analysis_arguments(parser)
    add_cluster_arguments(parser)
    add_executor_arguments(parser)
    add_run_wide_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the leaderboard as one JSON object")
    parser.set_defaults(run=run)


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """The systems, the gold and the configurations."""
    parser.add_argument("--systems", metavar="DIR", help="system outputs, one DIR/<NAME>.txt per system")
    parser.add_argument("--hyp-m2-dir", metavar="DIR",
                        help="hypothesis edits as M2, DIR/<NAME>[.*].m2 (used instead of ERRANT extraction)")
    gold = parser.add_mutually_exclusive_group()
    gold.add_argument("--m2", metavar="GOLD.m2", help="gold edits (M2)")
    gold.add_argument("--para", metavar="GOLD.txt",
                      help="gold as a parallel file (id<TAB>source<TAB>reference...; ChERRANT's), edits by the --lang "
                           "profile")
    gold.add_argument("--refset", help="a named reference set: conll14, conll14-errant, bn10gec, e-minimal, "
                                       "e-fluency, ne-minimal, ne-fluency (read from --data-dir)")
    parser.add_argument("--exclude-unchanged-refs", action="store_true",
                        help="drop references identical to the source (kept if all are)")
    parser.add_argument("--reference-edits", choices=("m2", "errant"),
                        help="reference edits as given, or re-extracted by ERRANT (default: errant for "
                             "bn10gec and the SN-8GEC sets, m2 otherwise)")
    parser.add_argument("--subset-source", metavar="SRC.txt",
                        help="score only the gold sentences whose source matches these lines "
                             "(e.g. SEEDA's outputs/subset/INPUT.txt)")
    parser.add_argument("--metrics", "--metric", nargs="+", metavar="NAME",
                        help="configurations, families or globs (default: every available one; see --list-metrics), "
                             "or any metric with options: NAME:key=value,... (e.g. 'pt_m2:scorer=none,beta=0.3')")
    parser.add_argument("--list-metrics", action="store_true", help="list the configurations and exit")
    parser.add_argument("--only", nargs="+", metavar="SYSTEM", help="score only these systems")


def add_analysis_arguments(parser: argparse.ArgumentParser) -> None:
    """Human rankings, outputs and the meta-evaluation's statistics."""
    parser.add_argument("--human", help="gjg15, seeda-base, seeda-+input, seeda-+ref-f (base + REF-F and GPT-3.5, "
                                        "alias seeda-+fluency), seeda-all, or a TSV "
                                        "(system<TAB>score...) to correlate with")
    parser.add_argument("--data-dir", help="evaluation data folder (default $GEC_DATA, else the per-user data folder; "
                                           "see gecscore data)")
    parser.add_argument("--out", metavar="DIR", help="write CSV/JSON/Markdown (and plots) here")
    parser.add_argument("--no-plots", action="store_true", help="skip the scatter plots")
    parser.add_argument("--bootstrap", type=COUNT, default=0, metavar="N",
                        help="paired bootstrap resamples over sentences (e.g. 1000; default off)")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the bootstrap and significance tests (default 0)")
    parser.add_argument("--sentence-judgments", nargs="+", metavar="SPEC",
                        help="sentence-level human rankings (Appraise XML) to meta-evaluate the sentence scores "
                             "with (pairwise accuracy, Kendall's tau): 'seeda' (SEEDA-S and SEEDA-E from "
                             "--data-dir) or NAME=FILE.xml")
    parser.add_argument("--sentence-ties", choices=("neutral", "seeda-script", "discordant"), default="neutral",
                        help="how a metric tie counts (default neutral: neither agreement nor disagreement, "
                             "as the published SEEDA cells)")
    parser.add_argument("--aggregation", choices=("mean", "trueskill", "expected-wins"), default="mean",
                        help="system scores of configurations with sentence scores: their own (mean, default) "
                             "or the TrueSkill / Expected Wins aggregation of sentence-level comparisons "
                             "(Goto et al. 2025); the correlations use them")
    parser.add_argument("--sentence-set", metavar="SEEDA_SET",
                        help="keep only this SEEDA system set in the sentence-level meta-evaluation: base, +input, "
                             "+ref-f (alias +fluency) or all (default: every scored system)")
    parser.add_argument("--window", type=Number(int, minimum=2, off=0), default=0, metavar="N",
                        help="with --human: SEEDA's window analysis, r and rho over every N systems consecutive "
                             "in the human ranking (SEEDA uses 8; default off)")
    parser.add_argument("--baseline", metavar="SYSTEM",
                        help="compare every system with this one per metric (paired bootstrap and approximate "
                             "randomisation over sentences)")
    parser.add_argument("--significance-samples", type=COUNT, default=1000, metavar="N",
                        help="bootstrap resamples and randomisation trials of --baseline (default 1000)")


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """The significance clusters (:func:`cluster_options` reads them back; the defaults are
    :class:`~gecscore.leaderboard.clusters.ClusterOptions`')."""
    from gecscore.leaderboard.clusters import ClusterOptions
    from gecscore.metaeval.draw_statistics import SENTENCE_STATISTICS, SYSTEM_STATISTICS
    from gecscore.metaeval.ties import GROUPINGS

    defaults = ClusterOptions()
    group = parser.add_argument_group(
        "significance clusters (with --human: the configurations ranked by PERM-BOTH on each human ranking; with "
        "--sentence-judgments also at sentence level; with a GMEG set at segment level)")
    group.add_argument("--cluster-draws", type=COUNT, default=defaults.draws, metavar="N",
                       help=f"permutation draws per pair of configurations and randomisation trials per pair of "
                            f"systems (default {defaults.draws}; 0: no clusters)")
    group.add_argument("--alpha", type=OPEN_UNIT, default=defaults.alpha,
                       help=f"significance level of every cluster of the run, Williams' too (default "
                            f"{defaults.alpha:g}); --seed seeds the draws")
    group.add_argument("--cluster-statistic", choices=SYSTEM_STATISTICS, default=defaults.system_statistic,
                       metavar="NAME", help=f"the system-level statistic the configurations are ranked by (default "
                                            f"{defaults.system_statistic}; {', '.join(SYSTEM_STATISTICS)})")
    group.add_argument("--cluster-sentence-statistic", choices=SENTENCE_STATISTICS,
                       default=defaults.sentence_statistic, metavar="NAME",
                       help=f"the sentence-level one (default {defaults.sentence_statistic}, with the "
                            f"--sentence-ties rule: the sentence-level table's Acc; {', '.join(SENTENCE_STATISTICS)})")
    group.add_argument("--cluster-grouping", choices=GROUPINGS, default=defaults.grouping,
                       help=f"sentence level: counts pooled over the ranking items, or the mean over items "
                            f"(default {defaults.grouping})")
    group.add_argument("--system-clusters", action="store_true",
                       help="also rank the systems under each configuration in significance clusters (every pair "
                            "by the paired randomisation of gecscore compare; on SEEDA's 15 systems x 391 sentences "
                            "0.3 to 3 s per configuration, GLEU 17 s)")


def cluster_options(args: argparse.Namespace):
    """The clusters asked for: None with --cluster-draws 0, or when neither a human signal nor
    --system-clusters gives them anything to rank."""
    from gecscore.leaderboard.clusters import ClusterOptions

    if args.cluster_draws == 0 or not (args.human or args.sentence_judgments or args.system_clusters):
        return None
    return ClusterOptions(draws=args.cluster_draws, alpha=args.alpha, seed=args.seed,
                          system_statistic=args.cluster_statistic, sentence_statistic=args.cluster_sentence_statistic,
                          grouping=args.cluster_grouping, systems=args.system_clusters)


def segment_scores(spec: str | None, data_dir: str | None) -> dict | None:
    """The segment-level human scores behind ``--human`` where it names a GMEG set, else None."""
    from pathlib import Path

    if not spec or not spec.lower().startswith("gmeg-") or Path(spec).is_file():
        return None
    from gecscore.metaeval.human_segments import gmeg_name, gmeg_segment_scores

    return {gmeg_name(spec): gmeg_segment_scores(spec, data_dir)}


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the cells are scored (:func:`executor_of` reads them back)."""
    parser.add_argument("--jobs", type=POSITIVE, default=1, help="worker processes (systems in parallel)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="score on a Dask cluster instead of --jobs: tcp://HOST:PORT (a running scheduler) or "
                             "local:N (N local worker processes); needs the dask extra (docs/leaderboard_dask.md)")
    parser.add_argument("--connect-timeout", type=SECONDS, default=None, metavar="SECONDS",
                        help="with --scheduler: reach the scheduler, and find a worker, within SECONDS; a run left "
                             "without any worker that long stops with status 4 (default 10)")


def add_run_wide_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of the run-wide options (language, per-type tables, similarity model, judge) of
    a leaderboard-style command, each made from its declaration (:func:`run_wide_options` reads
    them back)."""
    from gecscore.cli.options import add_option_flag

    language = parser.add_argument_group("language (every configuration with text input)")
    for f in fields_of(LanguageOptions):
        add_option_flag(language, f, run_wide=True)
    tables = parser.add_argument_group("per-type tables (M2, ERRANT, PT-M2 and CLEME configurations)")
    for f in fields_of(PerTypeOptions):
        add_option_flag(tables, f, run_wide=True)
    similarity = parser.add_argument_group(
        "similarity model (PT-M2, PT-ERRANT, CLEME2.0-sim; default model: bert-base-uncased if in the local "
        "Hugging Face cache, else the offline all-MiniLM-L6-v2, with a warning)")
    for f in SIMILARITY_FIELDS:
        add_option_flag(similarity, f, dest_prefix="similarity_", run_wide=True)
    judge = parser.add_argument_group("LLM judge (DSGram, CLEME2.0-llm: available once --judge-base-url is given)")
    for f in JUDGE_FIELDS:
        add_option_flag(judge, f, prefix="judge-", dest_prefix="judge_", run_wide=True)


def run(args: argparse.Namespace) -> int:
    """The command; SIGTERM and SIGINT stop it (workers included) with status 143 / 130 and
    leave ``--out`` as it was."""
    import signal

    from gecscore.leaderboard.processes import Interrupted, stop_on_signals

    try:
        with stop_on_signals((signal.SIGTERM,)):
            return _run(args)
    except KeyboardInterrupt as error:
        signum = error.signum if isinstance(error, Interrupted) else signal.SIGINT
        print(f"gecscore leaderboard: stopped by {signal.Signals(signum).name}; "
              f"{args.out or 'the output'} left as it was", file=sys.stderr)
        return 128 + int(signum)


def _run(args: argparse.Namespace) -> int:
    from gecscore.errors import GecInputError
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.report import check_output_dir, markdown
    from gecscore.leaderboard.systems import discover_systems
    from gecscore.metaeval.human import load_human
    from gecscore.outputs import json_text
    from gecscore.significance.comparison import SignificanceConfig
    from gecscore.warnings_once import with_warnings

    options = run_wide_options(args)
    if args.list_metrics:
        return _list_metrics(options)
    if not args.systems and not args.hyp_m2_dir:
        raise GecInputError("give --systems DIR and/or --hyp-m2-dir DIR")
    if not args.m2 and not args.refset and not args.para:
        raise GecInputError("give the gold as --m2 GOLD.m2, --para GOLD.txt or --refset NAME")
    executor = executor_of(args)
    if args.out:
        check_output_dir(args.out)  # fail now, not after the scoring
    systems = discover_systems(args.systems, args.hyp_m2_dir, args.only)   # before the gold's edits are extracted
    refset = reference_set(args)
    human = load_human(args.human, args.data_dir) if args.human else None
    judgments = load_judgments(args.sentence_judgments, args.data_dir) if args.sentence_judgments else None
    significance = SignificanceConfig(bootstrap=args.significance_samples, randomisation=args.significance_samples,
                                      seed=args.seed)
    board = run_leaderboard(refset, systems, args.metrics, human=human, executor=executor,
                            bootstrap=args.bootstrap, seed=args.seed, options=options, judgments=judgments,
                            ties=args.sentence_ties, baseline=args.baseline, significance=significance,
                            window=args.window, aggregation=args.aggregation,
                            sentence_systems=_sentence_systems(args.sentence_set, systems), alpha=args.alpha,
                            clusters=cluster_options(args), segments=segment_scores(args.human, args.data_dir))
    for name, reason in board.unavailable.items():
        print(f"{name}: {reason}", file=sys.stderr)
    for note in board.undefined_statistics:
        print(f"note: {note}", file=sys.stderr)
    for note in board.cluster_notes:
        print(f"note: {note}", file=sys.stderr)
    if args.out:
        _write_out(board, args.out, plots=not args.no_plots)
    sys.stdout.write(json_text(with_warnings(board.as_dict())) + "\n" if args.json else markdown(board))
    return 0


def _list_metrics(options) -> int:
    """``--list-metrics``: every preset, with why it cannot run now where it cannot."""
    from gecscore.leaderboard.presets import PRESETS
    from gecscore.leaderboard.specs import resolve

    _, unavailable = resolve(None, options)
    for config in PRESETS.values():
        note = f" ({unavailable[config.name]})" if config.name in unavailable else ""
        print(f"{config.name:28} {config.description}{note}")
    return 0


def executor_of(args: argparse.Namespace):
    """Where the cells are scored: ``--scheduler`` a Dask cluster (a malformed or unreachable
    address fails now, before any data is read), else ``--jobs`` local processes (one: this
    process)."""
    from gecscore.errors import GecInputError
    from gecscore.leaderboard.processes import LocalProcesses

    if args.scheduler and args.jobs != 1:
        raise GecInputError("give --jobs (processes here) or --scheduler (a Dask cluster), not both")
    if args.connect_timeout is not None:
        if not args.scheduler:
            raise GecInputError("--connect-timeout is for a Dask cluster: give --scheduler too")
        from gecscore.leaderboard.dask_cluster import check_connect_timeout

        check_connect_timeout(args.connect_timeout)
    if not args.scheduler:
        return LocalProcesses(args.jobs)
    from gecscore.leaderboard.dask_cluster import DEFAULT_CONNECT_TIMEOUT_S, DaskCluster, parse_scheduler, reach_scheduler

    if parse_scheduler(args.scheduler)[0] == "address":
        reach_scheduler(args.scheduler, args.connect_timeout or DEFAULT_CONNECT_TIMEOUT_S)
    return DaskCluster(args.scheduler, args.connect_timeout)


def _write_out(board, out: str, plots: bool) -> None:
    """The files of ``--out`` (plots only where matplotlib is installed), each named on stderr."""
    from gecscore.leaderboard.report import write_leaderboard

    if plots and importlib.util.find_spec("matplotlib") is None:
        print(f"plots skipped: matplotlib is not installed ({install_hint('matplotlib')})", file=sys.stderr)
        plots = False
    for path in write_leaderboard(board, out, plots=plots):
        print(f"wrote {path}", file=sys.stderr)


def run_wide_options(args: argparse.Namespace):
    """The run-wide options of a leaderboard-style command (similarity model, judge, per-type
    tables, language), from its flags."""
    from gecscore.cli.options import options_from_args
    from gecscore.leaderboard.run_wide import RunWide

    return RunWide(similarity=options_from_args(args, SIMILARITY_FIELDS, "similarity_"),
                   judge=options_from_args(args, JUDGE_FIELDS, "judge_"), per_type=args.per_type,
                   text=options_from_args(args, fields_of(LanguageOptions)))


def reference_set(args: argparse.Namespace):
    """The reference set of a leaderboard-style command: ``--para`` (where the command has it),
    else ``--refset`` / ``--m2`` with their options; its notes printed; cut to the lines of
    ``--subset-source`` when given."""
    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import match_lines
    from gecscore.benchdata.refsets import load_refset

    if getattr(args, "para", None):
        from gecscore.lang.profiles import check_lang
        from gecscore.benchdata.refsets import refset_from_para

        refset = refset_from_para(args.para, check_lang(args.lang or "en"))
    else:
        refset = load_refset(args.refset or args.m2, args.data_dir, exclude_unchanged_refs=args.exclude_unchanged_refs,
                             reference_edits=args.reference_edits)
    for note in refset.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.subset_source:
        indices = match_lines(read_lines(args.subset_source), refset.sources, args.subset_source,
                              f"reference set {refset.name}")
        refset = refset.subset(indices)
    return refset


def load_judgments(specs: list[str], data_dir: str | None) -> dict:
    """``seeda`` -> SEEDA-S and SEEDA-E from the data folder; ``NAME=FILE.xml`` -> that file."""
    from pathlib import Path

    from gecscore.benchdata import require
    from gecscore.errors import GecInputError
    from gecscore.metaeval.sentence_level import read_judgments

    judgments = {}
    for spec in specs:
        if spec == "seeda":
            seeda = require(["seeda/judgments_sent.xml"], data_dir) / "seeda"
            judgments["SEEDA-S"] = read_judgments(seeda / "judgments_sent.xml")
            judgments["SEEDA-E"] = read_judgments(seeda / "judgments_edit.xml")
        elif "=" in spec:
            name, path = spec.split("=", 1)
            judgments[name] = read_judgments(Path(path))
        else:
            raise GecInputError(f"--sentence-judgments: expected 'seeda' or NAME=FILE.xml, got {spec!r}")
    return judgments


def _sentence_systems(spec: str | None, systems) -> list[str] | None:
    """The scored systems of SEEDA set ``spec`` (None: every scored system)."""
    from gecscore.metaeval.human import seeda_systems

    return None if spec is None else seeda_systems(spec, [s.name for s in systems])
