"""CLEME / CLEME2.0 in HTML: each sentence's chunks in columns, coloured by label.

Input is :func:`gecscore.chunks.report.sentence_records` output. Rows are the source,
the hypothesis (coloured TP / FP_ne / FP_un / FN, as in the CLEME2.0 paper's Figure 1), the
chunk labels, the chunk weights (when weighting is on) and every reference; columns are the
chunks shared by all of them.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from gecscore.spaces.render import Bar, Style, bar_chart_html, chip, legend_html, note_html, text

LABEL_STYLES: dict[str, Style] = {
    "TP": Style("TP", "TP", "hit: corrected exactly as the reference did", "#b2f2bb", "#2b8a3e"),
    "FP_ne": Style("FP_ne", "FP_ne", "wrong: a real error, but corrected differently",
                   "#ffd8a8", "#e8590c"),
    "FP_un": Style("FP_un", "FP_un", "over: changed text the reference left alone",
                   "#e5dbff", "#7048e8"),
    "FN": Style("FN", "FN", "under: the reference corrected it, the hypothesis did not",
                "#a5d8ff", "#1971c2"),
}
UNCHANGED = Style("TN", "unchanged", "nobody changed it (TN)", "transparent", "#bbbbbb")
# The corpus ratios and the chunk label each one counts.
RATIO_LABELS = (("hit", "TP", "higher is better"), ("wrong", "FP_ne", "lower is better"),
                ("under", "FN", "lower is better"), ("over", "FP_un", "lower is better"))
SHOW_CHOICES = ("all sentences", "sentences with edits", "with TP", "with FP_ne", "with FP_un", "with FN")
EMPTY = "∅"


def legend(include_unchanged: bool = True) -> str:
    """The TP / FP_ne / FP_un / FN colour legend (plus the unchanged style)."""
    styles = [*LABEL_STYLES.values(), *([UNCHANGED] if include_unchanged else [])]
    return legend_html(styles, "Chunk colours")


def ratio_chart(result: Mapping[str, float], title: str = "Corpus: hit / wrong / under / over") -> str:
    """hit, wrong, under and over of a CLEME2.0 result as bars in their labels' colours."""
    bars = [Bar(name, float(result[name]), LABEL_STYLES[label].border, f"{label}; {note}")
            for name, label, note in RATIO_LABELS]
    return bar_chart_html(bars, title)


def _cell(content: str, classes: Sequence[str] = (), style: str = "", title: str = "",
          label: str = "") -> str:
    shown = content if content else EMPTY
    classes = [*classes, *(["gec-empty"] if not content else [])]
    attrs = "".join([
        f' class="{" ".join(classes)}"' if classes else "",
        f' style="{style}"' if style else "",
        f' title="{text(title)}"' if title else "",
        f' data-label="{text(label)}"' if label else "",
    ])
    return f"<td{attrs}>{text(shown)}</td>"


def _chunk_title(chunk: Mapping, references: Sequence[str]) -> str:
    source = chunk["source"] or EMPTY
    parts = [f'{chunk["label"]}: "{source}" -> "{chunk["hypothesis"] or EMPTY}"']
    parts += [f'reference {k + 1}: "{ref or EMPTY}"' for k, ref in enumerate(references)]
    if chunk.get("types"):
        parts.append("types: " + ", ".join(chunk["types"]))
    return "; ".join(parts)


def is_weighted(records: Sequence[Mapping]) -> bool:
    """True when any chunk weight differs from 1 (a weighting was applied)."""
    return any(abs(c["weight"] - 1.0) > 1e-9 for r in records for c in r["chunks"])


