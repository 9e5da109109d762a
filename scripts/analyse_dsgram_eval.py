"""Analyse the DSGram human annotations (the named set ``dsgram-eval``).

Parses the three files (rows whose scores cannot be read are listed with the reason), checks
the id and input alignment of the 51 rows the three annotators share, measures inter-annotator
agreement on them (pairwise Pearson/Spearman, exact and within-1 agreement, Krippendorff's
alpha, interval), and correlates the equal-weight combination of the human sub-scores,
(SC + EL + F) / 3, with the human overall (the DSGram paper reports Pearson 0.8544).

    python scripts/analyse_dsgram_eval.py [--data-dir DIR] [--json]

The set is found by name in the data folder (``--data-dir``, else ``$GEC_DATA``, else the
per-user one) and fetched there on first use; without it the script exits 2 with one line.
"""
from __future__ import annotations

import argparse
import itertools
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gecscore.benchdata.script_support import add_data_dir_option, run_script, set_folder
from gecscore.judge.parsing import JudgeOutputError
from gecscore.metaeval.correlation import pearson, spearman
from gecscore.dsgram.scorer import SubScores, parse_sub_scores

FILES = ("gec_human_eval_test_1.json", "gec_human_eval_test_2.json", "gec_human_eval_test_3.json")
DIMENSIONS = ("semantic_coherence", "edit_level", "fluency", "overall")
PAPER_EQUAL_WEIGHT_PEARSON = 0.8544
_INPUT = re.compile(r"^original sentence: (.*), corrected sentence: (.*)$", re.S)


@dataclass
class Row:
    file: str
    position: int  # 0-based row in its file
    id: object
    source: str | None
    hypothesis: str | None
    scores: SubScores | None
    problem: str | None


def read_rows(path: Path) -> list[Row]:
    rows = []
    for position, record in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        match = _INPUT.match(record.get("input", ""))
        problem = None if match else "input is not 'original sentence: ..., corrected sentence: ...'"
        try:
            scores = parse_sub_scores(record.get("output", ""), require_overall=True)
        except JudgeOutputError as error:
            scores, problem = None, f"output {record.get('output')!r}: {error}"
        rows.append(Row(path.name, position, record.get("id"), match.group(1) if match else None,
                        match.group(2) if match else None, scores, problem))
    return rows


def krippendorff_interval(ratings: np.ndarray) -> float:
    """Krippendorff's alpha, interval metric, for a complete units x coders matrix."""
    units, coders = ratings.shape
    observed = sum(((row[:, None] - row[None, :]) ** 2).sum() / (coders - 1) for row in ratings)
    values = ratings.ravel()
    total = values.size
    expected = ((values[:, None] - values[None, :]) ** 2).sum() / (total - 1)
    return 1 - observed / expected if expected else float("nan")


def agreement(shared: list[list[Row]]) -> dict:
    """Agreement per dimension over the shared rows every annotator's scores parse for."""
    usable = [rows for rows in shared if all(r.scores for r in rows)]
    out: dict = {"rows": len(shared), "usable_rows": len(usable)}
    for dim in DIMENSIONS:
        matrix = np.array([[getattr(r.scores, dim) for r in rows] for rows in usable], dtype=float)
        pairs = {}
        for a, b in itertools.combinations(range(matrix.shape[1]), 2):
            x, y = matrix[:, a], matrix[:, b]
            pairs[f"{a + 1}-{b + 1}"] = {"pearson": pearson(x, y), "spearman": spearman(x, y),
                                         "exact": float(np.mean(x == y)),
                                         "within_1": float(np.mean(np.abs(x - y) <= 1))}
        out[dim] = {
            "pairs": pairs,
            "mean_pearson": float(np.mean([p["pearson"] for p in pairs.values()])),
            "krippendorff_alpha": krippendorff_interval(matrix),
            "annotator_means": [float(m) for m in matrix.mean(axis=0)],
        }
    return out


def equal_weight_correlation(rows: list[Row]) -> dict:
    """Pearson/Spearman of (SC + EL + F) / 3 with the overall, over rows that parse."""
    scored = [r.scores for r in rows if r.scores]
    combo = [sum(s.vector) / 3 for s in scored]
    overall = [s.overall for s in scored]
    return {"n": len(scored), "pearson": pearson(combo, overall), "spearman": spearman(combo, overall)}


