"""Input flags shared by the metric commands, and reading them onto the metric seam."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Iterable

from gecscore.cli.numbers import POSITIVE
from gecscore.outputs import json_text
from gecscore.errors import GecInputError

if TYPE_CHECKING:
    from gecscore.io.hypotheses import ExpectedLines


def add_input_arguments(parser: argparse.ArgumentParser, *, reference_free: bool = False) -> None:
    title = ("inputs: --src SRC --hyp HYP" if reference_free else
             "inputs (one gold: --m2, --xml or --src with --ref; the system: --hyp or --hyp-m2)")
    group = parser.add_argument_group(title)
    group.add_argument("--src", metavar="SRC.txt", required=reference_free,
                       help="source, one tokenised sentence per line")
    group.add_argument("--hyp", "-hyp", metavar="HYP.txt", nargs="+", required=reference_free,
                       help="hypothesis, one tokenised sentence per line, or a parallel file (id<TAB>source"
                            "<TAB>prediction, as ChERRANT's); several files score several systems against one "
                            "prepared reference side ('-' reads standard input)")
    if reference_free:
        return
    group.add_argument("--m2", metavar="GOLD.m2", help="gold edits (M2)")
    group.add_argument("--xml", metavar="GOLD.xml", help="I-measure XML gold")
    group.add_argument("--para", metavar="GOLD.txt",
                       help="gold as ChERRANT's parallel file: id<TAB>source<TAB>reference[<TAB>reference...] "
                            "(没有错误 / 无法标注 as ChERRANT reads them; edits by the --lang profile)")
    group.add_argument("--ref", metavar="REF.txt", action="append", default=[],
                       help="a reference file (repeat for several references); edits by ERRANT")
    group.add_argument("--hyp-m2", metavar="HYP.m2", help="hypothesis edits given as M2 (first annotator)")
    group.add_argument("--n-process", type=POSITIVE, default=1,
                       help="spaCy parsing processes for ERRANT extraction (default 1)")


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--per-sentence", metavar="FILE",
                        help="write one JSON record per sentence (JSON Lines) to FILE")


def prepare_gold(args: argparse.Namespace, metric):
    """The metric's prepared reference side from --m2, --xml or --src/--ref (the command's
    output files are checked first: see :func:`check_outputs`)."""
    check_outputs(args)
    from gecscore.io.text import check_line_count, read_lines
    from gecscore.types import GoldCorpus

    if getattr(args, "n_process", 1) != 1:
        from gecscore.lang.profiles import profile_for

        profile_for("en").extractor.n_process = args.n_process
    if not metric.needs_references:
        sources = read_lines(args.src, allow_empty=False)
        return metric.prepare_text(sources)
    given = [name for name in ("m2", "xml", "para", "src") if getattr(args, name, None)]
    if len(given) != 1:
        raise GecInputError("give exactly one gold: --m2 GOLD.m2, --xml GOLD.xml, --para GOLD.txt or --src SRC.txt "
                            "--ref REF.txt ...")
    if args.para:
        return metric.prepare_para(args.para)
    if args.m2:
        from gecscore.io.m2 import read_m2

        return metric.prepare(GoldCorpus(tuple(read_m2(args.m2)), "m2", args.m2))
    if args.xml:
        from gecscore.io.ixml import read_ixml

        return metric.prepare(GoldCorpus(tuple(read_ixml(args.xml)), "xml", args.xml))
    if not args.ref:
        raise GecInputError("--src needs at least one --ref REF.txt")
    sources = read_lines(args.src, allow_empty=False)
    refs = [check_line_count(path, read_lines(path), len(sources), args.src) for path in args.ref]
    return metric.prepare_text(sources, [list(r) for r in zip(*refs)])


def read_systems(args: argparse.Namespace, prepared) -> list[tuple[str, list]]:
    """(name, predictions) of every --hyp file (each checked against the gold's length), or the
    one --hyp-m2 file's targets."""
    hyp_m2 = getattr(args, "hyp_m2", None)
    if hyp_m2 and args.hyp:
        raise GecInputError("give --hyp or --hyp-m2, not both")
    if hyp_m2:
        return [(hyp_m2, read_predictions(args, prepared))]
    if not args.hyp:
        raise GecInputError("give the system output: --hyp HYP.txt")
    if len(set(args.hyp)) < len(args.hyp):
        raise GecInputError("a --hyp file is given twice")
    expected = expected_lines(args, prepared)
    return [(path, hypothesis_lines(path, expected)) for path in args.hyp]


def expected_lines(args: argparse.Namespace, prepared) -> ExpectedLines:
    """What every --hyp file is checked against: the prepared gold's sources, and the ids of a
    --para gold (see :mod:`gecscore.io.hypotheses`)."""
    from gecscore.io.hypotheses import ExpectedLines

    ids = None
    if getattr(args, "para", None):
        from gecscore.io.para import read_para

        ids = read_para(args.para).ids
    return ExpectedLines(tuple(prepared.gold.sources), ids, "the source" if args.src else "the gold")


def hypothesis_lines(path: str, expected: ExpectedLines) -> list[str]:
    """The predictions of a --hyp file: plain lines, or a parallel file's prediction column,
    read by the one hypothesis reader (:func:`gecscore.io.hypotheses.read_hypotheses`)."""
    from gecscore.io.hypotheses import read_hypotheses

    return list(read_hypotheses(path, expected).predictions)


def read_predictions(args: argparse.Namespace, prepared) -> list:
    """The one system's --hyp lines (checked against the gold's length) or --hyp-m2 targets."""
    hyp_m2 = getattr(args, "hyp_m2", None)
    if hyp_m2 and args.hyp:
        raise GecInputError("give --hyp or --hyp-m2, not both")
    if hyp_m2:
        from gecscore.io.m2 import read_m2

        system = read_m2(hyp_m2)
        if len(system) != len(prepared):
            raise GecInputError(f"{len(system)} sentences but the gold has {len(prepared)}", hyp_m2)
        for number, (gold, hyp) in enumerate(zip(prepared.gold.sentences, system), start=1):
            if gold.source != hyp.source:
                raise GecInputError(f"sentence {number}: the source differs from the gold's", f"{hyp_m2}:{hyp.line}")
        return [hyp.targets()[0] for hyp in system]
    if not args.hyp:
        raise GecInputError("give the system output: --hyp HYP.txt" + ("" if hyp_m2 is None else " or --hyp-m2 HYP.m2"))
    if len(args.hyp) != 1:
        raise GecInputError("this command scores one system: give one --hyp file")
    return hypothesis_lines(args.hyp[0], expected_lines(args, prepared))


def write_json_lines(path: str, records: Iterable[dict]) -> None:
    """Write ``records`` as JSON Lines through the output helper (a bad path is a one-line error)."""
    from gecscore.outputs import open_output

    with open_output(path, "w", "--per-sentence") as handle:
        for record in records:
            handle.write(json_text(record, ensure_ascii=False) + "\n")


#: the input files the commands take (by Python name; a name or a file for --m2 of the leaderboard,
#: --human), and their input folders, checked before any work (see check_inputs)
INPUT_FILE_OPTIONS = ("src", "ref", "m2", "xml", "para", "hyp", "hyp_m2", "subset_source", "input", "file", "human",
                      "replay", "import_batch", "judge_replay", "judge_import_batch")
INPUT_FOLDER_OPTIONS = ("systems", "hyp_m2_dir")


def given_paths(value) -> list[str]:
    """The paths of an option's value: one, a list of them, or none; ``-`` (stdin) left out."""
    values = [value] if isinstance(value, str) else list(value or ())
    return [path for path in values if isinstance(path, str) and path and path != "-"]


def check_inputs(args: argparse.Namespace) -> None:
    """Refuse now, naming it, every input path of the command that is there but cannot be read
    as one: a file option naming a FIFO, a socket, a device, a folder, a symbolic link loop, a
    broken link or a file this process may not read; a folder option naming anything but a
    folder. Looked at with ``os.stat`` (a regular file is opened and closed, nothing read), so
    nothing can wait on a FIFO and no device is opened; the readers check again when they open
    (:mod:`gecscore.io.user_files`). A path that is not there is left to the command: it may be a
    name (``--human gjg15``, ``--m2 conll14``), and a reader says "no such file" itself."""
    from gecscore.io.user_files import check_readable, folder_problem

    files = [path for option in INPUT_FILE_OPTIONS for path in given_paths(getattr(args, option, None))]
    for spec in getattr(args, "sentence_judgments", None) or ():   # NAME=FILE.xml, or seeda
        if isinstance(spec, str) and "=" in spec:
            files.append(spec.split("=", 1)[1])
    for path in files:
        if os.path.lexists(path):
            check_readable(path)
    for option in INPUT_FOLDER_OPTIONS:
        for path in given_paths(getattr(args, option, None)):
            problem = folder_problem(path) if os.path.lexists(path) else None
            if problem is not None:
                raise GecInputError(problem, path)


# the file outputs a scoring command may take, checked before any work (see check_outputs)
OUTPUT_FILE_OPTIONS = ("per_sentence", "per_edit", "transcript", "export_batch")


def check_outputs(args: argparse.Namespace) -> None:
    """Check every output file the command was given before the scoring starts, so a path that
    is a folder or lies under a file fails at once, naming the option, not after minutes."""
    from gecscore.outputs import check_output_file

    for option in OUTPUT_FILE_OPTIONS:
        path = getattr(args, option, None)
        if path:
            check_output_file(path, "--" + option.replace("_", "-"))
