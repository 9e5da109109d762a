"""ERRANT's span-based F-beta (the ``errant_compare`` command of ERRANT 3.0), count for count.

A hypothesis M2 is compared with a reference M2 sentence by sentence. Each side's edits are
grouped by coder (annotator id, the last ``|||`` field; a block without edit lines is coder 0
with a noop) and turned into keys according to the mode:

* ``cs`` (default, span-based correction): ``(start, end, correction)``;
* ``cse`` (correction + classification): ``(start, end, type, correction)``;
* ``ds`` (span-based detection): ``(start, end)``;
* ``dt`` (token-based detection): one ``(i, i + 1)`` per source token of the span; an
  insertion ``(i, i)`` becomes ``(i, i + 1)`` (the token on its right); a noop stays ``(-1, -1)``.

Each key keeps the list of the types of the edits that produced it (duplicates count). The
correction is the raw M2 string (``-NONE-`` and an empty string differ, as in ERRANT). Before
keying, edits are dropped: ``UNK`` edits in correction modes; with ``single`` those with a
source span or a correction of two or more tokens; with ``multi`` those with neither; with
``filt`` those whose type is listed. A coder whose edits are all dropped is still a coder.

For one (hypothesis coder, reference coder) pair: a hypothesis key present among the
reference keys gives one TP per *reference* type of that key; an absent one one FP per
hypothesis type; a reference key absent from the hypothesis one FN per reference type. Keys
whose first type is ``noop`` give neither FP (hypothesis) nor FN (reference). Per-type counts
go to the type that produced them.

Choice of reference (per sentence, in file order): every pair (hypothesis coders in order of
first appearance, then reference coders likewise) is scored by the F-beta of the *running
corpus totals* plus the pair's counts, with P = TP/(TP+FP) (1 when FP = 0), R = TP/(TP+FN) (1
when FN = 0), F = (1+b^2)PR/(b^2 P + R) (0 when P + R = 0), each rounded to 4 decimals. A
pair replaces the best so far iff its F is higher; or F equal and its TP higher; or F, TP
equal and FP lower; or F, TP, FP equal and FN lower (strict: the first pair wins full ties).
The best pair's local counts and per-type counts are added to the totals.

``-cat`` tables merge the per-type counts: level 1 by operation (the type's first character,
``M``/``R``/``U``), level 2 by main type (the type after ``X:``), level 3 as is; ``UNK`` stays
``UNK`` at every level.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from gecscore.errors import GecInputError
from gecscore.fscore import ERRANT, f_beta
from gecscore.types import Gold, Target

MODES = ("cs", "cse", "ds", "dt")
TITLES = {"cs": " Span-Based Correction ", "cse": " Span-Based Correction + Classification ",
          "ds": " Span-Based Detection ", "dt": " Token-Based Detection "}
NOOP = "noop"


@dataclass(frozen=True, slots=True)
class M2Edit:
    """One ``A`` line as ERRANT's compare reads it: span, type, raw correction string, coder."""

    start: int
    end: int
    type: str
    correction: str
    coder: int


NOOP_EDIT = M2Edit(-1, -1, NOOP, "-NONE-", 0)


@dataclass(frozen=True)
class CompareOptions:
    """``beta`` (-b), ``mode`` (cs, cse, ds, dt), ``single``/``multi`` and ``filt`` (types not evaluated)."""

    beta: float = 0.5
    mode: str = "cs"
    single: bool = False
    multi: bool = False
    filt: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise GecInputError(f"unknown mode {self.mode!r}; expected one of: {', '.join(MODES)}")
        object.__setattr__(self, "filt", frozenset(self.filt))


@dataclass(frozen=True)
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def prf(self, beta: float) -> tuple[float, float, float]:
        return f_score(self.tp, self.fp, self.fn, beta)


@dataclass(frozen=True)
class CompareResult:
    """Corpus totals, per-type totals (type -> [TP, FP, FN]) and the chosen (hyp, ref) coders."""

    counts: Counts
    categories: dict[str, list[int]]
    chosen: tuple[tuple[int, int], ...]
    options: CompareOptions = field(default_factory=CompareOptions)

    def table(self, level: int) -> dict[str, list[int]]:
        return category_table(self.categories, level)

    def as_dict(self, level: int | None = None) -> dict:
        p, r, f = self.counts.prf(self.options.beta)
        out = {"mode": self.options.mode, "beta": self.options.beta, "tp": self.counts.tp,
               "fp": self.counts.fp, "fn": self.counts.fn, "p": p, "r": r, "f": f}
        if level:
            out["categories"] = {cat: dict(zip(("tp", "fp", "fn", "p", "r", "f"),
                                               (*c, *f_score(*c, self.options.beta))))
                                 for cat, c in sorted(self.table(level).items())}
        return out


