"""How large m2scorer's edit graph (plain M2's default ``segmentation="reference"``) gets on every
line of the evaluation data, and how many lines its bound refuses (the goal: none).

The graph of a line depends on its source and hypothesis only (not on the gold), so every
(source, output) pair of the data is built once: SEEDA's 15 outputs (all 1,312 lines and the
391-line subset), the four published attacks on CoNLL-2014, CoNLL-2014's 13 shared-task
submissions, CoNLL-2014's annotators as systems (the official M2's two and every annotator of
the BN-10GEC / SN-8GEC reference sets), JFLEG's four references against its sources (dev and
test), UA-GEC's annotators (sentences, and whole documents as single lines, when the ua-gec
package is installed) and the long-line stress lines of benchmarks/bench_long_lines.py.

    python scripts/reference_graph_sizes.py [--sets seeda attacks ...] [--data-dir DIR]

Prints per set: lines, refusals past ``MAX_REFERENCE_ARCS`` (each named: set, file, line), the
largest graph (listed arcs, distinct arcs, nodes, tokens, and where), the slowest line and the
total time; then the totals and the peak memory of the process. Exits 1 if a line is refused. The
named sets are found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the per-user one)
and fetched there on first use; a set that cannot be had exits 2 with one line.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script  # noqa: E402
from gecscore.io.m2 import read_m2  # noqa: E402
from gecscore.io.text import read_lines  # noqa: E402
from gecscore.m2 import reference  # noqa: E402

Pair = tuple[str, tuple[str, ...], tuple[str, ...]]     # (where, source, hypothesis)
# each measured set -> the named data sets it reads (UA-GEC comes from the ua-gec package)
NEEDS = {"seeda": ("seeda",), "attacks": ("conll14", "attacks"), "conll14": ("conll14", "conll14-systems"),
         "annotators": ("conll14", "bn10gec", "sn8gec"), "jfleg": ("jfleg",), "uagec": (), "long": ()}
SETS = tuple(NEEDS)


def _file_pairs(name: str, sources: list[str], outputs: Path) -> Iterator[Pair]:
    for index, (src, hyp) in enumerate(zip(sources, read_lines(outputs), strict=True)):
        yield f"{name} line {index + 1}", tuple(src.split()), tuple(hyp.split())


def seeda(data: Path) -> Iterator[Pair]:
    for part in ("all", "subset"):
        folder = data / "seeda" / "outputs" / part
        sources = read_lines(folder / "INPUT.txt")
        for path in sorted(folder.glob("*.txt")):
            yield from _file_pairs(f"seeda/{part}/{path.name}", sources, path)


def attacks(data: Path) -> Iterator[Pair]:
    sources = read_lines(data / "conll14" / "source.txt")
    for path in sorted((data / "attacks").glob("conll14-*.txt")):
        yield from _file_pairs(f"attacks/{path.name}", sources, path)


def conll14(data: Path) -> Iterator[Pair]:
    sources = read_lines(data / "conll14" / "source.txt")
    for path in sorted((data / "conll14" / "systems").glob("*.txt")):
        yield from _file_pairs(f"conll14/systems/{path.name}", sources, path)


def annotators(data: Path) -> Iterator[Pair]:
    """Every annotator's corrected text (its edits applied) against the source."""
    folder = data / "conll14"
    for path in [folder / "official-2014.combined.m2", *sorted((folder / "refsets").glob("*.m2"))]:
        with warnings.catch_warnings():          # a few refset edits lie past the source's end
            warnings.simplefilter("ignore")
            golds = read_m2(path, strict=False)
        for index, gold in enumerate(golds):
            for target in gold.targets():
                yield f"{path.name} line {index + 1} annotator {target.annotator}", gold.source, target.tokens


def jfleg(data: Path) -> Iterator[Pair]:
    for part in ("dev", "test"):
        sources = read_lines(data / "jfleg" / f"{part}.src")
        for k in range(4):
            yield from _file_pairs(f"jfleg/{part}.ref{k}", sources, data / "jfleg" / f"{part}.ref{k}")


