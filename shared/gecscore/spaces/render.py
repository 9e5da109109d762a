"""Small HTML building blocks shared by the Spaces: legend, bar chart, result table, notes.

Everything returns a self-contained HTML string styled by :data:`CSS` (class names start
with ``gec-``), so the same output renders in a Space, a notebook or a test.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Iterable, Mapping, Sequence


@dataclass(frozen=True)
class Style:
    """How one category looks everywhere: its tag, a short meaning, and its colours."""

    key: str
    tag: str
    meaning: str
    background: str
    border: str


@dataclass(frozen=True)
class Bar:
    """One bar of a chart: a value in [lo, hi], drawn in ``colour``."""

    label: str
    value: float
    colour: str
    note: str = ""


def text(value) -> str:
    """HTML-escaped text."""
    return escape(str(value), quote=True)


def number(value, digits: int = 4) -> str:
    """Floats rounded for display ("undefined" for NaN, never "nan"); everything else as text."""
    from gecscore.result_text import number as formatted

    if isinstance(value, bool) or value is None:
        return text(value)
    if isinstance(value, float):
        return formatted(value, f".{digits}f")
    return text(value)


def chip(style: Style, label: str | None = None) -> str:
    """A coloured tag, e.g. the ``TP`` chip of the legend."""
    return (f'<span class="gec-chip" style="background:{style.background};border-color:{style.border}">'
            f"{text(label or style.tag)}</span>")


def legend_html(styles: Iterable[Style], title: str = "Legend") -> str:
    """A row of coloured tags, each with its meaning in plain words."""
    items = "".join(f'<div class="gec-legend-item" data-label="{text(s.key)}">{chip(s)}'
                    f'<span class="gec-legend-text">{text(s.meaning)}</span></div>' for s in styles)
    return f'<div class="gec-legend"><div class="gec-legend-title">{text(title)}</div>{items}</div>'


def bar_chart_html(bars: Sequence[Bar], title: str, *, lo: float = 0.0, hi: float = 1.0,
                   digits: int = 3) -> str:
    """A horizontal bar chart in plain HTML/CSS (no plotting library, no JavaScript)."""
    span = (hi - lo) or 1.0
    rows = []
    for bar in bars:
        share = min(max((bar.value - lo) / span, 0.0), 1.0) * 100
        rows.append(
            f'<div class="gec-bar-row" data-bar="{text(bar.label)}">'
            f'<div class="gec-bar-label">{text(bar.label)}</div>'
            f'<div class="gec-bar-track"><div class="gec-bar-fill" style="width:{share:.1f}%;'
            f'background:{bar.colour}"></div></div>'
            f'<div class="gec-bar-value">{bar.value:.{digits}f}</div>'
            f'<div class="gec-bar-note">{text(bar.note)}</div></div>')
    return f'<div class="gec-chart"><div class="gec-chart-title">{text(title)}</div>{"".join(rows)}</div>'


def key_value_table_html(rows: Sequence[tuple[str, object]], title: str | None = None,
                         highlight: str | None = None, digits: int = 4) -> str:
    """A two-column table (name, value); the ``highlight`` row is emphasised."""
    body = "".join(
        f'<tr class="{"gec-highlight" if name == highlight else ""}" data-key="{text(name)}">'
        f"<th>{text(name)}</th><td>{number(value, digits)}</td></tr>" for name, value in rows)
    caption = f"<caption>{text(title)}</caption>" if title else ""
    return f'<table class="gec-table">{caption}<tbody>{body}</tbody></table>'


def result_table_html(result: Mapping[str, object], groups: Sequence[tuple[str, Sequence[str]]],
                      headline: str = "score") -> str:
    """The contract dictionary as tables: one per group of keys, then the signature.

    Nested dictionaries (I-measure's ``detection``/``correction``) are addressed as
    ``"<outer> <inner>"`` keys, e.g. ``"correction i"``.
    """
    result = flatten(result)
    tables = []
    for title, keys in groups:
        rows = [(key, result[key]) for key in keys if key in result]
        if rows:
            tables.append(key_value_table_html(rows, title, highlight=headline))
    signature = result.get("signature")
    sig = (f'<div class="gec-signature"><span>signature</span> <code>{text(signature)}</code></div>'
           if signature else "")
    return f'<div class="gec-result" data-metric="{text(result.get("metric", ""))}">' \
           f'<div class="gec-result-tables">{"".join(tables)}</div>{sig}</div>'


def flatten(result: Mapping[str, object]) -> dict[str, object]:
    """``{"a": {"b": 1}}`` -> ``{"a b": 1}`` (one level), other keys unchanged."""
    flat: dict[str, object] = {}
    for key, value in result.items():
        if isinstance(value, Mapping):
            flat.update({f"{key} {inner}": v for inner, v in value.items()})
        else:
            flat[key] = value
    return flat


def note_html(message: str, kind: str = "info") -> str:
    """A short boxed message (``info``, ``warn`` or ``error``)."""
    return f'<div class="gec-note gec-note-{text(kind)}">{text(message)}</div>'


def placeholder_html(message: str) -> str:
    """What an output area shows before the first run."""
    return f'<div class="gec-placeholder">{text(message)}</div>'


CSS = """
.gec-per-type-table { border-collapse: collapse; margin-top: 8px; font-size: 0.9em; }
.gec-per-type-table th, .gec-per-type-table td { border: 1px solid #dee2e6; padding: 2px 8px; text-align: right; }
.gec-per-type-table td:first-child, .gec-per-type-table th:first-child { text-align: left; }
.gec-legend{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.6rem .8rem;
  border:1px solid var(--border-color-primary,#ddd);border-radius:8px;margin:.25rem 0}
.gec-legend-title{font-weight:600;margin-right:.25rem}
.gec-legend-item{display:flex;align-items:center;gap:.4rem}
.gec-legend-text{font-size:.9em}
.gec-chip{display:inline-block;padding:.1rem .45rem;border:2px solid;border-radius:6px;font-weight:700;
  font-family:ui-monospace,monospace;font-size:.85em;color:#111}
.gec-chart{padding:.5rem .8rem;border:1px solid var(--border-color-primary,#ddd);border-radius:8px}
.gec-chart-title{font-weight:600;margin-bottom:.4rem}
.gec-bar-row{display:grid;grid-template-columns:7.5rem 1fr 4rem 11rem;gap:.5rem;align-items:center;margin:.25rem 0}
.gec-bar-label{font-weight:600}
.gec-bar-track{background:#eee;border-radius:4px;height:1.2rem;overflow:hidden}
.gec-bar-fill{height:100%;border-radius:4px}
.gec-bar-value{font-family:ui-monospace,monospace;text-align:right}
.gec-bar-note{font-size:.85em;opacity:.75}
.gec-result-tables{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
.gec-table{border-collapse:collapse;min-width:12rem}
.gec-table caption{text-align:left;font-weight:600;padding:.2rem 0}
.gec-table th,.gec-table td{border:1px solid var(--border-color-primary,#ddd);padding:.2rem .6rem;text-align:left}
.gec-table td{font-family:ui-monospace,monospace;text-align:right}
.gec-table tr.gec-highlight th,.gec-table tr.gec-highlight td{font-weight:700;background:rgba(255,220,80,.25)}
.gec-signature{margin-top:.5rem;font-size:.85em;word-break:break-all}
.gec-signature span{opacity:.7}
.gec-note{padding:.4rem .7rem;border-radius:6px;margin:.3rem 0;border:1px solid}
.gec-note-info{border-color:#74c0fc;background:rgba(116,192,252,.12)}
.gec-note-warn{border-color:#ffa94d;background:rgba(255,169,77,.15)}
.gec-note-error{border-color:#fa5252;background:rgba(250,82,82,.12)}
.gec-placeholder{padding:1rem;opacity:.6;font-style:italic}
.gec-sentence{margin:.9rem 0 1.2rem 0}
.gec-sentence-head{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;margin-bottom:.3rem}
.gec-sentence-head b{font-size:1.05em}
.gec-scroll{overflow-x:auto}
.gec-grid{border-collapse:separate !important;border-spacing:3px;font-size:.95em;border:none !important;
  width:auto !important;margin:0 !important}
.gec-grid tr,.gec-grid tbody{border:none !important;background:none !important}
.gec-grid th{text-align:right;padding:.2rem .5rem;white-space:nowrap;font-weight:600;opacity:.85;
  border:none !important;background:none !important}
.gec-grid td{padding:.25rem .45rem;border:1px dashed #bbb;border-radius:5px;white-space:nowrap;
  text-align:center;color:inherit}
.gec-grid td.gec-labelled{border:2px solid;color:#111;font-weight:600}
.gec-grid td.gec-ref-changed{background:rgba(128,128,128,.14);font-weight:600}
.gec-grid td.gec-empty{opacity:.55;font-style:italic}
.gec-grid tr.gec-chosen th{color:#1a7f4b}
.gec-grid tr.gec-tags td,.gec-grid tr.gec-weights td{border:none;font-size:.8em;padding:0 .3rem}
.gec-grid tr.gec-weights td{font-family:ui-monospace,monospace;opacity:.85}
.gec-more{opacity:.7;font-style:italic;margin-top:.5rem}
.gec-sentence-scores td.gec-text{font-family:inherit;text-align:left;white-space:normal}
.gec-sentence-scores td.gec-score{font-weight:700}
"""
