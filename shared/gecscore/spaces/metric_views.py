"""Per-sentence HTML views of PT-M2 (weighted edits), I-measure (3-way alignment with WAS
labels), DSGram (sub-scores, AHP weights, CR and the judge's reason), and one table for every
metric whose sentences get numbers only (GLEU, GREEN, GoToScorer, Scribendi, SOME, IMPARA,
LLM-S and LLM-E): source, hypothesis and the record's values.

Inputs are each metric's ``sentence_records`` output.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from gecscore.spaces.render import Bar, Style, bar_chart_html, chip, legend_html, note_html, number, text

EMPTY = "∅"

# ------------------------------------------------------------------ PT-M2

EDIT_STYLES = {
    "correct": Style("correct", "matched", "system edit that is also a gold edit (counts for P and R)",
                     "#b2f2bb", "#2b8a3e"),
    "wrong": Style("wrong", "unmatched system", "system edit no gold edit has (hurts precision)",
                   "#e5dbff", "#7048e8"),
    "missed": Style("missed", "missed gold", "gold edit the system did not make (hurts recall)",
                    "#a5d8ff", "#1971c2"),
}


def edits_legend() -> str:
    return legend_html(EDIT_STYLES.values(), "Edit colours")


def _edit_row(edit: Mapping, style: Style, weighted: bool) -> str:
    weight = f'<td class="gec-num">{edit["weight"]:.3f}</td>' if weighted else ""
    return (f'<tr data-edit="{text(style.key)}"><td>{chip(style)}</td><td>{edit["span"][0]}:{edit["span"][1]}</td>'
            f'<td>{text(edit["source"] or EMPTY)}</td><td>→</td><td><b>{text(edit["correction"] or EMPTY)}</b></td>'
            f"{weight}</tr>")


def edits_html(record: Mapping) -> str:
    """A sentence's system and gold edits, matched ones marked, with their weights."""
    weighted = any("weight" in e for e in [*record["system_edits"], *record["gold_edits"]])
    matched = {(tuple(e["span"]), e["correction"]) for e in record["system_edits"] if e["correct"]}
    head = "<tr><th></th><th>span</th><th>source</th><th></th><th>correction</th>" \
           + ("<th>weight</th>" if weighted else "") + "</tr>"
    rows = [_edit_row(e, EDIT_STYLES["correct" if e["correct"] else "wrong"], weighted)
            for e in record["system_edits"]]
    missed = [_edit_row(e, EDIT_STYLES["missed"], weighted) for e in record["gold_edits"]
              if (tuple(e["span"]), e["correction"]) not in matched]
    parts = [f'<b>Sentence {record["index"] + 1}</b>',
             *(f"<span>{k} <code>{record[k]:.3f}</code></span>" for k in ("p", "r", "f")),
             *(f"<span>{k} <code>{number(record[k], 3)}</code></span>" for k in ("correct", "proposed", "gold")),
             f'<span>gold annotator {text(record["annotator"])}</span>']
    table = (f'<table class="gec-table gec-edits">{head}'
             f'{"".join(rows + missed) or "<tr><td colspan=6>no edits</td></tr>"}</table>')
    return (f'<div class="gec-sentence" data-index="{record["index"]}"><div class="gec-sentence-head">'
            f'{"".join(parts)}</div><div class="gec-src">{text(record["source"])}</div>{table}</div>')


def prf_chart(result: Mapping, title: str) -> str:
    return bar_chart_html([Bar("precision", result["p"], "#2b8a3e", "weighted correct / proposed"),
                           Bar("recall", result["r"], "#1971c2", "weighted correct / gold"),
                           Bar("F", result["score"], "#4263eb", "the score")], title)


# ------------------------------------------------------------------ I-measure

