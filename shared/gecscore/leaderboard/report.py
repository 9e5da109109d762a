"""Write a leaderboard: CSV and JSON tables, a Markdown page and one scatter plot per metric.

The output folder holds one whole run: the files are written to a temporary sibling folder
(``.<name>.*.partial``) and swapped in at the end (an atomic exchange where the system has
one, else two renames), so an interrupted run leaves the previous run in place, never a mix.
A stamp (``.gecscore-leaderboard``) lists every file the run wrote. An existing folder is
replaced only when it holds, at any depth, nothing but the files its stamp lists (the rule of
:mod:`gecscore.outputs` that ``publish`` follows too), and only those files are deleted: a
user's ``plots/notes.txt`` makes the run refuse, naming it. :func:`check_output_dir` says so
(and whether the place is writable) before any scoring.
"""
from __future__ import annotations

import csv
import ctypes
import ctypes.util
import json
import math
import os
import shutil
import tempfile
from pathlib import Path

from gecscore.errors import GecInputError
from gecscore.outputs import json_text
from gecscore.result_text import number
from gecscore.warnings_once import with_warnings

from gecscore.leaderboard.board import Leaderboard
from gecscore.leaderboard.cluster_report import (cluster_notes_markdown, metric_clusters_markdown,
                                                 segment_level_markdown, system_clusters_markdown)


def _fmt(value: float | None, digits: int = 4) -> str:
    return number(value, f".{digits}f")


OUTPUT_NAMES = frozenset({"scores.csv", "leaderboard.json", "leaderboard.md", "correlations.csv",
                          "intervals.csv", "pairwise.csv", "per_type.csv"})
STAMP = ".gecscore-leaderboard"


def written_files(out: Path) -> set[str]:
    """The files (relative, POSIX) a previous run wrote into ``out``: its stamp's list; for a
    folder without one (an older gecscore), the top-level files a leaderboard writes and the
    plots of the configurations its ``leaderboard.json`` names."""
    from gecscore.outputs import read_manifest

    listed = read_manifest(out / STAMP)
    if listed is not None:
        return listed | {STAMP}
    written = {name for name in OUTPUT_NAMES if (out / name).is_file()}
    try:
        configs = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))["configs"]
    except (OSError, ValueError, KeyError, TypeError):
        configs = {}
    return written | {f"plots/{prefix}{config}.png" for config in configs for prefix in ("", "pairwise_")}


def check_output_dir(out_dir: str | Path) -> Path:
    """``out_dir`` as an absolute path, or a GecInputError when a leaderboard cannot be written
    there: a file is in the way, the folder holds files a leaderboard does not write (they
    would be lost), or its parent cannot be created or written (probed by making and removing
    a temporary folder there)."""
    from gecscore.outputs import check_output_folder_parent

    out = Path(out_dir).absolute()
    check_output_folder_parent(out, "the leaderboard folder")   # names a file in the way
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise GecInputError("the output must be a folder (a file or link is in the way)", str(out))
    if out.is_dir():
        from gecscore.outputs import foreign_entries

        foreign = foreign_entries(out, written_files(out))
        if foreign:
            more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
            raise GecInputError(f"refusing to replace a folder holding files a leaderboard did not write "
                                f"({', '.join(foreign[:5])}{more}); move them away or choose another output "
                                f"folder", str(out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".probe", dir=out.parent))
    except OSError as error:
        raise GecInputError(f"cannot write the output folder here: {error.strerror or error}", str(out)) from None
    return out


def write_leaderboard(board: Leaderboard, out_dir: str | Path, plots: bool = True) -> list[Path]:
    """Write ``scores.csv``, ``leaderboard.json``, ``leaderboard.md`` and, with human scores,
    ``correlations.csv`` and ``plots/<config>.png``; with a bootstrap, ``intervals.csv`` and
    ``pairwise.csv``. Returns the paths written (under ``out_dir``). The folder is replaced
    as a whole (see the module docstring)."""
    out = check_output_dir(out_dir)
    from gecscore.outputs import manifest_text, remove_stale_staging

    remove_stale_staging(out, ("partial", "old"))   # what a killed run left beside it
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent))
    ours = staging.stat().st_ino   # after an exchange this path holds the previous run: not ours
    try:
        written = _write_files(board, staging, plots)
        (staging / STAMP).write_text(manifest_text("written by gecscore leaderboard; replaced by the next run into "
                                                   "this folder", staging), encoding="utf-8")
        staging.chmod(0o755)
        replace_folder(staging, out)
    finally:
        if staging.exists() and staging.stat().st_ino == ours:
            shutil.rmtree(staging, ignore_errors=True)
    return [out / path.relative_to(staging) for path in written]