def analyse(folder: Path) -> dict:
    files = {name: read_rows(folder / name) for name in FILES}
    first = files[FILES[0]]
    report: dict = {"files": {}, "paper_equal_weight_pearson": PAPER_EQUAL_WEIGHT_PEARSON}
    for name, rows in files.items():
        ids = Counter(r.id for r in rows)
        report["files"][name] = {
            "rows": len(rows),
            "parsed": sum(r.problem is None for r in rows),
            "failed": [{"row": r.position + 1, "id": r.id, "problem": r.problem} for r in rows if r.problem],
            "distinct_ids": len(ids),
            "repeated_ids": {str(i): n for i, n in ids.items() if n > 1},
        }
    n_shared = min(len(rows) for rows in files.values())
    shared = [[files[name][i] for name in FILES] for i in range(n_shared)]
    report["shared"] = {
        "rows": n_shared,
        "same_input": sum(len({(r.source, r.hypothesis) for r in rows}) == 1 for rows in shared),
        "same_id": sum(len({r.id for r in rows}) == 1 for rows in shared),
    }
    report["agreement"] = agreement(shared)
    report["equal_weights_vs_overall"] = {
        "file_1": equal_weight_correlation(first),
        f"file_1_rows_1-{n_shared}": equal_weight_correlation(first[:n_shared]),
        f"file_1_rows_{n_shared + 1}-{len(first)}": equal_weight_correlation(first[n_shared:]),
        **{f"file_{k + 1}": equal_weight_correlation(files[name]) for k, name in enumerate(FILES) if k},
        "all_annotations": equal_weight_correlation([r for rows in files.values() for r in rows]),
    }
    means = [rows for rows in shared if all(r.scores for r in rows)]
    combo = [np.mean([sum(r.scores.vector) / 3 for r in rows]) for rows in means]
    overall = [np.mean([r.scores.overall for r in rows]) for rows in means]
    report["equal_weights_vs_overall"]["shared_annotator_means"] = {
        "n": len(means), "pearson": pearson(combo, overall), "spearman": spearman(combo, overall)}
    return report


def print_report(report: dict) -> None:
    print("DSGram-Eval human annotations")
    for name, info in report["files"].items():
        print(f"  {name}: {info['rows']} rows, {info['parsed']} parsed, {len(info['failed'])} failed; "
              f"{info['distinct_ids']} distinct ids" +
              (f", repeated ids {info['repeated_ids']}" if info["repeated_ids"] else ""))
        for failure in info["failed"]:
            print(f"    row {failure['row']} (id {failure['id']}): {failure['problem']}")
    shared = report["shared"]
    print(f"  shared rows: {shared['rows']} (same input in all files: {shared['same_input']}, "
          f"same id: {shared['same_id']})")
    agreement = report["agreement"]
    print(f"\nInter-annotator agreement on {agreement['usable_rows']} of {agreement['rows']} shared rows")
    print(f"  {'dimension':<19}{'r 1-2':>7}{'r 1-3':>7}{'r 2-3':>7}{'mean r':>8}{'alpha':>7}{'exact':>7}{'<=1':>6}"
          "  annotator means")
    for dim in DIMENSIONS:
        info = agreement[dim]
        pairs = info["pairs"]
        exact = np.mean([p["exact"] for p in pairs.values()])
        within = np.mean([p["within_1"] for p in pairs.values()])
        print(f"  {dim:<19}" + "".join(f"{pairs[k]['pearson']:>7.3f}" for k in ("1-2", "1-3", "2-3")) +
              f"{info['mean_pearson']:>8.3f}{info['krippendorff_alpha']:>7.3f}{exact:>7.2f}{within:>6.2f}  " +
              ", ".join(f"{m:.2f}" for m in info["annotator_means"]))
    print(f"\nEqual weights, (SC + EL + F) / 3, vs the human overall (paper: Pearson "
          f"{report['paper_equal_weight_pearson']})")
    for name, info in report["equal_weights_vs_overall"].items():
        print(f"  {name:<24} n = {info['n']:>3}  Pearson {info['pearson']:.4f}  Spearman {info['spearman']:.4f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_dir_option(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = analyse(set_folder("dsgram-eval", args.data_dir))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    run_script(main)
