"""A result as the text ``gecscore <metric>`` prints: the signature, then one aligned line per
value, then the per-error-type table if there is one.

A :class:`gecscore.metric.Result` formats itself with :func:`values_text` (its ``format``, as
sacreBLEU's ``Score.format``); a metric whose result reads better another way (the I-measure's
table, DSGram's one-line weights) says so in its own result class, next to the metric, and may
build on :func:`values_text`.
"""
from __future__ import annotations

from typing import Any, Mapping

# keys every contract dictionary has, or lays out apart, rather than one value per line
_NOT_LISTED = ("metric", "signature", "per_type")


def values_text(result: Mapping[str, Any]) -> str:
    """The signature, each value (a float to four decimals) under it, then the per-type table."""
    width = max(len(key) for key in result)
    lines = [str(result["signature"])]
    for key, value in result.items():
        if key in _NOT_LISTED:
            continue
        text = f"{value:.4f}" if isinstance(value, float) else str(value)
        lines.append(f"  {key:<{width}}  {text}")
    if "per_type" in result:
        lines += per_type_lines(result["per_type"])
    return "\n".join(lines)


def per_type_lines(table: Mapping[str, Any]) -> list[str]:
    """The per-error-type table (one row per type, the columns its metric reports), laid out
    as errant_compare -cat prints its categories."""
    lines = [f"  per type ({table['granularity']}, {table['rule']}):"]
    rows = table["types"]
    columns = list(next(iter(rows.values()))) if rows else []
    lines.append("  " + " ".join(["Category".ljust(14), *(c.upper().ljust(10) for c in columns)]).rstrip())
    for name, row in rows.items():
        cells = [f"{row[c]:.4g}" if isinstance(row[c], float) else str(row[c]) for c in columns]
        lines.append("  " + " ".join([name.ljust(14), *(c.ljust(10) for c in cells)]).rstrip())
    return lines
