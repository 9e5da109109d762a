"""The per-error-type panel of the M2-family and CLEME Spaces: a bar chart and a table."""
from __future__ import annotations

from typing import Mapping

from gecscore.options import PER_TYPE_GRANULARITIES
from gecscore.result_text import number as formatted
from gecscore.spaces.controls import NONE_CHOICES
from gecscore.spaces.render import Bar, bar_chart_html, text

#: the Spaces' choice (the generated per_type control's): no table, or one granularity
NO_TABLE = NONE_CHOICES["per_type"]
CHOICES = (NO_TABLE, *PER_TYPE_GRANULARITIES)
#: the count columns shown (those the table has), then the ratios
COUNT_COLUMNS = ("tp", "fp", "fp_ne", "fp_un", "fn")


def option_value(choice: str | None) -> str | None:
    """The ``per_type`` option of a Space's radio choice ("none" -> None)."""
    return None if not choice or choice == NO_TABLE else choice


def headline_key(row: Mapping[str, float]) -> str:
    """The per-type ratio charted: F (M2 family, CLEME), else CLEME2.0's score."""
    return "f" if "f" in row else "score"


def per_type_html(table: Mapping) -> str:
    """A bar per type (its F or CLEME2.0 score, counts in the note) and the full table."""
    rows = table["types"]
    if not rows:
        return '<div class="gec-per-type">No edits to type.</div>'
    first = next(iter(rows.values()))
    key = headline_key(first)
    counts = [c for c in COUNT_COLUMNS if c in first]
    ratios = [c for c in first if c not in counts]
    bars = [Bar(name, float(row[key]), "#1971c2",
                " ".join(f"{c.upper()} {row[c]:g}" for c in counts)) for name, row in rows.items()]
    chart = bar_chart_html(bars, f"Per error type ({table['granularity']}): {'F' if key == 'f' else 'score'}")
    head = "".join(f"<th>{text(c)}</th>" for c in ("type", *counts, *ratios))
    body = "".join(
        f'<tr data-type="{text(name)}"><td>{text(name)}</td>'
        + "".join(f"<td>{formatted(row[c], '.4g')}</td>" for c in (*counts, *ratios)) + "</tr>"
        for name, row in rows.items())
    return (f'<div class="gec-per-type" data-granularity="{text(table["granularity"])}">{chart}'
            f'<table class="gec-per-type-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>')
