"""The inputs of the differential oracles: every output in GEC_DATA, scored by each reference
implementation (run outside the project) and by gecscore (tests/test_oracles.py).

One definition serves both sides: ``materialise(data, work)`` writes each input's source, gold
M2 and hypothesis into ``work`` (nothing of GEC_DATA is copied into the project) and returns
them as :class:`OracleInput`. The reference runners import this file by path; the tests
compare their committed numbers (``tests/fixtures/oracles/*.json``) with ours.

The sets (ids are ``set/system``):

- ``seeda-all/<SYS>``: SEEDA's 15 outputs of the CoNLL-2014 test set (GPT-3.5, the fluent and
  minimal human rewrites REF-F and REF-M among them) against the official 2-annotator gold;
- ``seeda-subset/<SYS>``: SEEDA's 391-line subset against the gold of those lines (the subset's
  INPUT lines matched to CoNLL-2014's source lines, in order);
- ``conll14-ref/ref0``, ``ref1``: each CoNLL-2014 annotator's corrected text scored as a system
  against the other annotator's edits alone (``-vs-other``) and against both (``-vs-both``);
- ``attacks/<metric>``: the published adversarial outputs (Goto et al. 2025) against the gold;
- ``stress/<kind>``: generated here, seeded (no data needed): whole-sentence rewrites, a token
  repeated at a gold insertion point, empty and one-token lines, 200-token lines;
- Chinese (``mucgec_inputs``): MuCGEC's example predictions and its references, and NLPCC-2018's
  annotators, scored as systems against the others.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

SEEDA_SYSTEMS = ("BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic", "PIE",
                 "REF-F", "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS")
ATTACKS = ("some", "scribendi", "impara", "llmsent")
STRESS_KINDS = ("rewrite", "repeat", "short", "long")
STRESS_SEED = 20261126


@dataclass(frozen=True)
class OracleInput:
    """One scored input: a system's hypothesis file against a gold M2, with the plain source and
    each annotator's corrected text (for the metrics that read references as text)."""

    id: str
    source: Path
    gold: Path
    hypothesis: Path
    references: tuple[Path, ...]


def read_lines(path: Path) -> list[str]:
    """Lines without their line ends (a file without a final newline keeps its last line)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def m2_blocks(path: Path) -> list[list[str]]:
    """The blocks (S line + A lines) of an M2 file, in order."""
    blocks, block = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            block.append(line)
        elif block:
            blocks.append(block)
            block = []
    if block:
        blocks.append(block)
    return blocks


def keep_annotator(block: list[str], annotator: int) -> list[str]:
    """A block with one annotator's A lines, renumbered 0 (none left: the bare S line)."""
    kept = [block[0]]
    for line in block[1:]:
        fields = line.split("|||")
        if int(fields[-1]) == annotator:
            kept.append("|||".join(fields[:-1] + ["0"]))
    return kept


def write_m2(path: Path, blocks: list[list[str]]) -> Path:
    path.write_text("".join("\n".join(block) + "\n\n" for block in blocks), encoding="utf-8")
    return path


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def subset_lines(data: Path) -> list[int]:
    """For each line of SEEDA's subset, its line index in CoNLL-2014's source (in order)."""
    source = read_lines(data / "conll14" / "source.txt")
    subset = read_lines(data / "seeda" / "outputs" / "subset" / "INPUT.txt")
    lines, start = [], 0
    for sentence in subset:
        index = source.index(sentence.strip(), start)
        lines.append(index)
        start = index + 1
    return lines


def materialise(data: Path, work: Path, sets: tuple[str, ...] | None = None) -> list[OracleInput]:
    """Write every input (or those of ``sets``) under ``work`` and list them."""
    work.mkdir(parents=True, exist_ok=True)
    conll = data / "conll14"
    gold = conll / "official-2014.combined.m2"
    source = conll / "source.txt"
    refs = (conll / "ref0.txt", conll / "ref1.txt")
    inputs: list[OracleInput] = []
    wanted = lambda name: sets is None or name in sets
    if wanted("seeda-all"):
        for system in SEEDA_SYSTEMS:
            inputs.append(OracleInput(f"seeda-all/{system}", source, gold,
                                      data / "seeda" / "outputs" / "all" / f"{system}.txt", refs))
    if wanted("seeda-subset"):
        lines = subset_lines(data)
        blocks = m2_blocks(gold)
        sub_gold = write_m2(work / "seeda-subset.m2", [blocks[i] for i in lines])
        sub_source = write_lines(work / "seeda-subset.src", [read_lines(source)[i] for i in lines])
        sub_refs = tuple(write_lines(work / f"seeda-subset.ref{k}", [read_lines(ref)[i] for i in lines])
                         for k, ref in enumerate(refs))
        for system in SEEDA_SYSTEMS:
            hyp = write_lines(work / f"seeda-subset.{system}.txt",
                              read_lines(data / "seeda" / "outputs" / "subset" / f"{system}.txt"))
            inputs.append(OracleInput(f"seeda-subset/{system}", sub_source, sub_gold, hyp, sub_refs))
    if wanted("conll14-ref"):
        blocks = m2_blocks(gold)
        for annotator, other in ((0, 1), (1, 0)):
            other_gold = write_m2(work / f"conll14-annotator{other}.m2", [keep_annotator(b, other) for b in blocks])
            hyp = conll / f"ref{annotator}.txt"
            inputs.append(OracleInput(f"conll14-ref/ref{annotator}-vs-other", source, other_gold, hyp,
                                      (refs[other],)))
            inputs.append(OracleInput(f"conll14-ref/ref{annotator}-vs-both", source, gold, hyp, refs))
    if wanted("attacks"):
        for attack in ATTACKS:
            inputs.append(OracleInput(f"attacks/{attack}", source, gold, data / "attacks" / f"conll14-{attack}.txt",
                                      refs))
    if wanted("stress"):
        inputs.extend(stress_inputs(work))
    return inputs