def chunk_grid(record: Mapping, show_weights: bool) -> str:
    """One sentence as a table: rows source / hypothesis / labels / weights / references."""
    chunks = record["chunks"]
    n_refs = max((len(c["references"]) for c in chunks), default=0)
    source_row = "".join(_cell(c["source"]) for c in chunks)
    hyp_cells, tag_cells, weight_cells = [], [], []
    for c in chunks:
        style = LABEL_STYLES.get(c["label"])
        if style is None:
            hyp_cells.append(_cell(c["hypothesis"], label=c["label"]))
            tag_cells.append("<td></td>")
            weight_cells.append("<td></td>")
            continue
        hyp_cells.append(_cell(c["hypothesis"], ["gec-labelled"],
                               f"background:{style.background};border-color:{style.border}",
                               _chunk_title(c, c["references"]), c["label"]))
        tag_cells.append(f"<td>{chip(style)}</td>")
        weight_cells.append(f'<td title="chunk weight">{c["weight"]:.2f}</td>')
    rows = [f"<tr><th>Source</th>{source_row}</tr>",
            f'<tr class="gec-hyp"><th>Hypothesis</th>{"".join(hyp_cells)}</tr>',
            f'<tr class="gec-tags"><th></th>{"".join(tag_cells)}</tr>']
    if show_weights:
        rows.append(f'<tr class="gec-weights"><th>weight</th>{"".join(weight_cells)}</tr>')
    chosen = record.get("reference")
    for k in range(n_refs):
        cells = []
        for c in chunks:
            ref = c["references"][k] if k < len(c["references"]) else ""
            changed = c["changed"]["references"][k] if k < len(c["changed"]["references"]) else False
            cells.append(_cell(ref, ["gec-ref-changed"] if changed else []))
        mark = " ✓" if k == chosen else ""
        cls = ' class="gec-chosen" title="the reference this sentence was scored against"' if k == chosen else ""
        rows.append(f"<tr{cls}><th>Reference {k + 1}{mark}</th>{''.join(cells)}</tr>")
    return f'<div class="gec-scroll"><table class="gec-grid">{"".join(rows)}</table></div>'


def _sentence_head(record: Mapping, ratios: bool) -> str:
    parts = [f'<b>Sentence {record["index"] + 1}</b>']
    keys = ("score", "hit", "wrong", "under", "over") if ratios else ("score", "p", "r", "f")
    parts += [f"<span>{k} <code>{record[k]:.3f}</code></span>" for k in keys if k in record]
    counts = {label: sum(1 for c in record["chunks"] if c["label"] == label) for label in LABEL_STYLES}
    parts += [f"<span>{chip(LABEL_STYLES[label], f'{n} {label}')}</span>"
              for label, n in counts.items() if n]
    if record.get("reference") is not None:
        parts.append(f'<span>scored against reference {record["reference"] + 1} ✓</span>')
    return f'<div class="gec-sentence-head">{"".join(parts)}</div>'


def wanted(record: Mapping, show: str) -> bool:
    """Whether ``record`` passes the ``show`` filter (one of :data:`SHOW_CHOICES`)."""
    labels = {c["label"] for c in record["chunks"]}
    if show == "all sentences":
        return True
    if show == "sentences with edits":
        return bool(labels & set(LABEL_STYLES))
    if show.startswith("with ") and show[5:] in LABEL_STYLES:
        return show[5:] in labels
    raise ValueError(f"unknown filter {show!r}; expected one of: {', '.join(SHOW_CHOICES)}")


def sentences_html(records: Sequence[Mapping], *, show: str = "all sentences", limit: int = 50,
                   ratios: bool = True) -> str:
    """Every wanted sentence's chunk grid (at most ``limit``), with a note on what is hidden."""
    if not records:
        return note_html("No sentences yet: paste or upload some text and press Evaluate.")
    weighted = is_weighted(records)
    picked = [r for r in records if wanted(r, show)]
    blocks = [f'<div class="gec-sentence" data-index="{r["index"]}">{_sentence_head(r, ratios)}'
              f"{chunk_grid(r, weighted)}</div>" for r in picked[:limit]]
    notes = []
    if len(picked) > limit:
        notes.append(f"Showing the first {limit} of {len(picked)} matching sentences "
                     f"(of {len(records)}); download the per-sentence file for all of them.")
    elif len(picked) < len(records):
        notes.append(f"{len(picked)} of {len(records)} sentences match \u201c{show}\u201d.")
    if not picked:
        notes = [f"No sentence matches \u201c{show}\u201d."]
    hint = ("Hover a coloured chunk for its edit types. "
            + ("Weights below the labels are the chunk weights used in the counts." if weighted else ""))
    more = "".join(f'<div class="gec-more">{text(n)}</div>' for n in notes)
    return f'<div class="gec-sentences"><div class="gec-more">{text(hint)}</div>{"".join(blocks)}{more}</div>'
