"""A result as the text ``gecscore <metric>`` prints: the signature, then one aligned line per
value, then the per-error-type table if there is one.

A :class:`gecscore.metric.Result` formats itself with :func:`values_text` (its ``format``, as
sacreBLEU's ``Score.format``); a metric whose result reads better another way (the I-measure's
table, DSGram's one-line weights) says so in its own result class, next to the metric, and may
build on :func:`values_text`.
"""
from __future__ import annotations

import math
import re
from typing import Any, Mapping

#: what a person reads where a statistic has no value (NaN or None): a correlation of constant
#: scores, a ratio with nothing to divide by. JSON says null; text never prints "nan".
UNDEFINED = "undefined"
# keys every contract dictionary has, or lays out apart, rather than one value per line
_NOT_LISTED = ("metric", "signature", "per_type")


def number(value: Any, spec: str = ".4f", undefined: str = UNDEFINED) -> str:
    """``value`` formatted with ``spec`` (e.g. ``".4f"``, ``">8.4f"``), or ``undefined`` for None
    and NaN, kept to the spec's alignment and width (every number a person reads goes through
    here: results, leaderboard pages, comparisons, robustness)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        layout = re.match(r"[<>^]?\d*", spec).group()
        return format(undefined, layout)
    return format(value, spec)


def values_text(result: Mapping[str, Any]) -> str:
    """The signature, each value (a float to four decimals) under it, then the per-type table."""
    width = max(len(key) for key in result)
    lines = [str(result["signature"])]
    for key, value in result.items():
        if key in _NOT_LISTED:
            continue
        text = number(value) if isinstance(value, float) or value is None else str(value)
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
        cells = [number(row[c], ".4g") if isinstance(row[c], float) else str(row[c]) for c in columns]
        lines.append("  " + " ".join([name.ljust(14), *(c.ljust(10) for c in cells)]).rstrip())
    return lines
