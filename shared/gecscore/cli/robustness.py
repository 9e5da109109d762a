"""``gecscore robustness``: the rank adversarial and degenerate systems take among real ones.

The attackers are generated from the reference set's sources (:mod:`gecscore.robustness.attacks`)
and, on CoNLL-2014 or a subset of it (SEEDA's), read from the paper's published attacks; every
configuration scores them beside the real systems (:mod:`gecscore.robustness.measure`).

``--out DIR`` holds ``robustness.md``, ``robustness.json`` and ``attacks/NAME.txt``; a stamp
file lists them, and a later run into the same folder overwrites or removes those files only.
A folder holding another file of one of these names (not written by this command) is refused
before any scoring.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gecscore.cli.leaderboard import add_run_wide_arguments, reference_set, run_wide_options
from gecscore.cli.numbers import POSITIVE, SEED
from gecscore.errors import GecInputError

STAMP = ".gecscore-robustness"
OUTPUT_FILES = ("robustness.md", "robustness.json")


def register(subparsers) -> None:
    help_text = "rank adversarial and degenerate systems (attacks) among real ones, per metric configuration"
    parser = subparsers.add_parser("robustness", help=help_text, description=help_text)
    parser.add_argument("--systems", metavar="DIR", required=True, help="the real systems, one DIR/<NAME>.txt each")
    gold = parser.add_mutually_exclusive_group()
    gold.add_argument("--m2", metavar="GOLD.m2", help="gold edits (M2)")
    gold.add_argument("--refset", help="a named reference set: conll14, conll14-errant, bn10gec, e-minimal, "
                                       "e-fluency, ne-minimal, ne-fluency (read from --data-dir)")
    parser.add_argument("--exclude-unchanged-refs", action="store_true",
                        help="drop references identical to the source (kept if all are)")
    parser.add_argument("--reference-edits", choices=("m2", "errant"),
                        help="reference edits as given, or re-extracted by ERRANT (as the leaderboard)")
    parser.add_argument("--subset-source", metavar="SRC.txt",
                        help="score only the gold sentences whose source matches these lines "
                             "(e.g. SEEDA's outputs/subset/INPUT.txt)")
    parser.add_argument("--attacks", nargs="+", metavar="NAME",
                        help="attackers: generated ones (copy-source, fixed-sentence, frequent-correction, "
                             "delete-punctuation, repeat-ngrams, prompt-injection), published ones (published-some, "
                             "published-scribendi, published-impara, published-llmsent: CoNLL-2014 sources only), "
                             "'generated' or 'published' (default: every generated one, and the published ones "
                             "when the data has them and the sources are CoNLL-2014's)")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the generated attacks (default 0)")
    parser.add_argument("--metrics", "--metric", nargs="+", metavar="NAME",
                        help="configurations, families, globs or NAME:key=value specs, as the leaderboard "
                             "takes them (default: every available one; gecscore leaderboard --list-metrics)")
    parser.add_argument("--only", nargs="+", metavar="SYSTEM", help="only these real systems")
    parser.add_argument("--human", help="a human ranking (as the leaderboard's --human: gjg15, seeda-all, ... or a "
                                        "TSV) giving the human-best real system")
    parser.add_argument("--human-ranking", metavar="NAME",
                        help="which of --human's rankings names the human-best system (default: its first, "
                             "e.g. seeda-S-EW)")
    parser.add_argument("--human-best", metavar="SYSTEM", help="the human-best real system, named directly")
    parser.add_argument("--data-dir", help="evaluation data folder (default $GEC_DATA, else the per-user data folder; "
                                           "see gecscore data)")
    parser.add_argument("--out", metavar="DIR", help="write robustness.md, robustness.json and attacks/NAME.txt here")
    parser.add_argument("--jobs", type=POSITIVE, default=1, help="worker processes (systems in parallel)")
    add_run_wide_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.set_defaults(run=run)


def choose_attacks(requested: list[str] | None, aligned: bool, available: list[str]) -> tuple[list[str], list[str]]:
    """``(generated, published)`` attack names. ``aligned``: the sources are CoNLL-2014's;
    ``available``: the published attacks the data folder holds."""
    from gecscore.robustness.attacks import GENERATORS, PUBLISHED

    if not requested:
        return list(GENERATORS), (available if aligned else [])
    names: list[str] = []
    for name in requested:
        group = (list(GENERATORS) if name == "generated" else list(PUBLISHED) if name == "published" else [name])
        names += [n for n in group if n not in names]
    unknown = [n for n in names if n not in GENERATORS and n not in PUBLISHED]
    if unknown:
        raise GecInputError(f"unknown attack(s) {', '.join(unknown)}; expected: "
                            f"{', '.join([*GENERATORS, *PUBLISHED])}, generated or published")
    published = [n for n in names if n in PUBLISHED]
    if published and not aligned:
        raise GecInputError(f"{', '.join(published)}: the published attacks are for CoNLL-2014's sources "
                            "(--refset conll14, possibly with --subset-source); these sources differ")
    missing = [n for n in published if n not in available]
    if missing:
        raise GecInputError(f"{', '.join(missing)}: not in the data folder's attacks/ (set GEC_DATA or --data-dir)")
    return [n for n in names if n in GENERATORS], published


def check_out(out: str, attackers: list[str]) -> tuple[Path, set[str]]:
    """The output folder and the files a previous run of this command wrote there; refuses a
    folder where a file this run would write exists but was not written by this command."""
    from gecscore.outputs import check_output_folder, read_manifest

    folder = check_output_folder(out, "the robustness folder")
    previous = read_manifest(folder / STAMP) or set()
    planned = [*OUTPUT_FILES, *(f"attacks/{name}.txt" for name in attackers)]
    foreign = [p for p in planned if (folder / p).exists() and p not in previous]
    if foreign:
        raise GecInputError(f"refusing to overwrite file(s) this command did not write ({', '.join(foreign[:5])}); "
                            "move them away or choose another output folder", str(folder))
    return folder, previous


def write_out(folder: Path, previous: set[str], result, predictions: dict[str, list[str]]) -> list[Path]:
    """Write the result and the attack system files; remove the files the previous run wrote
    that this one did not (and nothing else); list what was written in the stamp."""
    from gecscore.robustness.attacks import write_systems
    from gecscore.robustness.measure import markdown
    from gecscore.outputs import json_text, listed_text, write_output_text
    from gecscore.warnings_once import with_warnings

    written = [write_output_text(folder / "robustness.md", markdown(result), "robustness table"),
               write_output_text(folder / "robustness.json", json_text(with_warnings(result.as_dict()), indent=1) + "\n",
                                 "robustness JSON")]
    written += write_systems(predictions, folder / "attacks")
    names = {p.relative_to(folder).as_posix() for p in written}
    for stale in sorted(previous - names):
        path = folder / stale
        if path.is_file() and not path.is_symlink():
            path.unlink()
    (folder / STAMP).write_text(listed_text("written by gecscore robustness; a later run overwrites or removes these "
                                            "only", names), encoding="utf-8")
    return written


def run(args: argparse.Namespace) -> int:
    import tempfile

    from gecscore.robustness import attacks
    from gecscore.metaeval.human import load_human
    from gecscore.leaderboard.processes import LocalProcesses
    from gecscore.leaderboard.systems import SystemSource, discover_systems
    from gecscore.robustness.measure import human_best_system, markdown, run_robustness
    from gecscore.outputs import json_text
    from gecscore.warnings_once import with_warnings

    if not args.m2 and not args.refset:
        raise GecInputError("give the gold as --m2 GOLD.m2 or --refset NAME")
    if args.human_best and args.human:
        raise GecInputError("give --human (a ranking) or --human-best (a system), not both")
    if args.human_ranking and not args.human:
        raise GecInputError("--human-ranking picks one of --human's rankings: give --human too")
    options = run_wide_options(args)
    real = discover_systems(args.systems, None, args.only)   # before the gold's edits are extracted
    refset = reference_set(args)
    available = attacks.published_available(args.data_dir)
    aligned = bool(available) and attacks.aligned_with_conll14(refset.sources, refset.indices, args.data_dir)
    generated, published = choose_attacks(args.attacks, aligned, available)
    if available and not aligned and not args.attacks:
        print("note: the published attacks are left out: they are for CoNLL-2014's sources", file=sys.stderr)
    names = [*generated, *published]
    folder, previous = check_out(args.out, names) if args.out else (None, set())
    human_ranking, human_best = None, args.human_best
    if args.human:
        human_ranking, human_best = human_best_system(load_human(args.human, args.data_dir), [s.name for s in real],
                                                      args.human_ranking)
    predictions = {**attacks.generate(generated, refset.sources, args.seed),
                   **attacks.published_attacks(published, refset.sources, refset.indices, args.data_dir)}
    with tempfile.TemporaryDirectory(prefix="gecscore-attacks-") as tmp:
        paths = attacks.write_systems(predictions, tmp)
        attackers = [SystemSource(path.stem, path) for path in paths]
        result = run_robustness(refset, real, attackers, args.metrics, human_best=human_best,
                                human_ranking=human_ranking, executor=LocalProcesses(args.jobs),
                                progress=not args.quiet,
                                options=options, attack_descriptions={n: attacks.describe(n) for n in names})
    for name, reason in result.unavailable:
        print(f"{name}: {reason}", file=sys.stderr)
    if folder is not None:
        for path in write_out(folder, previous, result, predictions):
            print(f"wrote {path}", file=sys.stderr)
    sys.stdout.write(json_text(with_warnings(result.as_dict())) + "\n" if args.json else markdown(result))
    return 0