WAS_STYLES = {
    "TP": Style("TP", "TP", "the hypothesis changed the token as the reference did", "#b2f2bb", "#2b8a3e"),
    "FP": Style("FP", "FP", "the hypothesis changed a token the reference kept", "#e5dbff", "#7048e8"),
    "FN": Style("FN", "FN", "the reference changed a token the hypothesis kept", "#a5d8ff", "#1971c2"),
    "FPN": Style("FPN", "FPN", "both changed it, differently (correction: FP and FN)", "#ffd8a8", "#e8590c"),
    "TN": Style("TN", "TN", "nobody changed it", "transparent", "#bbbbbb"),
}


def was_legend() -> str:
    return legend_html(WAS_STYLES.values(), "WAS labels (correction)")


def _correction_label(labels: Sequence[str]) -> str:
    return "FPN" if "FPN" in labels else labels[0]


def alignment_html(record: Mapping) -> str:
    """The source / hypothesis / reference alignment, one column per aligned token, labelled."""
    columns = record["alignment"]
    rows = {"Source": [], "Hypothesis": [], "Reference": [], "detection": [], "correction": []}
    for c in columns:
        label = _correction_label(c["correction"])
        style = WAS_STYLES[label]
        colour = f"background:{style.background};border-color:{style.border}"
        rows["Source"].append(f"<td>{text(c['source'] or EMPTY)}</td>")
        rows["Hypothesis"].append(f'<td class="gec-labelled" style="{colour}" data-label="{label}">'
                                  f"{text(c['hypothesis'] or EMPTY)}</td>")
        rows["Reference"].append(f"<td>{text(c['reference'] or EMPTY)}</td>")
        rows["detection"].append(f"<td>{chip(WAS_STYLES[c['detection']])}</td>")
        rows["correction"].append(f"<td>{chip(style)}</td>")
    body = "".join(f'<tr class="gec-{name.lower()}"><th>{name}</th>{"".join(cells)}</tr>'
                   for name, cells in rows.items())
    cor = record["correction"]
    parts = [f'<b>Sentence {record["index"] + 1}</b>',
             *(f"<span>correction {k.upper()} <code>{cor[k]}</code></span>" for k in ("tp", "fp", "fn", "fpn", "tn")),
             f'<span>best reference {record["reference_index"] + 1} of {record["n_candidates"]} candidate(s)</span>']
    return (f'<div class="gec-sentence" data-index="{record["index"]}"><div class="gec-sentence-head">'
            f'{"".join(parts)}</div><div class="gec-scroll"><table class="gec-grid">{body}</table></div></div>')


def imeasure_chart(result: Mapping) -> str:
    bars = []
    for aspect, colour in (("detection", "#1971c2"), ("correction", "#2b8a3e")):
        values = result[aspect]
        bars += [Bar(f"{aspect[:3]}. I", values["i"], colour, "improvement over the source (-1..1)"),
                 Bar(f"{aspect[:3]}. WAcc", values["wacc"], colour, f"baseline {values['wacc_base']:.3f}")]
    return bar_chart_html(bars, "I-measure: improvement I and weighted accuracy", lo=-1.0, hi=1.0)


# ------------------------------------------------------------------ DSGram

SUB_SCORES = (("semantic_coherence", "semantic coherence", "#7048e8"), ("edit_level", "edit level", "#e8590c"),
              ("fluency", "fluency", "#1971c2"))


def dsgram_chart(result: Mapping) -> str:
    bars = [Bar(label, result[key] or 0.0, colour, f"weight {result['weights'][key] or 0:.3f}")
            for key, label, colour in SUB_SCORES]
    bars.append(Bar("score", result["score"] or 0.0, "#2b8a3e", "AHP-weighted (0-10)"))
    return bar_chart_html(bars, "DSGram: sub-scores (0-10) and AHP weights", lo=0.0, hi=10.0, digits=2)


