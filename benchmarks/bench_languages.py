"""Languages other than English and Chinese: time, peak memory and signatures on UA-GEC, and the
free profile's agreement with English ERRANT on CoNLL-2014.

UA-GEC (Ukrainian, ``pip install ua-gec``: the corpus ships in the package, CC BY 4.0): the
whole test set, GEC-only layer (166 documents, 2,696 sentences, two annotators each, sentences
as tokenised by the corpus). System = annotator 2's corrections, reference = annotator 1's
(inter-annotator agreement), scored by every model-free metric through
``gecscore.load(name, lang="uk")``::

    PYTHONPATH=shared python benchmarks/bench_languages.py uagec [--limit N]

One process per metric (``--metric NAME``) is what the peak-memory figure means: ``ru_maxrss``
is the process's peak, so the parent runs each metric in a fresh child process.

CoNLL-2014 (the named set ``conll14``: source, ref0, ref1): how many of English ERRANT's edits
(spaCy ``en_core_web_sm``) the free profile finds with the same span and correction, and with
the same type where the free profile has the type (operation always; ORTH, PUNCT, SPELL, WO);
and, with the MultiGEC profile run on English with the same pipeline, how many edits keep
ERRANT's type when the classifier reads UPOS instead of Penn tags::

    PYTHONPATH=shared python benchmarks/bench_languages.py conll [--data-dir DIR]

CoNLL-2014 is found in the data folder (``--data-dir``, else ``$GEC_DATA``, else the per-user one)
and fetched there on first use; without it the command exits 2 with one line.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter

from gecscore.benchdata.script_support import add_data_dir_option, run_script, set_folder

METRICS = (
    ("cleme", {}),
    ("cleme2", {}),
    ("pt_m2", {"scorer": "none"}),
    ("pt_m2", {"scorer": "none", "base": "errant"}),
    ("imeasure", {}),
    ("gleu", {}),
)


def uagec_test(limit: int | None = None) -> tuple[list[str], list[str], list[str]]:
    """(sources, annotator-1 targets, annotator-2 targets) of the UA-GEC test set (GEC-only),
    tokenised sentences, documents in corpus order; the lower annotator id is 'annotator 1'."""
    from ua_gec import Corpus

    docs: dict[str, dict[int, object]] = {}
    for doc in Corpus(partition="test", annotation_layer="gec-only"):
        docs.setdefault(doc.doc_id, {})[doc.meta.annotator_id] = doc
    sources, first, second = [], [], []
    for pair in docs.values():
        a, b = (pair[k] for k in sorted(pair))
        sources += a.source_sentences_tokenized
        first += a.target_sentences_tokenized
        second += b.target_sentences_tokenized
    if limit:
        sources, first, second = sources[:limit], first[:limit], second[:limit]
    return sources, first, second


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_profile(limit: int | None) -> dict:
    """The free profile alone: the gold (2 annotators' edits) and the hypotheses' edits."""
    sources, first, second = uagec_test(limit)
    base = peak_mib()
    start = time.perf_counter()
    from gecscore.lang.free import FreeProfile

    profile = FreeProfile("uk")
    gold = profile.gold(sources, [[a, b] for a, b in zip(first, second)], False)
    targets = profile.hypothesis_targets(gold.sources, profile.predictions(second, False))
    seconds = time.perf_counter() - start
    edits = sum(len(e) for g in gold.sentences for e in g.annotations.values())
    return {"metric": "profile", "options": {"gold edits": edits, "hyp edits": sum(len(t.edits) for t in targets)},
            "sentences": len(sources), "seconds": round(seconds, 2), "peak_mib": round(peak_mib(), 1),
            "peak_before_mib": round(base, 1), "score": float("nan"), "signature": str(profile.facts())}


def run_one(index: int, limit: int | None) -> dict:
    import gecscore

    if index == len(METRICS):
        return run_profile(limit)
    name, options = METRICS[index]
    sources, first, second = uagec_test(limit)
    base = peak_mib()
    start = time.perf_counter()
    metric = gecscore.load(name, lang="uk", **options)
    result = metric.compute(sources, second, [[ref] for ref in first])
    seconds = time.perf_counter() - start
    return {"metric": name, "options": options, "sentences": len(sources), "seconds": round(seconds, 2),
            "peak_mib": round(peak_mib(), 1), "peak_before_mib": round(base, 1),
            "score": round(float(result.score), 4), "signature": str(result.signature)}


def uagec(limit: int | None) -> int:
    failed = 0
    for index, (name, options) in enumerate(METRICS + (("free profile alone", {}),)):
        cmd = [sys.executable, __file__, "uagec-one", str(index)] + (["--limit", str(limit)] if limit else [])
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            failed += 1
            print(f"{name} {options}: FAILED\n{done.stderr.strip().splitlines()[-1] if done.stderr else ''}")
            continue
        row = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{row['metric']:9} {json.dumps(row['options']):40} {row['sentences']} sentences "
              f"{row['seconds']:8.2f} s  peak {row['peak_mib']:7.1f} MiB (data loaded: "
              f"{row['peak_before_mib']:.1f})  score {row['score']}\n    {row['signature']}")
    return 1 if failed else 0


def conll(data_dir: str | None = None) -> int:
    from gecscore.lang.en.extractor import ErrantExtractor
    from gecscore.lang.free.profile import edits_of

    root = set_folder("conll14", data_dir)
    sources = (root / "source.txt").read_text(encoding="utf-8").splitlines()
    counts: Counter = Counter()
    by_type: Counter = Counter()
    start = time.perf_counter()
    extractor = ErrantExtractor(progress=False)
    for ref_name in ("ref0.txt", "ref1.txt"):
        refs = (root / ref_name).read_text(encoding="utf-8").splitlines()
        errant_targets = extractor.targets(sources, refs)
        for src, ref, target in zip(sources, refs, errant_targets):
            errant_edits = {(e.start, e.end, e.correction): e.type for e in target.edits}
            free_edits = {(e.start, e.end, e.correction): e.type
                          for e in edits_of(tuple(src.split()), tuple(ref.split()))}
            counts["errant"] += len(errant_edits)
            counts["free"] += len(free_edits)
            for key, etype in errant_edits.items():
                by_type[etype.split(":")[1] if ":" in etype else etype] += 1
                if key in free_edits:
                    counts["same_span"] += 1
                    ftype = free_edits[key]
                    counts["same_op"] += ftype[0] == etype[0]
                    if etype in ("R:ORTH", "R:WO", "R:SPELL") or etype.endswith(":PUNCT"):
                        counts["typed_comparable"] += 1
                        counts["same_type"] += ftype == etype
    seconds = time.perf_counter() - start
    # the MultiGEC profile run on English with the same spaCy pipeline: same alignment and merger,
    # so the same edits; the types show what reading UPOS instead of Penn tags changes
    from gecscore.lang.multigec import MultigecProfile

    multigec = MultigecProfile("en", extractor.nlp)
    for ref_name in ("ref0.txt", "ref1.txt"):
        refs = (root / ref_name).read_text(encoding="utf-8").splitlines()
        for ours, theirs in zip(multigec.hypothesis_targets(sources, refs), extractor.targets(sources, refs)):
            counts["mg_errant"] += len(theirs.edits)
            counts["mg_same_edit"] += len(set((e.start, e.end, e.correction) for e in ours.edits)
                                          & set((e.start, e.end, e.correction) for e in theirs.edits))
            counts["mg_same_type"] += len(set(ours.edits) & set(theirs.edits))
    e, f, s = counts["errant"], counts["free"], counts["same_span"]
    print(f"CoNLL-2014 test, ref0 + ref1 ({2 * len(sources)} pairs, {seconds:.1f} s)")
    print(f"  ERRANT edits {e}, free-profile edits {f}, same span and correction {s}")
    print(f"  of ERRANT's: {s / e:.1%}; of the free profile's: {s / f:.1%}; same op among them: "
          f"{counts['same_op'] / s:.1%}; same type where comparable (ORTH/PUNCT/SPELL/WO): "
          f"{counts['same_type']}/{counts['typed_comparable']} = "
          f"{counts['same_type'] / max(1, counts['typed_comparable']):.1%}")
    print(f"  MultiGEC profile on English (en_core_web_sm, UPOS instead of Penn tags): same edits "
          f"{counts['mg_same_edit']}/{counts['mg_errant']}, same edits and types {counts['mg_same_type']} = "
          f"{counts['mg_same_type'] / counts['mg_errant']:.1%}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("uagec", "uagec-one", "conll"))
    parser.add_argument("index", nargs="?", type=int)
    parser.add_argument("--limit", type=int, default=None, help="first N sentences only")
    add_data_dir_option(parser)
    args = parser.parse_args(argv)
    if args.what == "uagec-one":
        print(json.dumps(run_one(args.index, args.limit)))
        return 0
    if args.what == "uagec":
        return uagec(args.limit)
    return conll(args.data_dir)


if __name__ == "__main__":
    run_script(main)