def f_score(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """ERRANT's P, R, F-beta rounded to 4 decimals (P = 1 when FP = 0, R = 1 when FN = 0)."""
    p, r, f = f_beta(tp, fp, fn, beta, ERRANT)
    return round(p, 4), round(r, 4), round(f, 4)


# ---------------------------------------------------------------- reading edits

def split_blocks(text: str) -> list[str]:
    """The sentence blocks of an M2 text as ERRANT splits them: strip, then split on blank lines."""
    return text.strip().split("\n\n")


def parse_block(block: str, *, chinese: bool = False) -> tuple[M2Edit, ...]:
    """The edit lines of one block (every line after the ``S`` line). ``chinese``: as
    ChERRANT's scorer reads its char-level M2: only ``A`` lines (its ``T`` lines, which name each
    alignment, are skipped) and corrections compared without spaces."""
    edits = []
    for number, line in enumerate(block.split("\n")[1:], start=2):
        if chinese and not line.startswith("A "):
            continue
        fields = line[2:].split("|||")
        try:
            start, end = (int(x) for x in fields[0].split())
            correction = fields[2].replace(" ", "") if chinese else fields[2]
            edits.append(M2Edit(start, end, fields[1], correction, int(fields[-1])))
        except (ValueError, IndexError):
            raise GecInputError(f"malformed edit line {line!r} (line {number} of its block)") from None
    return tuple(edits)


def read_edits(path: str | Path, *, chinese: bool = False) -> list[tuple[M2Edit, ...]]:
    """Every block's edits of an M2 file (``chinese``: ChERRANT's, see :func:`parse_block`)."""
    from gecscore.io.user_files import read_text

    # line ends as ERRANT's open() reads them (universal newlines: CRLF and CR become LF)
    text = read_text(path).replace("\r\n", "\n").replace("\r", "\n")
    try:
        return [parse_block(block, chinese=chinese) for block in split_blocks(text)]
    except GecInputError as error:
        raise GecInputError(str(error), str(path)) from None


def target_edits(source: Sequence[str], target: Target, coder: int) -> list[M2Edit]:
    """What ``errant_parallel`` writes for one corrected sentence: a noop when it equals the
    source, else its edits (none if ERRANT found none)."""
    if tuple(target.tokens) == tuple(source):
        return [M2Edit(-1, -1, NOOP, "-NONE-", coder)]
    return [M2Edit(e.start, e.end, e.type, " ".join(e.correction), coder) for e in target.edits]


def gold_edits(gold: Gold) -> tuple[M2Edit, ...]:
    """A gold sentence extracted from text references (annotator k = coder k)."""
    return tuple(edit for coder, target in enumerate(gold.targets())
                 for edit in target_edits(gold.source, target, coder))


# ---------------------------------------------------------------- comparing

Key = tuple


def keyed(edits: Sequence[M2Edit], options: CompareOptions) -> dict[int, dict[Key, list[str]]]:
    """coder -> key -> types, after the filters (see the module docstring)."""
    coders: dict[int, dict[Key, list[str]]] = {}
    for edit in edits or (NOOP_EDIT,):
        keys = coders.setdefault(edit.coder, {})
        start, end, cat, cor = edit.start, edit.end, edit.type, edit.correction
        if options.mode in ("cs", "cse") and cat == "UNK":
            continue
        n_cor = len(cor.split())
        if options.single and (end - start >= 2 or n_cor >= 2):
            continue
        if options.multi and end - start < 2 and n_cor < 2:
            continue
        if cat in options.filt:
            continue
        if options.mode == "dt":
            if start == -1:
                spans = [(start, start)]
            elif start == end:
                spans = [(start, start + 1)]
            else:
                spans = [(i, i + 1) for i in range(start, end)]
        elif options.mode == "ds":
            spans = [(start, end)]
        elif options.mode == "cse":
            spans = [(start, end, cat, cor)]
        else:
            spans = [(start, end, cor)]
        for key in spans:
            keys.setdefault(key, []).append(cat)
    return coders


def compare_keys(hyp: dict[Key, list[str]], ref: dict[Key, list[str]]
                 ) -> tuple[Counts, dict[str, list[int]]]:
    """TP/FP/FN and per-type [TP, FP, FN] of one hypothesis coder against one reference coder."""
    tp = fp = fn = 0
    cats: dict[str, list[int]] = {}
    for key, types in hyp.items():
        if types[0] == NOOP:
            continue
        if key in ref:
            for cat in ref[key]:
                tp += 1
                cats.setdefault(cat, [0, 0, 0])[0] += 1
        else:
            for cat in types:
                fp += 1
                cats.setdefault(cat, [0, 0, 0])[1] += 1
    for key, types in ref.items():
        if types[0] == NOOP or key in hyp:
            continue
        for cat in types:
            fn += 1
            cats.setdefault(cat, [0, 0, 0])[2] += 1
    return Counts(tp, fp, fn), cats


def best_pair(hyp: dict[int, dict], ref: dict[int, dict], totals: Counts, beta: float
              ) -> tuple[Counts, dict[str, list[int]], tuple[int, int]]:
    """The (hypothesis coder, reference coder) pair chosen for one sentence (see the module
    docstring for the order and the tie-breaks)."""
    best, best_f, best_cats, chosen = Counts(), -1.0, {}, (0, 0)
    for hyp_id, hyp_keys in hyp.items():
        for ref_id, ref_keys in ref.items():
            counts, cats = compare_keys(hyp_keys, ref_keys)
            f = (totals + counts).prf(beta)[2]
            if (f > best_f
                    or f == best_f and counts.tp > best.tp
                    or f == best_f and counts.tp == best.tp and counts.fp < best.fp
                    or f == best_f and counts.tp == best.tp and counts.fp == best.fp and counts.fn < best.fn):
                best, best_f, best_cats, chosen = counts, f, cats, (hyp_id, ref_id)
    return best, best_cats, chosen


SKIPPED = (-1, -1)  # the "chosen pair" recorded for a sentence left out of the counts


def compare(hypotheses: Sequence[Sequence[M2Edit]], references: Sequence[Sequence[M2Edit]],
            options: CompareOptions = CompareOptions(), *, skip: Callable[[dict], bool] | None = None
            ) -> CompareResult:
    """ERRANT's compare of every sentence's hypothesis edits with its reference edits.
    ``skip`` (of a sentence's keyed reference edits) leaves a sentence out of the counts, its
    choice recorded as :data:`SKIPPED` (ChERRANT skips sentences it cannot annotate)."""
    if len(hypotheses) != len(references):
        raise GecInputError(f"the hypothesis has {len(hypotheses)} sentences but the reference "
                            f"{len(references)}")
    totals = Counts()
    categories: dict[str, list[int]] = {}
    chosen = []
    for hyp_edits, ref_edits in zip(hypotheses, references):
        ref = keyed(ref_edits, options)
        if skip is not None and skip(ref):
            chosen.append(SKIPPED)
            continue
        counts, cats, pair = best_pair(keyed(hyp_edits, options), ref, totals, options.beta)
        totals += counts
        for cat, c in cats.items():
            merged = categories.setdefault(cat, [0, 0, 0])
            for i in range(3):
                merged[i] += c[i]
        chosen.append(pair)
    return CompareResult(totals, categories, tuple(chosen), options)


def compare_files(hyp: str | Path, ref: str | Path, options: CompareOptions = CompareOptions()) -> CompareResult:
    return compare(read_edits(hyp), read_edits(ref), options)


def category_table(categories: dict[str, list[int]], level: int) -> dict[str, list[int]]:
    """Per-type counts merged at ``level`` 1 (operation), 2 (main type) or 3 (full type)."""
    if level not in (1, 2, 3):
        raise GecInputError(f"category level must be 1, 2 or 3, got {level!r}")
    table: dict[str, list[int]] = {}
    for cat, c in categories.items():
        name = cat if cat == "UNK" or level == 3 else (cat[0] if level == 1 else cat[2:])
        merged = table.setdefault(name, [0, 0, 0])
        for i in range(3):
            merged[i] += c[i]
    return table


def format_report(result: CompareResult, level: int | None = None) -> str:
    """The text ``errant_compare`` prints (its layout, character for character)."""
    beta = result.options.beta
    title = TITLES[result.options.mode]
    lines: list[str] = []
    if level:
        lines += ["", f"{title:=^66}",
                  " ".join(["Category".ljust(14), "TP".ljust(8), "FP".ljust(8), "FN".ljust(8),
                            "P".ljust(8), "R".ljust(8), "F" + str(beta)])]
        for cat, (tp, fp, fn) in sorted(result.table(level).items()):
            p, r, f = f_score(tp, fp, fn, beta)
            lines.append(" ".join([cat.ljust(14), str(tp).ljust(8), str(fp).ljust(8), str(fn).ljust(8),
                                   str(p).ljust(8), str(r).ljust(8), str(f)]))
    c = result.counts
    lines += ["", f"{title:=^46}", "\t".join(["TP", "FP", "FN", "Prec", "Rec", "F" + str(beta)]),
              "\t".join(map(str, [c.tp, c.fp, c.fn, *c.prf(beta)])), f"{'':=^46}", ""]
    return "\n".join(lines) + "\n"


def edits_from_text(sources: Sequence[str], hypotheses: Sequence[str],
                    references: Sequence[Sequence[str]], *, lang: str, tokenize: bool = False
                    ) -> tuple[list[tuple[M2Edit, ...]], list[tuple[M2Edit, ...]]]:
    """Hypothesis and reference edits of parallel text, extracted by the language profile
    (ERRANT for English: what ``errant_parallel`` would write for the same text). ``lang`` is
    the caller's validated option (its one default is its declaration in gecscore.options)."""
    from gecscore.lang.profiles import gold_of, profile_for

    profile = profile_for(lang)
    gold = gold_of(profile, sources, references, tokenize)
    tokenized_sources = [" ".join(sentence.source) for sentence in gold.sentences]
    targets = profile.hypothesis_targets(tokenized_sources, profile.predictions(hypotheses, tokenize))
    hyp = [tuple(target_edits(sentence.source, target, 0)) for sentence, target in zip(gold.sentences, targets)]
    ref = [gold_edits(sentence) for sentence in gold.sentences]
    return hyp, ref

