"""ERRANT edit extraction: errant's own ``annotator.annotate`` against the compiled alignment
(gecscore.lang.en.alignment.annotate): time both on the same parsed Docs and compare every edit
(spans, strings, type) and every alignment sequence.

The named sets (CoNLL-2014 and its systems; with --all also SEEDA and JFLEG) are found in the data
folder (``--data-dir``, else ``$GEC_DATA``, else the per-user one) and fetched there on first use;
without them it exits 2 with one line.

    python benchmarks/bench_errant.py                    # CoNLL-2014 source vs AMU, ref0, ref1
    python benchmarks/bench_errant.py --pair SRC HYP ... # any files (paths relative to the data folder)
    python benchmarks/bench_errant.py --all              # exactness on every CoNLL-2014 system and
                                                         # reference, SEEDA outputs, JFLEG references
    python benchmarks/bench_errant.py --parallel         # also time the errant_parallel CLI on AMU
    python benchmarks/bench_errant.py --long 2000 10000  # one line of N tokens: time and peak memory
                                                         # (each size in a fresh process;
                                                         # --long-errant: errant too, <= 3,000)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

REPO = Path(__file__).resolve().parent.parent
DATA = Path()   # the data folder, resolved by main() (data_root)

CONLL_SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
                 "UFC", "UMC")


def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]


def default_sets() -> list[tuple[str, Path, list[Path]]]:
    conll = DATA / "conll14"
    return [("conll14", conll / "source.txt",
             [conll / "systems" / "AMU.txt", conll / "ref0.txt", conll / "ref1.txt"])]


def all_sets() -> list[tuple[str, Path, list[Path]]]:
    conll = DATA / "conll14"
    seeda = DATA / "seeda" / "outputs" / "all"
    jfleg = DATA / "jfleg"
    sets = [("conll14", conll / "source.txt",
             [conll / "systems" / f"{name}.txt" for name in CONLL_SYSTEMS]
             + [conll / "ref0.txt", conll / "ref1.txt"])]
    sets.append(("seeda", seeda / "INPUT.txt", sorted(p for p in seeda.glob("*.txt") if p.stem != "INPUT")))
    for split in ("dev", "test"):
        sets.append((f"jfleg-{split}", jfleg / f"{split}.src", [jfleg / f"{split}.ref{r}" for r in range(4)]))
    return sets


def load():
    import errant

    from gecscore.lang.en.spacy_model import load_spacy_model

    nlp = load_spacy_model()
    return nlp, errant.load("en", nlp)


def parse_all(nlp, sentences) -> dict[str, object]:
    from spacy.tokens import Doc

    todo = list(dict.fromkeys(sentences))
    docs = nlp.pipe((Doc(nlp.vocab, s.split()) for s in todo), batch_size=256)
    return dict(zip(todo, docs))


def edit_key(edit) -> tuple:
    return (edit.o_start, edit.o_end, edit.c_start, edit.c_end, edit.o_str, edit.c_str, edit.type)


def run_errant(annotator, orig, cor):
    alignment = annotator.align(orig, cor)
    edits = annotator.merge(alignment)
    for edit in edits:
        annotator.classify(edit)
    return alignment.align_seq, edits


def run_compiled(annotator, orig, cor):
    from gecscore.lang.en.alignment import CompiledAlignment

    alignment = CompiledAlignment(orig, cor)
    edits = annotator.merge(alignment)
    for edit in edits:
        annotator.classify(edit)
    return alignment.align_seq, edits


def compare_sets(sets) -> int:
    """Time and compare; returns the number of differing pairs."""
    from gecscore.lang.en.alignment import doc_features

    nlp, annotator = load()
    for _, src, hyps in sets:
        for path in [src, *hyps]:
            if not path.exists():
                sys.exit(f"missing {path}")
    sentences = []
    for _, src, hyps in sets:
        sentences += read_lines(src)
        for hyp in hyps:
            sentences += read_lines(hyp)
    start = time.perf_counter()
    docs = parse_all(nlp, sentences)
    print(f"parsed {len(docs):,} distinct sentences in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    for doc in docs.values():
        doc_features(doc)
    print(f"token features of all Docs: {time.perf_counter() - start:.2f} s")
    # warm up the compiled kernels
    some = next(iter(docs.values()))
    run_compiled(annotator, some, some)

    total_pairs = total_diff = 0
    header = f"{'set':<12}{'hypothesis':<16}{'pairs':>7}{'same':>6}{'edits':>7}{'diff':>6}" \
             f"{'errant s':>10}{'ours s':>9}{'ratio':>7}"
    print(header)
    sum_e = sum_c = 0.0
    for set_name, src, hyps in sets:
        sources = read_lines(src)
        for hyp in hyps:
            targets = read_lines(hyp)
            n = min(len(sources), len(targets))
            if len(sources) != len(targets):
                print(f"  note: {hyp.name} has {len(targets)} lines, source {len(sources)}; using {n}")
            pairs = [(s, t) for s, t in zip(sources[:n], targets[:n]) if s.split() != t.split()]
            same = n - len(pairs)
            t_err = t_ours = 0.0
            n_diff = n_edits = 0
            first = None
            for s, t in pairs:
                o, c = docs[s], docs[t]
                t0 = time.perf_counter()
                seq_c, edits_c = run_compiled(annotator, o, c)
                t1 = time.perf_counter()
                seq_e, edits_e = run_errant(annotator, o, c)
                t2 = time.perf_counter()
                t_ours += t1 - t0
                t_err += t2 - t1
                n_edits += len(edits_e)
                if seq_c != seq_e or [edit_key(e) for e in edits_c] != [edit_key(e) for e in edits_e]:
                    n_diff += 1
                    if first is None:
                        first = (s, t, seq_e, seq_c)
            total_pairs += len(pairs)
            total_diff += n_diff
            sum_e += t_err
            sum_c += t_ours
            ratio = f"{t_err / t_ours:.1f}" if t_ours else "-"
            label = hyp.name if set_name.startswith("jfleg") else hyp.stem
            print(f"{set_name:<12}{label:<16}{len(pairs):>7}{same:>6}{n_edits:>7}{n_diff:>6}"
                  f"{t_err:>10.2f}{t_ours:>9.3f}{ratio:>7}")
            if first is not None:
                print(f"  first difference:\n    {first[0]}\n    {first[1]}\n    errant {first[2]}\n    ours   {first[3]}")
    print(f"TOTAL: {total_pairs:,} pairs compared, {total_diff} differing; "
          f"errant {sum_e:.1f} s, compiled {sum_c:.2f} s, ratio {sum_e / max(sum_c, 1e-9):.1f}x")
    return total_diff


def time_alignment_only(sets) -> None:
    """Alignment alone (no merge/classify): errant.alignment.Alignment vs CompiledAlignment."""
    from errant.alignment import Alignment

    from gecscore.lang.en.alignment import CompiledAlignment

    nlp, _ = load()
    _, src, hyps = sets[0]
    sources = read_lines(src)
    targets = read_lines(hyps[0])
    pairs = [(s, t) for s, t in zip(sources, targets) if s.split() != t.split()]
    docs = parse_all(nlp, [x for p in pairs for x in p])
    from gecscore.lang.en.alignment import doc_features

    start = time.perf_counter()
    for doc in docs.values():
        doc_features(doc)
    t_feat = time.perf_counter() - start
    CompiledAlignment(docs[pairs[0][0]], docs[pairs[0][1]])
    t0 = time.perf_counter()
    for s, t in pairs:
        Alignment(docs[s], docs[t])
    t1 = time.perf_counter()
    for s, t in pairs:
        CompiledAlignment(docs[s], docs[t])
    t2 = time.perf_counter()
    print(f"alignment only ({hyps[0].stem}, {len(pairs)} pairs): errant {t1 - t0:.2f} s, "
          f"compiled {t2 - t1:.3f} s, ratio {(t1 - t0) / (t2 - t1):.0f}x "
          f"(+ {t_feat:.3f} s once for the token arrays of {len(docs)} Docs)")


_ERRANT_PARALLEL_SHIM = (
    # errant.load() asks spacy for "en_core_web_sm"; route that name to the installed model
    # package (en_core_web_sm or its PyPI re-upload), as gecscore.lang.en.spacy_model does.
    "import sys, spacy\n"
    "from gecscore.lang.en.spacy_model import load_spacy_model\n"
    "_load = spacy.load\n"
    "spacy.load = lambda name, **kw: load_spacy_model() if name == 'en_core_web_sm' else _load(name, **kw)\n"
    "from errant.commands.parallel_to_m2 import main\n"
    "sys.argv = ['errant_parallel'] + sys.argv[1:]\n"
    "main()\n")


def compiled_parallel(orig_path: Path, cor_paths: list[Path], out_path: Path) -> None:
    """errant_parallel's output (same M2, line by line), with nlp.pipe and the compiled alignment."""
    from gecscore.lang.en.alignment import annotate

    nlp, annotator = load()
    rows = [[line.strip() for line in lines]
            for lines in zip(*(p.read_text(encoding="utf-8").splitlines(keepends=True)
                               for p in [orig_path, *cor_paths]))]
    docs = parse_all(nlp, [s for row in rows if row[0] for s in row if s])
    with open(out_path, "w") as out:
        for orig, *cors in rows:
            if not orig:
                continue
            o = docs[orig]
            out.write(" ".join(["S"] + [token.text for token in o]) + "\n")
            for cor_id, cor in enumerate(cors):
                if o.text.strip() == cor:
                    out.write(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{cor_id}\n")
                else:
                    for edit in annotate(annotator, o, docs[cor] if cor else _empty_doc(nlp)):
                        out.write(edit.to_m2(cor_id) + "\n")
            out.write("\n")


def _empty_doc(nlp):
    from spacy.tokens import Doc

    return nlp(Doc(nlp.vocab, []))


def time_errant_parallel(src: Path, hyp: Path) -> None:
    """The errant_parallel CLI (parses each line itself), and the same job with nlp.pipe and the
    compiled alignment, each in a fresh process; their M2 outputs are compared."""
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / "errant.m2", Path(tmp) / "compiled.m2"]
        cmds = [[sys.executable, "-c", _ERRANT_PARALLEL_SHIM, "-orig", str(src), "-cor", str(hyp), "-out", str(outs[0])],
                [sys.executable, __file__, "--_pipeline", str(src), str(hyp), str(outs[1])]]
        walls = []
        for cmd in cmds:
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            walls.append(time.perf_counter() - start)
        same = outs[0].read_bytes() == outs[1].read_bytes()
    print(f"errant_parallel -orig {src.name} -cor {hyp.name} (pre-tokenised, no -tok): {walls[0]:.1f} s wall; "
          f"same job with nlp.pipe + compiled alignment: {walls[1]:.1f} s wall "
          f"(both include Python start-up and model loading); identical M2 output: {same}")