def uagec(data: Path) -> Iterator[Pair]:
    try:
        from ua_gec import Corpus
    except ImportError:
        print("ua-gec is not installed: UA-GEC skipped", file=sys.stderr)
        return
    for layer in ("gec-only", "gec-fluency"):
        for partition in ("test", "train"):
            for doc in Corpus(partition=partition, annotation_layer=layer):
                where = f"ua-gec/{layer}/{partition}/{doc.doc_id}.a{doc.meta.annotator_id}"
                sources, targets = doc.source_sentences_tokenized, doc.target_sentences_tokenized
                for index, (src, tgt) in enumerate(zip(sources, targets)):
                    yield f"{where} sentence {index + 1}", tuple(src.split()), tuple(tgt.split())
                yield f"{where} (whole document)", tuple(" ".join(sources).split()), tuple(" ".join(targets).split())


def long(data: Path) -> Iterator[Pair]:
    from bench_long_lines import make_line

    for n in (100, 200, 400, 800, 1600, 3200):
        source, _, hypothesis, _ = make_line(n, 5, 1)
        yield f"bench_long_lines n={n}", tuple(source.split()), tuple(hypothesis.split())


@dataclass
class Sizes:
    lines: int = 0
    refused: list[str] = field(default_factory=list)
    largest: tuple = (0, 0, 0, 0, 0, "")       # listings, arcs, nodes, source tokens, hypothesis tokens, where
    slowest: tuple = (0.0, "")
    seconds: float = 0.0


def measure(pairs: Iterator[Pair], max_arcs: int) -> Sizes:
    sizes = Sizes()
    for where, source, hypothesis in pairs:
        sizes.lines += 1
        if source == hypothesis:
            continue
        start = time.perf_counter()
        try:
            graph = reference.reference_graph(source, hypothesis, max_arcs=max_arcs)
        except reference.ReferenceGraphTooLarge:
            sizes.refused.append(f"{where} ({len(source)} x {len(hypothesis)} tokens)")
            continue
        finally:
            elapsed = time.perf_counter() - start
            sizes.seconds += elapsed
            if elapsed > sizes.slowest[0]:
                sizes.slowest = (elapsed, where)
        listed = len(graph.listings)
        if listed > sizes.largest[0]:
            sizes.largest = (listed, len(graph.keys), len(graph.rows), len(source), len(hypothesis), where)
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--max-arcs", type=int, default=reference.MAX_REFERENCE_ARCS,
                        help="the bound to count refusals against (default: the library's)")
    add_data_dir_option(parser)
    args = parser.parse_args()
    needed = [name for measured in args.sets for name in NEEDS[measured]]
    data = data_root(needed, args.data_dir) if needed else Path()
    print(f"bound: {args.max_arcs:,} listed arcs per line; load average {os.getloadavg()[0]:.2f}")
    print(f"{'set':<11} {'lines':>8} {'refused':>7} {'largest: listed':>16} {'arcs':>11} {'nodes':>8} "
          f"{'tokens':>11} {'slowest s':>9} {'total s':>8}  where (largest; slowest)")
    refused = 0
    for name in args.sets:
        sizes = measure(globals()[name](data), args.max_arcs)
        refused += len(sizes.refused)
        listed, arcs, nodes, n, m, where = sizes.largest
        print(f"{name:<11} {sizes.lines:>8,} {len(sizes.refused):>7} {listed:>16,} {arcs:>11,} {nodes:>8,} "
              f"{f'{n}x{m}':>11} {sizes.slowest[0]:>9.3f} {sizes.seconds:>8.1f}  {where}; {sizes.slowest[1]}",
              flush=True)
        for line in sizes.refused:
            print(f"  refused: {line}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"refused lines: {refused}; peak memory {peak:,.0f} MiB; load average {os.getloadavg()[0]:.2f}")
    return 1 if refused else 0


if __name__ == "__main__":
    run_script(main)