def _write_files(board: Leaderboard, out: Path, plots: bool) -> list[Path]:
    written = [_write_scores_csv(board, out / "scores.csv")]
    path = out / "leaderboard.json"
    # with the command line's warnings of the run, when there were any (gecscore.warnings_once)
    path.write_text(json_text(with_warnings(board.as_dict()), indent=1) + "\n", encoding="utf-8")
    written.append(path)
    if board.correlations:
        written.append(_write_correlations_csv(board, out / "correlations.csv"))
        if plots:
            written += [scatter_plot(board, config.name, out / "plots" / f"{config.name}.png")
                        for config in board.configs]
            written += [pairwise_plot(board, config.name, out / "plots" / f"pairwise_{config.name}.png")
                        for config in board.configs if board.pairwise.get(config.name)]
            written += [window_plot(board, human, out / "plots" / window_plot_name(human))
                        for human in board.human if _window_rows(board, human)]
    if board.bootstrap:
        written += _write_bootstrap_csv(board, out)
    if any("per_type" in board.scores[s][c.name].details for s in board.systems for c in board.configs):
        written.append(_write_per_type_csv(board, out / "per_type.csv"))
    path = out / "leaderboard.md"
    path.write_text(markdown(board, plots_dir="plots" if plots and board.correlations else None), encoding="utf-8")
    written.append(path)
    return written


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False where unsupported."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def replace_folder(new: Path, target: Path) -> None:
    """Put the folder ``new`` at ``target``; a previous ``target`` is swapped out and its
    files deleted, only those the previous run wrote (:func:`gecscore.outputs.remove_written`).

    With an atomic exchange ``target`` is always one whole folder; without it there is a
    moment with no ``target`` (the previous one is then at ``.<name>.*.old``), never a mix."""
    from gecscore.outputs import remove_written

    if not target.exists():
        new.rename(target)
        return
    written = written_files(target)
    if _exchange(new, target):
        remove_written(new, written)  # ``new`` is now the previous run
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    old.rmdir()
    target.rename(old)
    new.rename(target)
    remove_written(old, written)


def _write_scores_csv(board: Leaderboard, path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", *(c.name for c in board.configs)])
        for system in board.systems:
            writer.writerow([system, *(repr(board.scores[system][c.name].score) for c in board.configs)])
    return path


def per_type_rows(board: Leaderboard) -> list[dict]:
    """One row per (configuration, system, error type): its counts and ratios."""
    rows = []
    for config in board.configs:
        for system in board.systems:
            table = board.scores[system][config.name].details.get("per_type")
            if table:
                for name, cells in table["types"].items():
                    rows.append({"config": config.name, "system": system, "granularity": table["granularity"],
                                 "type": name, **cells})
    return rows


def _write_per_type_csv(board: Leaderboard, path: Path) -> Path:
    rows = per_type_rows(board)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, columns, restval="")
        writer.writeheader()
        writer.writerows(rows)
    return path


def _write_correlations_csv(board: Leaderboard, path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["config", "human", "pearson", "spearman", "n", "aggregation", "pairs_agree",
                         "pairs_disagree", "pairs_metric_tie", "pairs_human_tie"])
        for config, by_human in board.correlations.items():
            aggregation = board.aggregation if config in board.aggregated else "mean"
            for human, corr in by_human.items():
                pairs = board.pairwise.get(config, {}).get(human)
                counts = list(pairs.counts().values()) if pairs else ["", "", "", ""]
                writer.writerow([config, human, repr(corr.pearson), repr(corr.spearman), corr.n, aggregation,
                                 *counts])
    return path