def time_text_path_vs_errant_parallel() -> None:
    """All 13 CoNLL-2014 systems: our text path in one process (gecscore.load("cleme2"): sources
    and both references parsed and aligned once, then each system's edits and CLEME2.0) against
    errant_parallel run once per system (what a user of ERRANT alone runs to get the edits)."""
    conll = DATA / "conll14"
    src = conll / "source.txt"
    code = ("import sys, time; from pathlib import Path; import gecscore\n"
            "from gecscore.io.text import read_lines\n"
            "c = Path(sys.argv[1]); t = time.perf_counter()\n"
            "m = gecscore.load('cleme2')\n"
            "p = m.prepare_text(read_lines(c / 'source.txt'), [list(r) for r in zip(read_lines(c / 'ref0.txt'), "
            "read_lines(c / 'ref1.txt'))])\n"
            "for s in sys.argv[2:]: m.score(p, read_lines(c / 'systems' / f'{s}.txt'))\n"
            "print(time.perf_counter() - t)\n")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, str(conll), *CONLL_SYSTEMS], check=True, capture_output=True,
                         text=True, env={**os.environ, "TQDM_DISABLE": "1"})
    ours_wall, ours_inner = time.perf_counter() - start, float(out.stdout.split()[-1])
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        for system in CONLL_SYSTEMS:
            subprocess.run([sys.executable, "-c", _ERRANT_PARALLEL_SHIM, "-orig", str(src), "-cor",
                            str(conll / "systems" / f"{system}.txt"), "-out", str(Path(tmp) / f"{system}.m2")],
                           check=True, stdout=subprocess.DEVNULL)
        errant_wall = time.perf_counter() - start
    print(f"13 CoNLL-2014 systems: our text path (one process, 2 references, edits and CLEME2.0) "
          f"{ours_wall:.1f} s wall ({ours_inner:.1f} s after start-up); errant_parallel once per system "
          f"(hypothesis edits only) {errant_wall:.1f} s wall; ratio {errant_wall / ours_wall:.1f}x")