def errant_gold(item: OracleInput, data: Path, work: Path) -> Path:
    """The ERRANT-typed gold of an input (what the CLEME reference reads): CoNLL-2014's
    ``conll14.errant.m2``, cut to the subset's lines or to one annotator as ``materialise`` cuts
    the official gold; the stress set's own gold."""
    gold = data / "conll14" / "conll14.errant.m2"
    kind, name = item.id.split("/")
    if kind == "stress":
        return item.gold
    if kind == "seeda-subset":
        return write_m2(work / "seeda-subset.errant.m2", [m2_blocks(gold)[i] for i in subset_lines(data)])
    if kind == "conll14-ref" and name.endswith("-vs-other"):
        other = 1 - int(name[3])
        return write_m2(work / f"conll14-annotator{other}.errant.m2", [keep_annotator(b, other) for b in m2_blocks(gold)])
    return gold


# --- The generated stress set ------------------------------------------------------------------

_WORDS = ("the", "a", "cat", "dog", "sat", "on", "mat", "and", "is", "was", "were", "he", "she", "it", "to",
          "of", "in", "that", "have", "has", "go", "went", "goes", "school", "people", "many", "much", ",", ".")


def _sentence(rng: random.Random, length: int) -> list[str]:
    return [rng.choice(_WORDS) for _ in range(length)]


def _gold_edits(rng: random.Random, source: list[str], count: int) -> list[tuple[int, int, list[str]]]:
    """Non-overlapping random gold edits (substitutions, deletions, insertions, 2-3 token rewrites)."""
    edits, position = [], 0
    for _ in range(count):
        if position >= len(source):
            break
        start = rng.randrange(position, len(source) + 1)
        kind = rng.choice(("sub", "del", "ins", "multi"))
        if kind == "ins" or start == len(source):
            edits.append((start, start, [rng.choice(_WORDS)]))
            position = start + 1
        elif kind == "del":
            edits.append((start, start + 1, []))
            position = start + 2
        elif kind == "sub":
            edits.append((start, start + 1, [rng.choice(_WORDS)]))
            position = start + 2
        else:
            end = min(len(source), start + rng.randint(2, 3))
            edits.append((start, end, _sentence(rng, rng.randint(1, 3))))
            position = end + 1
    return edits


def _apply(source: list[str], edits: list[tuple[int, int, list[str]]]) -> list[str]:
    out, position = [], 0
    for start, end, correction in edits:
        out.extend(source[position:start])
        out.extend(correction)
        position = end
    out.extend(source[position:])
    return out


def _m2_block(source: list[str], annotators: list[list[tuple[int, int, list[str]]]]) -> list[str]:
    block = ["S " + " ".join(source)]
    for annotator, edits in enumerate(annotators):
        if not edits:
            block.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}")
        for start, end, correction in edits:
            block.append(f"A {start} {end}|||R:OTHER|||{' '.join(correction) if correction else ''}|||REQUIRED|||-NONE-|||"
                         f"{annotator}")
    return block