def _write_bootstrap_csv(board: Leaderboard, out: Path) -> list[Path]:
    intervals, pairwise = out / "intervals.csv", out / "pairwise.csv"
    with intervals.open("w", newline="", encoding="utf-8") as h1, pairwise.open("w", newline="", encoding="utf-8") as h2:
        w1, w2 = csv.writer(h1), csv.writer(h2)
        w1.writerow(["config", "system", "score", "low", "high"])
        w2.writerow(["config", "a", "b", "difference", "low", "high", "p_not_better"])
        for config, result in board.bootstrap.items():
            for system, iv in result.intervals.items():
                w1.writerow([config, system, repr(iv.estimate), repr(iv.low), repr(iv.high)])
            for d in result.differences:
                w2.writerow([config, d.a, d.b, repr(d.interval.estimate), repr(d.interval.low),
                             repr(d.interval.high), repr(d.p_not_better)])
    return [intervals, pairwise]


def markdown(board: Leaderboard, plots_dir: str | None = None) -> str:
    """The page: the scores, then each section the run has (correlations, metric comparisons,
    undefined statistics, bootstrap, sentence level, segment level, metrics in significance
    clusters, windows, baseline, systems in significance clusters, what the clusters could not
    compute, per type, unavailable configurations), then the signatures. Systems are sorted by
    the first configuration's score (best first; an undefined score last)."""
    order = sorted(board.systems, key=lambda s: -_sortable(board.scores[s][board.configs[0].name].score))
    lines = scores_markdown(board, order)
    lines += correlations_markdown(board, plots_dir)
    if board.metric_significance:
        lines += metric_significance_markdown(board)
    lines += undefined_markdown(board)
    lines += bootstrap_markdown(board, order)
    lines += sentence_level_markdown(board)
    lines += segment_level_markdown(board)
    lines += metric_clusters_markdown(board)
    lines += windows_markdown(board, plots_dir)
    lines += baseline_markdown(board)
    lines += system_clusters_markdown(board, order)
    lines += cluster_notes_markdown(board)
    lines += per_type_markdown(board, order)
    if board.unavailable:
        lines += ["", "## Not available", ""]
        lines += [f"- `{name}`: {reason}" for name, reason in board.unavailable.items()]
    lines += ["", "## Signatures", ""]
    if board.systems:
        lines += [f"- `{c.name}`: `{board.scores[board.systems[0]][c.name].signature}`" for c in board.configs]
    return "\n".join(lines) + "\n"