# ----------------------------------------------------------------------------------------------
# One long line


def long_line(n_tokens: int) -> tuple[str, str]:
    """Concatenated CoNLL-2014 source sentences (n_tokens), and a copy with 6 edits."""
    sources = read_lines(DATA / "conll14" / "source.txt")
    tokens: list[str] = []
    k = 0
    while len(tokens) < n_tokens:
        tokens += sources[k % len(sources)].split()
        k += 1
    tokens = tokens[:n_tokens]
    hyp = list(tokens)
    n = len(hyp)
    hyp[n // 7] = "the"                                     # substitution
    del hyp[n // 3]                                         # deletion
    hyp.insert(n // 2, "also")                              # insertion
    i = 2 * n // 3
    hyp[i], hyp[i + 1] = hyp[i + 1], hyp[i]                 # transposition
    hyp[4 * n // 5] = hyp[4 * n // 5].upper()               # case change
    hyp.insert(9 * n // 10, ",")                            # punctuation
    return " ".join(tokens), " ".join(hyp)


def _memory_kib() -> tuple[int, int]:
    """(current RSS, peak RSS since the last _reset_peak) in KiB, from /proc (Linux)."""
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def _reset_peak() -> bool:
    """Give freed heap memory back to the OS (glibc), then reset the peak RSS counter."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    try:
        with open("/proc/self/clear_refs", "w") as f:  # "5": reset the peak RSS (Linux >= 4.0)
            f.write("5")
        return True
    except OSError:
        return False


def run_long(n_tokens: int, with_errant: bool) -> None:
    """In this process: parse one long line pair, align it, report time and peak RSS."""
    from gecscore.lang.en.alignment import CompiledAlignment, annotate

    nlp, annotator = load()
    src, hyp = long_line(n_tokens)
    t0 = time.perf_counter()
    o, c = (parse_all(nlp, [src, hyp])[x] for x in (src, hyp))
    t_parse = time.perf_counter() - t0
    small = parse_all(nlp, ["a b", "b a"])
    CompiledAlignment(small["a b"], small["b a"])  # compile/load kernels before measuring
    cells = (len(o) + 1) * (len(c) + 1)
    exact_peak = _reset_peak()
    rss0, _ = _memory_kib()
    t0 = time.perf_counter()
    edits = annotate(annotator, o, c, max_cells=None)
    t_annot = time.perf_counter() - t0
    _, peak = _memory_kib()
    t0 = time.perf_counter()
    alignment = CompiledAlignment(o, c, max_cells=None)
    t_align = time.perf_counter() - t0
    print(f"{len(o)} x {len(c)} tokens ({cells:,} cells): parse {t_parse:.1f} s, compiled alignment "
          f"{t_align:.2f} s, annotate (alignment + merge + classify) {t_annot:.2f} s, {len(edits)} edits "
          f"{[(e.o_start, e.o_end, e.c_str, e.type) for e in edits]}")
    print(f"  RSS before annotate {rss0 / 1024:.0f} MiB, peak during annotate {peak / 1024:.0f} MiB "
          f"(+{(peak - rss0) / 1024:.0f} MiB; op table {cells / 2**20:.0f} MiB)"
          + ("" if exact_peak else " [peak not resettable: process-wide peak]"))
    if with_errant and n_tokens > 3000:
        print("  errant itself skipped above 3,000 tokens (its tables are Python lists: many GB)")
    elif with_errant:
        _reset_peak()
        rss0, _ = _memory_kib()
        t0 = time.perf_counter()
        reference = annotator.annotate(o, c)
        t_err = time.perf_counter() - t0
        _, peak = _memory_kib()
        same = [edit_key(e) for e in reference] == [edit_key(e) for e in edits]
        print(f"  errant annotate: {t_err:.1f} s, peak +{(peak - rss0) / 1024:.0f} MiB; identical edits: {same}; "
              f"identical align_seq: {annotator.align(o, c).align_seq == alignment.align_seq}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true", help="every CoNLL-2014 system/reference, SEEDA, JFLEG")
    parser.add_argument("--pair", nargs="+", metavar="FILE",
                        help="source file then hypothesis files (relative to the data folder or absolute)")
    parser.add_argument("--parallel", action="store_true", help="also time errant_parallel on AMU")
    parser.add_argument("--systems", action="store_true",
                        help="only time the text path of all 13 CoNLL-2014 systems against errant_parallel per system")
    parser.add_argument("--long", nargs="+", type=int, metavar="N", help="one line of N tokens")
    parser.add_argument("--long-errant", action="store_true", help="with --long: also run errant itself (up to 3,000 tokens)")
    parser.add_argument("--_long-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--_pipeline", nargs=3, help=argparse.SUPPRESS)
    add_data_dir_option(parser)
    args = parser.parse_args()

    global DATA
    if args._pipeline:
        orig, cor, out = (Path(p) for p in args._pipeline)
        compiled_parallel(orig, [cor], out)
        return
    DATA = data_root(("conll14", "conll14-systems") + (("seeda", "jfleg") if args.all else ()), args.data_dir)
    if args._long_child:
        run_long(args._long_child, args.long_errant)
        return
    if args.long:
        for n in args.long:  # fresh process each: a clean peak RSS
            cmd = [sys.executable, __file__, "--_long-child", str(n), "--data-dir", str(DATA)] + (
                ["--long-errant"] if args.long_errant else [])
            subprocess.run(cmd, check=True)
        return
    if args.systems:
        time_text_path_vs_errant_parallel()
        return
    if args.pair:
        paths = [Path(p) if Path(p).is_absolute() else DATA / p for p in args.pair]
        sets = [("pair", paths[0], paths[1:])]
    else:
        sets = all_sets() if args.all else default_sets()
    differing = compare_sets(sets)
    if not args.all:
        time_alignment_only(sets)
    if args.parallel:
        src, hyp = DATA / "conll14" / "source.txt", DATA / "conll14" / "systems" / "AMU.txt"
        time_errant_parallel(src, hyp)
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    run_script(main)