def judgement_html(record: Mapping) -> str:
    """One sentence: its sub-scores as bars, the AHP weights and CR, and the judge's reason."""
    bars = [Bar(label, record[key] if record[key] is not None else 0.0, colour,
                f"weight {record['weights'][key]:.3f}") for key, label, colour in SUB_SCORES]
    chart = bar_chart_html(bars, f"sub-scores, weighted score {number(record['score'], 2)}", lo=0, hi=10,
                           digits=1)
    cr = record.get("cr")
    consistency = (f"CR {cr:.3f} ({'consistent' if cr < 0.1 else 'inconsistent'})" if cr is not None
                   else "no judgment matrix")
    problems = "".join(note_html(p, "warn") for p in record.get("problems") or [])
    return (f'<div class="gec-sentence" data-index="{record["index"]}"><div class="gec-sentence-head">'
            f'<b>Sentence {record["index"] + 1}</b><span>weights: {text(record["weight_source"])}</span>'
            f"<span>{text(consistency)}</span></div>"
            f'<div class="gec-src">source: {text(record["source"])}</div>'
            f'<div class="gec-src">hypothesis: <b>{text(record["hypothesis"])}</b></div>{chart}'
            f'<div class="gec-reason"><b>Judge\'s reason:</b> {text(record.get("reason") or "(none)")}</div>'
            f"{problems}</div>")


def records_html(records: Sequence[Mapping], draw, limit: int = 50) -> str:
    """Up to ``limit`` sentences drawn with ``draw`` and a note on what is hidden."""
    if not records:
        return NO_SENTENCES
    return "".join(draw(r) for r in records[:limit]) + _more(len(records), limit)


NO_SENTENCES = note_html("No sentences yet: paste or upload some text and press Evaluate.")


def _more(count: int, limit: int) -> str:
    return (f'<div class="gec-more">Showing the first {limit} of {count} sentences; download the '
            f"per-sentence file for all of them.</div>" if count > limit else "")


# ------------------------------------------------------------------ sentence scores (any metric)

MISSING = "–"   # a value the sentence has none of (a sentence the judge failed, an unchanged one)


def with_texts(records: Sequence[Mapping], sources: Sequence[str], hypotheses: Sequence[str]) -> list[dict]:
    """The records with each sentence's ``source`` and ``hypothesis`` where the metric's records
    do not carry them (most give numbers only)."""
    return [{"source": source, "hypothesis": hypothesis, **record}
            for record, source, hypothesis in zip(records, sources, hypotheses, strict=True)]


def _cell(value) -> str:
    if value is None:
        return MISSING
    if isinstance(value, (list, tuple)):   # e.g. counts per n-gram order: short
        return ", ".join(f"{v:.4g}" if isinstance(v, float) else _cell(v) for v in value) or MISSING
    return number(value, 4)


def _cell_class(position: int, value) -> str:
    """The score (the first column) in bold; text (a target as shown, a judge's problems) as text."""
    if position == 0:
        return ' class="gec-score"'
    texts = isinstance(value, str) or (isinstance(value, (list, tuple)) and any(isinstance(v, str) for v in value))
    return ' class="gec-text"' if texts else ""


def sentence_scores_html(records: Sequence[Mapping], columns: Sequence[str], limit: int = 50) -> str:
    """One row per sentence (up to ``limit``): its number, source, hypothesis, and the record's
    ``columns`` (the first, the sentence's score, in bold); a value the record lacks shows
    as a dash."""
    if not records:
        return NO_SENTENCES
    head = "".join(f"<th>{text(c)}</th>" for c in ("#", "source", "hypothesis", *columns))
    rows = []
    for record in records[:limit]:
        values = "".join(f'<td data-key="{text(c)}"{_cell_class(k, record.get(c))}>{_cell(record.get(c))}</td>'
                         for k, c in enumerate(columns))
        rows.append(f'<tr data-index="{record["index"]}"><td>{record["index"] + 1}</td>'
                    f'<td class="gec-text">{text(record["source"])}</td>'
                    f'<td class="gec-text"><b>{text(record["hypothesis"])}</b></td>{values}</tr>')
    return (f'<div class="gec-scroll"><table class="gec-table gec-sentence-scores"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>{_more(len(records), limit)}')