def scores_markdown(board: Leaderboard, order: list[str]) -> list[str]:
    """The title, what was scored and how, and the table of scores (systems in ``order``)."""
    names = [c.name for c in board.configs]
    options = ", ".join(f"{k}={v}" for k, v in board.refset_options.items())
    lines = [f"# Leaderboard on {board.refset}", "",
             f"{board.n_sentences} sentences; {options}. Sorted by `{names[0]}`. "
             f"Scored in {board.wall_seconds:.1f} s.{_aggregation_note(board)}", "",
             "| system | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for system in order:
        lines.append(f"| {system} | " + " | ".join(_fmt(board.scores[system][n].score) for n in names) + " |")
    return lines


def correlations_markdown(board: Leaderboard, plots_dir: str | None) -> list[str]:
    """Pearson r and Spearman rho with each human ranking, the system pairs ordered as by the
    humans, and the plots' links."""
    if not board.correlations:
        return []
    names = [c.name for c in board.configs]
    humans = list(board.human)
    lines = ["", "## Correlation with human rankings", "",
             "| metric | " + " | ".join(f"{h} r | {h} rho" for h in humans) + " |",
             "|---" * (2 * len(humans) + 1) + "|"]
    for name in names:
        cells = []
        for h in humans:
            corr = board.correlations[name][h]
            cells += [_fmt(corr.pearson, 3), _fmt(corr.spearman, 3)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if board.pairwise:
        lines += ["", "System pairs ordered as by humans (agree / disagree / metric ties; human ties left out):",
                  "", "| metric | " + " | ".join(humans) + " |", "|---" * (len(humans) + 1) + "|"]
        for name in names:
            counts = [board.pairwise[name][h].counts() for h in humans]
            lines.append(f"| {name} | " + " | ".join(f"{c['agree']} / {c['disagree']} / {c['metric-tie']}"
                                                     for c in counts) + " |")
    if plots_dir:
        lines += ["", "Scatter plots: " + ", ".join(f"[{n}]({plots_dir}/{n}.png)" for n in names)]
        lines += ["", "Pairwise plots: " + ", ".join(f"[{n}]({plots_dir}/pairwise_{n}.png)" for n in names
                                                     if board.pairwise.get(n))]
    return lines


def undefined_markdown(board: Leaderboard) -> list[str]:
    """What could not be computed, one sentence each."""
    if not board.undefined_statistics:
        return []
    return ["", "## Undefined statistics", "", "Shown as `undefined` above (null in `leaderboard.json`):", "",
            *(f"- {note}" for note in board.undefined_statistics)]


def bootstrap_markdown(board: Leaderboard, order: list[str]) -> list[str]:
    """Each system's bootstrap interval per configuration."""
    if not board.bootstrap:
        return []
    names = [c.name for c in board.configs]
    opts = board.bootstrap_options
    lines = ["", f"## Paired bootstrap ({opts['resamples']} resamples over sentences, seed {opts['seed']}, "
                 f"{opts['confidence']:.0%} intervals)", "",
             "| system | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for system in order:
        cells = []
        for n in names:
            iv = board.bootstrap.get(n) and board.bootstrap[n].intervals.get(system)
            cells.append(f"{_fmt(iv.estimate)} [{_fmt(iv.low)}, {_fmt(iv.high)}]" if iv else "-")
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    return lines + ["", "Pairwise differences are in `pairwise.csv` and `leaderboard.json`."]


def sentence_level_markdown(board: Leaderboard) -> list[str]:
    """Pairwise accuracy and Kendall's tau of the sentence scores with each set of judgments."""
    if not board.sentence_level:
        return []
    sets = list(next(iter(board.sentence_level.values())))
    lines = ["", f"## Sentence level (pairwise accuracy / Kendall's tau; metric ties {board.sentence_ties})", "",
             "| metric | " + " | ".join(f"{n} Acc | {n} tau" for n in sets) + " | pairs |",
             "|---" * (2 * len(sets) + 2) + "|"]
    for name, by_set in board.sentence_level.items():
        cells = []
        for n in sets:
            cells += [_fmt(by_set[n].accuracy, 3), _fmt(by_set[n].kendall, 3)]
        pairs = " / ".join(str(by_set[n].pairs) for n in sets)
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {pairs} |")
    return lines


def windows_markdown(board: Leaderboard, plots_dir: str | None) -> list[str]:
    """SEEDA's window analysis per human ranking (r / rho per window, best first)."""
    lines: list[str] = []
    for human in board.human:
        rows = _window_rows(board, human)
        if not rows:
            continue
        size = len(rows[0][1][0].systems)
        lines += ["", f"## Windows of {human} (r / rho over {size} systems consecutive in the human ranking, "
                      "best first)", "",
                  "| metric | " + " | ".join(f"ranks {w.first}-{w.first + size - 1}" for w in rows[0][1]) + " |",
                  "|---" * (len(rows[0][1]) + 1) + "|"]
        lines += [f"| {n} | " + " | ".join(f"{_fmt(w.pearson, 3)} / {_fmt(w.spearman, 3)}" for w in ws) + " |"
                  for n, ws in rows]
        if plots_dir:
            lines += ["", f"Window plot: [{window_plot_name(human)}]({plots_dir}/{window_plot_name(human)})"]
    return lines


def baseline_markdown(board: Leaderboard) -> list[str]:
    """Every system against the baseline: delta, bootstrap interval and both p-values."""
    if not board.significance:
        return []
    opts = board.significance_options
    lines = ["", f"## Against {opts['baseline']} (paired bootstrap, {opts['bootstrap']} resamples, "
                 f"{opts['confidence']:.0%} interval of the difference; approximate randomisation, "
                 f"{opts['randomisation']} trials; seed {opts['seed']})", "",
             "| metric | system | score | delta | interval | p (bootstrap) | p (randomisation) |",
             "|---|---|---|---|---|---|---|"]
    for name, comparisons in board.significance.items():
        for c in comparisons:
            interval = f"[{_fmt(c.low)}, {_fmt(c.high)}]" if c.low is not None else "-"
            lines.append(f"| {name} | {c.system} | {_fmt(c.score_b)} | {number(c.delta, '+.4f')} | {interval} | "
                         f"{_fmt(c.p_bootstrap, 3)} | {_fmt(c.p_randomisation, 3)} |")
    return lines


def per_type_markdown(board: Leaderboard, order: list[str]) -> list[str]:
    """Per configuration with per-type tables: F (or CLEME2.0's score) per error type and system."""
    per_type = per_type_rows(board)
    if not per_type:
        return []
    lines = ["", f"## Per error type ({per_type[0]['granularity']}; F, or CLEME2.0's score, per type; "
                 "counts in `per_type.csv`)", ""]
    for name in [c.name for c in board.configs]:
        rows = [r for r in per_type if r["config"] == name]
        if not rows:
            continue
        key = "f" if "f" in rows[0] else "score"
        types = sorted({r["type"] for r in rows})
        cell = {(r["system"], r["type"]): r[key] for r in rows}
        lines += [f"`{name}`:", "", "| type | " + " | ".join(order) + " |", "|---" * (len(order) + 1) + "|"]
        lines += [f"| {t} | " + " | ".join(_fmt(cell[(s, t)]) if (s, t) in cell else "-" for s in order) + " |"
                  for t in types]
        lines.append("")
    return lines


def metric_significance_markdown(board: Leaderboard) -> list[str]:
    """Per human ranking: the metrics by Pearson r (best first) with their clusters, and the
    matrices of Williams' p-values (Pearson, Spearman) between every pair."""
    lines = []
    for human, result in board.metric_significance.items():
        r, rho = result.correlations["pearson"], result.correlations["spearman"]
        order = sorted(result.metrics, key=lambda m: -_sortable(r[m]))
        lines += ["", f"## Metrics compared on {human} (Williams' test, {result.alternative} p, "
                      f"alpha {result.alpha:g}, {result.n} systems)", "",
                  "Clusters: 1 is the best; a metric starts a new cluster when it is significantly worse than "
                  "the best metric of the current one.", "",
                  "| metric | r | cluster | rho | cluster |", "|---|---|---|---|---|"]
        cluster = lambda c, m: "-" if result.clusters[c][m] is None else str(result.clusters[c][m])
        lines += [f"| {m} | {_fmt(r[m], 3)} | {cluster('pearson', m)} | {_fmt(rho[m], 3)} | "
                  f"{cluster('spearman', m)} |" for m in order]
        for coefficient in ("pearson", "spearman"):
            lines += ["", f"Williams' p ({coefficient}):", "",
                      "| | " + " | ".join(order) + " |", "|---" * (len(order) + 1) + "|"]
            lines += [f"| {a} | " + " | ".join("-" if a == b else _fmt(result.p_value(coefficient, a, b), 4)
                                               for b in order) + " |" for a in order]
        if result.intervals:
            lines += ["", "Bootstrap intervals of the correlations are in `leaderboard.json`."]
    return lines


def _aggregation_note(board: Leaderboard) -> str:
    """The sentence of the page that says how the system scores were made."""
    if board.aggregation == "mean":
        return " Aggregation: mean (each configuration's own system score)."
    if len(board.systems) < 2:   # nothing to compare: say so, not that no configuration could be
        return (f" Aggregation: {board.aggregation} asked, but it compares systems and this run has "
                f"{len(board.systems)}: each configuration keeps its own system score.")
    changed = ", ".join(f"`{c}`" for c in board.aggregated) or "none (no configuration has sentence scores)"
    return (f" Aggregation: {board.aggregation} of the sentence-level comparisons (Goto et al. 2025) for "
            f"{changed}; the others keep their own system score.")


def _sortable(value: float) -> float:
    return -math.inf if math.isnan(value) else value


def scatter_plot(board: Leaderboard, config: str, path: str | Path) -> Path:
    """Metric score (x) against each human ranking (one panel each), points labelled by system."""
    from gecscore.extras import require

    matplotlib = require("matplotlib", "the leaderboard's scatter plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    humans = list(board.human.values())
    fig, axes = plt.subplots(1, len(humans), figsize=(4.2 * len(humans), 3.8), squeeze=False)
    column = board.column(config)
    for ax, ranking in zip(axes[0], humans):
        systems = [s for s in ranking.systems if s in column]
        xs = [column[s] for s in systems]
        ys = [ranking.scores[s] for s in systems]
        ax.scatter(xs, ys, s=18)
        for s, x, y in zip(systems, xs, ys):
            ax.annotate(s, (x, y), textcoords="offset points", xytext=(3, 3), fontsize=7)
        corr = board.correlations[config][ranking.name]
        ax.set_title(f"{ranking.name}: r={_fmt(corr.pearson, 3)}, rho={_fmt(corr.spearman, 3)}", fontsize=9)
        ax.set_xlabel(config, fontsize=8)
        ax.set_ylabel(ranking.name, fontsize=8)
        ax.tick_params(labelsize=7)
    fig.suptitle(f"{config} on {board.refset}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _window_rows(board: Leaderboard, human: str) -> list:
    """(configuration, its windows) on ``human``, for the configurations that have them."""
    return [(name, by_h[human]) for name, by_h in board.windows.items() if by_h.get(human)]


def window_plot_name(human: str) -> str:
    return "windows_" + "".join(c if c.isalnum() or c in "-_+" else "_" for c in human) + ".png"


def window_plot(board: Leaderboard, human: str, path: str | Path) -> Path:
    """The window analysis on one human ranking (Kobayashi et al. 2024, SEEDA): for each
    configuration, Pearson r (left) and Spearman rho (right) over every window of consecutive
    systems in the human order, against the window's first rank (1 = the best systems). A line
    low on the left shows a metric that cannot separate the best systems, however well it
    correlates over all of them."""
    from gecscore.extras import require

    matplotlib = require("matplotlib", "the leaderboard's window plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = _window_rows(board, human)
    size = len(rows[0][1][0].systems)
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.8), sharey=True)
    for ax, coefficient in zip(axes, ("pearson", "spearman")):
        for name, windows in rows:
            ax.plot([w.first for w in windows], [getattr(w, coefficient) for w in windows], marker="o",
                    markersize=3, linewidth=1, label=name)
        ax.axhline(0, color="#999999", linewidth=0.6)
        ax.set_xticks([w.first for w in rows[0][1]])
        ax.set_xlabel(f"first human rank of the window ({size} systems)", fontsize=8)
        ax.set_title("Pearson r" if coefficient == "pearson" else "Spearman rho", fontsize=9)
        ax.tick_params(labelsize=7)
    axes[0].set_ylim(-1.05, 1.05)
    axes[1].legend(fontsize=6, loc="lower left", frameon=False)
    fig.suptitle(f"Windows of {human} on {board.refset} (best systems on the left)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


#: colour of each verdict of :class:`gecscore.metaeval.system_pairs.PairwiseSystems`
PAIR_COLOURS = {"agree": "#2e8b57", "disagree": "#c0392b", "metric-tie": "#b0b0b0", "human-tie": "#f2f2f2"}


def pairwise_plot(board: Leaderboard, config: str, path: str | Path) -> Path:
    """One matrix per human ranking: systems in human order (best first) on both axes, each
    pair coloured by whether the metric orders it as the humans do (green agree, red disagree,
    grey metric tie, light human tie): where a correlation hides which systems are swapped."""
    from gecscore.extras import require

    matplotlib = require("matplotlib", "the leaderboard's pairwise plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    panels = list(board.pairwise[config].values())
    size = max(len(p.systems) for p in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(0.32 * size * len(panels) + 2.5, 0.32 * size + 2.2),
                             squeeze=False)
    verdicts = list(PAIR_COLOURS)
    cmap = ListedColormap([*PAIR_COLOURS.values(), "#ffffff"])
    for ax, pairs in zip(axes[0], panels):
        ranking = board.human[pairs.human]
        order = sorted(pairs.systems, key=lambda s: -ranking.scores[s])
        matrix = [[len(verdicts) if a == b else verdicts.index(pairs.cells.get((a, b)) or pairs.cells[(b, a)])
                   for b in order] for a in order]
        ax.imshow(matrix, cmap=cmap, vmin=0, vmax=len(verdicts), interpolation="nearest")
        ax.set_xticks(range(len(order)), order, rotation=90, fontsize=6)
        ax.set_yticks(range(len(order)), order, fontsize=6)
        c = pairs.counts()
        ax.set_title(f"{pairs.human}: {c['agree']} agree, {c['disagree']} disagree, {c['metric-tie']} ties",
                     fontsize=8)
    fig.legend(handles=[Patch(color=colour, label=v) for v, colour in PAIR_COLOURS.items()], loc="lower center",
               ncol=4, fontsize=7, frameon=False)
    fig.suptitle(f"{config} vs human rankings on {board.refset}", fontsize=9)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