def stress_inputs(work: Path, sentences: int = 60) -> list[OracleInput]:
    """The seeded stress set: one gold (two annotators) and one hypothesis file per kind."""
    rng = random.Random(STRESS_SEED)
    sources, blocks, golds = [], [], []
    for index in range(sentences):
        length = 200 if index % 10 == 9 else rng.randint(4, 24)
        source = _sentence(rng, length)
        annotators = [_gold_edits(rng, source, rng.randint(0, 4)) for _ in range(2)]
        sources.append(source)
        golds.append(annotators)
        blocks.append(_m2_block(source, annotators))
    gold = write_m2(work / "stress.m2", blocks)
    source_file = write_lines(work / "stress.src", [" ".join(s) for s in sources])
    hypotheses: dict[str, list[str]] = {kind: [] for kind in STRESS_KINDS}
    for index, (source, annotators) in enumerate(zip(sources, golds)):
        corrected = _apply(source, annotators[0])
        long_line = len(source) >= 200
        # a whole-sentence rewrite: a shuffled, partly replaced copy of the correction
        rewrite = corrected[:] if long_line else [w if rng.random() < 0.5 else rng.choice(_WORDS) for w in corrected]
        if not long_line:
            rng.shuffle(rewrite)
        hypotheses["rewrite"].append(" ".join(rewrite))
        # a token repeated at a gold insertion point (or at the start), and a repeated n-gram
        insertion = next((e for a in annotators for e in a if e[0] == e[1] and e[2]), None)
        at, token = (insertion[0], insertion[2][0]) if insertion else (0, source[0])
        repeated = source[:at] + [token, token] + source[at:]
        if index % 3 == 0:
            repeated = repeated + repeated[-3:] * 2
        hypotheses["repeat"].append(" ".join(repeated))
        # empty and one-token lines
        hypotheses["short"].append("" if index % 2 == 0 else rng.choice(_WORDS))
        # the first annotator's correction with a few extra edits (the 200-token lines stay long)
        noisy = corrected[:]
        for _ in range(3):
            if noisy:
                noisy[rng.randrange(len(noisy))] = rng.choice(_WORDS)
        hypotheses["long"].append(" ".join(noisy))
    references = tuple(write_lines(work / f"stress.ref{k}", [" ".join(_apply(s, a[k])) for s, a in zip(sources, golds)])
                       for k in range(2))
    return [OracleInput(f"stress/{kind}", source_file, gold, write_lines(work / f"stress.{kind}.txt", lines),
                        references) for kind, lines in hypotheses.items()]


# --- Chinese: MuCGEC and NLPCC-2018 references scored as systems (ChERRANT) ---------------

def _stripped_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").strip().split("\n")


def _write_rows(path: Path, rows: list[list[str]]) -> Path:
    path.write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return path


def nlpcc_pairs(m2: Path) -> list[tuple[str, str, str, str]]:
    """(id, source, annotator-0 text, annotator-1 text) of the two-annotator blocks."""
    out = []
    blocks = m2.read_text(encoding="utf-8").strip().split("\n\n")
    for number, block in enumerate(blocks, start=1):
        lines = block.split("\n")
        source = "".join(lines[0][2:].split())
        texts: dict[int, str] = {}
        for line in lines[1:]:
            if line.startswith("T"):
                label, _, text = line.partition(" ")
                annotator = int(label[1:].split("-")[0])
                texts.setdefault(annotator, "".join(text.split()))
        if sorted(texts) == [0, 1]:
            out.append((str(number), source, texts[0], texts[1]))
    return out


def mucgec_inputs(gec_data: Path, work: Path) -> list[tuple[str, Path, Path]]:
    """The Chinese inputs (ChERRANT's parallel files): ``(id, hypothesis file, reference file)``.

    - ``mucgec/example_pred``: the example predictions against the MuCGEC dev set;
    - ``mucgec/ref1-vs-rest``, ``ref2-vs-rest``: on the 850 lines with two or more references,
      the first (second) reference as the prediction against the others, in their order;
    - ``nlpcc18/ann0-vs-ann1``, ``ann1-vs-ann0``: the NLPCC-2018 sentences with two annotators,
      one annotator's text (its first alignment, spaces removed) against the other's.
    """
    data, work = Path(gec_data) / "mucgec", Path(work)
    work.mkdir(parents=True, exist_ok=True)
    inputs = [("mucgec/example_pred", data / "example_pred_dev.txt", data / "MuCGEC_dev.txt")]
    rows = [line.split("\t") for line in _stripped_lines(data / "MuCGEC_dev.txt")]
    multi = [row for row in rows if len(row) >= 4]          # id, source, >= 2 references
    for k in (1, 2):
        hyp = _write_rows(work / f"mucgec_ref{k}-vs-rest.hyp.para", [[r[0], r[1], r[1 + k]] for r in multi])
        ref = _write_rows(work / f"mucgec_ref{k}-vs-rest.ref.para",
                          [[r[0], r[1]] + [t for i, t in enumerate(r[2:], start=1) if i != k] for r in multi])
        inputs.append((f"mucgec/ref{k}-vs-rest", hyp, ref))
    pairs = nlpcc_pairs(data / "nlpcc2018_official.ref.m2.char")
    for a, b in ((0, 1), (1, 0)):
        hyp = _write_rows(work / f"nlpcc18_ann{a}-vs-ann{b}.hyp.para", [[p[0], p[1], p[2 + a]] for p in pairs])
        ref = _write_rows(work / f"nlpcc18_ann{a}-vs-ann{b}.ref.para", [[p[0], p[1], p[2 + b]] for p in pairs])
        inputs.append((f"nlpcc18/ann{a}-vs-ann{b}", hyp, ref))
    return inputs


if __name__ == "__main__":  # list the inputs: python tests/oracle_inputs.py GEC_DATA WORK
    import sys

    for item in materialise(Path(sys.argv[1]), Path(sys.argv[2])):
        print(item.id, item.source, item.gold, item.hypothesis, *item.references, sep="\t")
