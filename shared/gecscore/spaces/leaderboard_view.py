"""The leaderboard Space's page, as self-contained HTML (no plotting library, no JavaScript):
the board (published systems and the upload under every configuration), which columns to
believe (the metric clusters on the benchmark's human ranking), the upload's per-type table
beside the best published system, and two plots, each score with its interval under one
configuration and the upload's rank across the configurations.

Everything is drawn from a :class:`gecscore.leaderboard.upload.PublishedBoard` (before any
upload) or an :class:`gecscore.leaderboard.upload.UploadResult`; the cells carry
``data-system`` / ``data-config`` attributes so a test reads the page as a person reads it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from gecscore.spaces.render import note_html, number, text

UPLOAD_COLOUR = "#e8590c"
SYSTEM_COLOUR = "#4263eb"
CSS = """
.gec-lb-scroll{overflow-x:auto;max-width:100%}
.gec-lb{border-collapse:collapse;font-size:.86em}
.gec-lb th,.gec-lb td{border:1px solid var(--border-color-primary,#ddd);padding:.1rem .4rem !important;white-space:nowrap;
  line-height:1.25 !important}
.gec-lb td{font-family:ui-monospace,monospace;text-align:right}
.gec-lb th.gec-lb-system,.gec-lb td.gec-lb-system{text-align:left;font-family:inherit;font-weight:600;position:sticky;left:0;
  background:var(--background-fill-primary,#fff)}
.gec-lb thead th{writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;text-align:left;max-height:12rem}
.gec-lb thead th.gec-lb-system{writing-mode:horizontal-tb;transform:none}
.gec-lb thead th.gec-lb-trust-1{background:rgba(43,138,62,.16)}
.gec-lb tr.gec-lb-upload td,.gec-lb tr.gec-lb-upload th{background:rgba(232,89,12,.14);font-weight:700}
.gec-lb tr.gec-lb-foot td,.gec-lb tr.gec-lb-foot th{border-top:2px solid #999;font-style:italic}
.gec-lb sup{font-size:.72em;opacity:.65;margin-left:.15rem}
.gec-lb-caption{margin:.3rem 0 .5rem 0;font-size:.9em}
.gec-lb-badge{display:inline-block;padding:0 .35rem;border-radius:5px;border:1px solid #2b8a3e;color:#2b8a3e;
  font-size:.8em;margin-left:.3rem}
.gec-lb-plot{font-family:ui-sans-serif,system-ui,sans-serif;max-width:100%;height:auto}
.gec-lb-plot text{font-size:11px;fill:currentColor}
"""


def style_html() -> str:
    """The page's extra styles (put once on the page)."""
    return f"<style>{CSS}</style>"


@dataclass(frozen=True)
class BoardView:
    """What the page draws of a board: its systems and configurations, the cells, the upload's
    name (None before an upload), each configuration's rank on the human ranking (``trust``),
    the systems' significance clusters and intervals where computed."""

    systems: Sequence[str]
    configs: Sequence[str]
    scores: Mapping[str, Mapping[str, float]]          # system -> config -> score
    upload: str | None = None
    trust: Mapping[str, int] | None = None
    clusters: Mapping[str, Mapping[str, int]] | None = None   # config -> system -> cluster rank
    intervals: Mapping[str, Mapping[str, tuple[float, float]]] | None = None   # config -> system -> (low, high)

    @classmethod
    def of_published(cls, published) -> "BoardView":
        board = published.board
        return cls(list(board.systems), [c.name for c in board.configs],
                   {s: {c.name: board.scores[s][c.name].score for c in board.configs} for s in board.systems},
                   None, published.trust(),
                   {c: r.rank_of() for c, r in board.system_clusters.items()},
                   {c: {s: (i.low, i.high) for s, i in b.intervals.items()} for c, b in board.bootstrap.items()})

    @classmethod
    def of_result(cls, result) -> "BoardView":
        board = result.board
        clusters = None if result.clusters is None else {c: r.rank_of() for c, r in result.clusters.items()}
        intervals = None if result.intervals is None else {
            c: {s: (i.low, i.high) for s, i in by_s.items()} for c, by_s in result.intervals.items()}
        return cls(list(board.systems), result.configs,
                   {s: {c: board.scores[s][c].score for c in result.configs} for s in board.systems},
                   result.upload, result.published.trust(), clusters, intervals)

    def ordered_configs(self) -> list[str]:
        """The configurations, those the humans' ranking puts first first (stable otherwise)."""
        trust = self.trust or {}
        return sorted(self.configs, key=lambda c: trust.get(c, math.inf))

    def ordered_systems(self, config: str) -> list[str]:
        """The systems by their score under ``config``, best first (undefined last)."""
        def key(system: str) -> tuple[bool, float, str]:
            value = self.scores[system][config]
            return (math.isnan(value), -value if not math.isnan(value) else 0.0, system)
        return sorted(self.systems, key=key)

    def rank(self, config: str, system: str) -> tuple[int, int] | None:
        from gecscore.leaderboard.upload import rank_among

        column = [self.scores[s][config] for s in self.systems]
        return rank_among(self.scores[system][config], column)


def board_html(view: BoardView) -> str:
    """The board: a row per system (best first under the most trusted configuration), a column
    per configuration (the most trusted first, rank-1 ones shaded), each cell the score with
    its significance cluster as a superscript; the upload's row highlighted, and under it its
    rank and cluster under each configuration."""
    configs = view.ordered_configs()
    first = configs[0]
    trust = view.trust or {}
    head = "".join(f'<th class="gec-lb-trust-{trust.get(c, 0)}" data-config="{text(c)}" '
                   f'title="{text(_trust_title(c, trust))}">{text(c)}</th>' for c in configs)
    rows = []
    for system in view.ordered_systems(first):
        upload = system == view.upload
        cells = "".join(f'<td data-config="{text(c)}">{_cell(view, c, system)}</td>' for c in configs)
        rows.append(f'<tr class="{"gec-lb-upload" if upload else ""}" data-system="{text(system)}">'
                    f'<td class="gec-lb-system">{text(system)}{" (yours)" if upload else ""}</td>{cells}</tr>')
    if view.upload is not None:
        ranks = "".join(f'<td data-config="{text(c)}">{_rank_text(view.rank(c, view.upload))}</td>' for c in configs)
        rows.append(f'<tr class="gec-lb-foot" data-row="rank"><th class="gec-lb-system">your rank</th>{ranks}</tr>')
        if view.clusters is not None:
            clusters = "".join(f'<td data-config="{text(c)}">{view.clusters.get(c, {}).get(view.upload, "-")}</td>'
                               for c in configs)
            rows.append(f'<tr class="gec-lb-foot" data-row="cluster"><th class="gec-lb-system">your cluster</th>'
                        f"{clusters}</tr>")
    caption = (f"Sorted by <code>{text(first)}</code>"
               + (", the configuration that agrees best with the humans" if trust else "")
               + ". Columns shaded green: rank 1 on the human ranking (no configuration agrees significantly better)."
               if trust else f"Sorted by <code>{text(first)}</code>; this benchmark has no human ranking to say "
                             "which columns to believe.")
    if view.clusters is not None:
        caption += (" The small number after a score is the system's significance cluster under that configuration "
                    "(1 = no system is significantly better; paired approximate randomisation, as "
                    "<code>gecscore compare</code>).")
    return (f'<div class="gec-lb-caption">{caption}</div><div class="gec-lb-scroll">'
            f'<table class="gec-lb" id="gec-lb-table"><thead><tr><th class="gec-lb-system">system</th>{head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div>')


def _trust_title(config: str, trust: Mapping[str, int]) -> str:
    if config not in trust:
        return config
    return f"{config}: rank {trust[config]} at agreeing with the human ranking"


def _cell(view: BoardView, config: str, system: str) -> str:
    score = number(view.scores[system][config])
    cluster = (view.clusters or {}).get(config, {}).get(system)
    return score + (f"<sup>{cluster}</sup>" if cluster is not None else "")


def _rank_text(rank: tuple[int, int] | None) -> str:
    return "-" if rank is None else f"{rank[0]} of {rank[1]}"


def trust_html(published) -> str:
    """Which columns to believe: each configuration's correlation with each human ranking of
    the benchmark and its rank in the significance clusters (PERM-BOTH), or a note when the
    benchmark has none."""
    rankings = published.metric_rankings()
    if not rankings:
        return note_html("This benchmark has no human ranking: no configuration can be preferred on evidence here "
                         "(the page 'choosing a metric' ranks them on CoNLL-2014 and SEEDA).", "info")
    humans = list(rankings)
    primary = published.data.benchmark.primary_human
    configs = published.board.configs
    trust = published.trust()
    order = sorted((c.name for c in configs), key=lambda c: trust.get(c, math.inf))
    head = "".join(f"<th>{text(h)}{' (primary)' if h == primary else ''}</th><th>rank</th>" for h in humans)
    rows = []
    for config in order:
        cells = []
        for human in humans:
            result = rankings[human]
            values = dict(zip(result.ranking.names, result.ranking.values)) if result.ranking else {}
            ranks = result.ranking.rank_of() if result.ranking else {}
            cells.append(f"<td>{number(values.get(config), 3) if config in values else '-'}</td>"
                         f"<td>{ranks.get(config, '-')}</td>")
        rows.append(f'<tr data-config="{text(config)}"><td class="gec-lb-system">{text(config)}</td>{"".join(cells)}</tr>')
    first = rankings[primary] if primary in rankings else next(iter(rankings.values()))
    statistic = first.statistic
    options = published.options.clusters
    caption = (f"Which columns to believe: each configuration's {text(statistic)} with the human ranking of the "
               f"published systems ({len(first.systems)} systems), and its rank: PERM-BOTH, {options.draws} draws, "
               f"alpha {options.alpha:g}; rank 1 = no configuration agrees significantly better "
               "(as the page 'choosing a metric'). A shared rank is not proof of equal quality.")
    return (f'<div class="gec-lb-caption">{caption}</div><div class="gec-lb-scroll"><table class="gec-lb" '
            f'id="gec-lb-trust"><tr><th class="gec-lb-system">configuration</th>{head}</tr>{"".join(rows)}</table></div>')


def per_type_html(result) -> str:
    """The upload's ERRANT per-type counts and F beside the best published system's."""
    if not result.per_type:
        return note_html(result.per_type_note or "no per-type table", "info")
    mine = result.per_type.get(result.upload) or {"types": {}}
    best = result.per_type.get(result.best) or {"types": {}}
    types = sorted(set(mine["types"]) | set(best["types"]),
                   key=lambda t: -(mine["types"].get(t, {}).get("tp", 0) + mine["types"].get(t, {}).get("fn", 0)))
    columns = ("tp", "fp", "fn", "f")

    def cells(table: Mapping, kind: str) -> str:
        row = table["types"].get(kind)
        if row is None:
            return "".join("<td>-</td>" for _ in columns)
        return "".join(f"<td>{number(row[c], 3) if c == 'f' else number(row[c], 0) if isinstance(row[c], float) else row[c]}"
                       "</td>" for c in columns)

    head = "".join(f"<th>{c.upper() if c != 'f' else 'F0.5'}</th>" for c in columns)
    rows = "".join(f'<tr data-type="{text(t)}"><td class="gec-lb-system">{text(t)}</td>{cells(mine, t)}{cells(best, t)}</tr>'
                   for t in types)
    caption = (f"ERRANT's per-type counts (<code>errant_compare -cat 2</code>) of your system and of "
               f"<b>{text(result.best)}</b>, the best published system by ERRANT F0.5, on the ERRANT-typed gold "
               f"<code>{text(result.per_type_refset_name)}</code>; types by how many gold edits of yours they hold.")
    return (f'<div class="gec-lb-caption">{caption}</div><div class="gec-lb-scroll"><table class="gec-lb" '
            f'id="gec-lb-per-type"><tr><th class="gec-lb-system" rowspan="2">type</th>'
            f'<th colspan="4" class="gec-lb-system">{text(result.upload)} (yours)</th>'
            f'<th colspan="4" class="gec-lb-system">{text(result.best)}</th></tr><tr>{head}{head}</tr>{rows}</table></div>')


def interval_plot_svg(view: BoardView, config: str) -> str:
    """Each system's score under ``config`` with its interval (a whisker), best at the top;
    the upload in orange."""
    systems = [s for s in view.ordered_systems(config) if not math.isnan(view.scores[s][config])]
    if not systems:
        return note_html(f"no defined score under {config}", "info")
    intervals = (view.intervals or {}).get(config, {})
    values = [view.scores[s][config] for s in systems]
    values += [v for s in systems for v in intervals.get(s, ()) if not math.isnan(v)]
    low, high = min(values), max(values)
    pad = (high - low) * 0.05 or 0.01
    low, high = low - pad, high + pad
    label_w, width, row_h, top = 130, 620, 18, 24
    plot_w = width - label_w - 20
    height = top + row_h * len(systems) + 26

    def x(value: float) -> float:
        return label_w + (value - low) / (high - low) * plot_w

    parts = [f'<text x="{label_w}" y="14">{text(config)}: score and '
             f'{"95% interval (paired bootstrap over sentences)" if intervals else "score (intervals follow)"}</text>']
    for k in range(5):
        value = low + (high - low) * k / 4
        parts.append(f'<line x1="{x(value):.1f}" x2="{x(value):.1f}" y1="{top - 4}" y2="{height - 22}" stroke="#ddd"/>'
                     f'<text x="{x(value):.1f}" y="{height - 8}" text-anchor="middle">{value:.3f}</text>')
    for i, system in enumerate(systems):
        y = top + row_h * i + row_h / 2
        colour = UPLOAD_COLOUR if system == view.upload else SYSTEM_COLOUR
        interval = intervals.get(system)
        if interval and not any(math.isnan(v) for v in interval):
            parts.append(f'<line x1="{x(interval[0]):.1f}" x2="{x(interval[1]):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
        weight = ' font-weight="700"' if system == view.upload else ""
        parts.append(f'<circle cx="{x(view.scores[system][config]):.1f}" cy="{y:.1f}" r="4" fill="{colour}" '
                     f'data-system="{text(system)}"/>'
                     f'<text x="{label_w - 6}" y="{y + 4:.1f}" text-anchor="end"{weight}>{text(system)}</text>')
    return (f'<svg class="gec-lb-plot" id="gec-lb-intervals" data-config="{text(config)}" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" role="img">{"".join(parts)}</svg>')


def rank_plot_svg(view: BoardView) -> str:
    """The upload's rank under each configuration (most trusted first): a dot on a track of
    the ranks, 1 at the left, and the span of ranks its significance cluster shares."""
    if view.upload is None:
        return ""
    configs = view.ordered_configs()
    n = len(view.systems)
    label_w, width, row_h, top = 190, 680, 18, 24
    plot_w = width - label_w - 160
    height = top + row_h * len(configs) + 8

    def x(rank: float) -> float:
        return label_w + (rank - 1) / max(1, n - 1) * plot_w

    trust = view.trust or {}
    parts = [f'<text x="{label_w}" y="14">your rank under each configuration (1 = best of {n})</text>']
    for i, config in enumerate(configs):
        y = top + row_h * i + row_h / 2
        parts.append(f'<line x1="{x(1):.1f}" x2="{x(n):.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd" stroke-width="6" '
                     f'stroke-linecap="round"/>')
        cluster = (view.clusters or {}).get(config, {})
        if view.upload in cluster:
            mates = [view.rank(config, s) for s, c in cluster.items() if c == cluster[view.upload]]
            places = [r[0] for r in mates if r]
            if places:
                parts.append(f'<line x1="{x(min(places)):.1f}" x2="{x(max(places)):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                             f'stroke="{UPLOAD_COLOUR}" stroke-opacity=".3" stroke-width="6" stroke-linecap="round"/>')
        rank = view.rank(config, view.upload)
        badge = f" [{trust[config]}]" if config in trust else ""
        parts.append(f'<text x="{label_w - 6}" y="{y + 4:.1f}" text-anchor="end">{text(config)}{badge}</text>')
        if rank is not None:
            parts.append(f'<circle cx="{x(rank[0]):.1f}" cy="{y:.1f}" r="5" fill="{UPLOAD_COLOUR}" '
                         f'data-config="{text(config)}" data-rank="{rank[0]}"/>'
                         f'<text x="{x(n) + 10:.1f}" y="{y + 4:.1f}">{rank[0]} of {rank[1]}'
                         f'{f" (cluster {cluster[view.upload]})" if view.upload in cluster else ""}</text>')
    notes = ("[n]: the configuration's rank on the human ranking;",
             "shaded: the ranks of the systems in your significance cluster")
    lines = "".join(f'<text x="{label_w}" y="{height + 10 + 13 * k}" opacity=".7">{text(line)}</text>'
                    for k, line in enumerate(notes))
    return (f'<svg class="gec-lb-plot" id="gec-lb-ranks" width="{width}" height="{height + 30}" '
            f'viewBox="0 0 {width} {height + 30}" role="img">{"".join(parts)}{lines}</svg>')


def summary_html(result, advice: Sequence[str] = ()) -> str:
    """One paragraph: what was scored, where it ranks best, how long it took; then ``advice``
    (what the user can act on: untokenised text) and, folded, the warnings the command line
    prints while scoring it."""
    view = BoardView.of_result(result)
    trust = view.trust or {}
    ranks = {c: r for c, r in result.ranks.items() if r is not None}
    published = result.published
    lines = [f"<b>{text(result.upload)}</b> on {text(published.data.benchmark.label)} ({result.board.n_sentences:,} "
             f"sentences), scored with {len(result.configs)} configurations in "
             f"{result.seconds.get('scoring', 0) + result.seconds.get('per type', 0):.1f} s."]
    trusted = [c for c in result.configs if trust.get(c) == 1 and c in ranks]
    if trusted:
        best = min(trusted, key=lambda c: ranks[c][0])
        lines.append(f"On the configurations that agree best with the humans (rank 1), it ranks "
                     f"{', '.join(f'{ranks[c][0]} of {ranks[c][1]} ({text(c)})' for c in trusted[:4])}"
                     f"{' ...' if len(trusted) > 4 else ''}; best {ranks[best][0]} under <code>{text(best)}</code>.")
    elif ranks:
        best = min(ranks, key=lambda c: ranks[c][0])
        lines.append(f"Its best rank: {ranks[best][0]} of {ranks[best][1]} under <code>{text(best)}</code>.")
    notes = "".join(note_html(w, "warn") for w in advice)
    if result.warnings:
        items = "".join(f"<li>{text(w)}</li>" for w in result.warnings)
        notes += (f'<details class="gec-lb-caption"><summary>{len(result.warnings)} warning(s) the command line prints '
                  f"for this output</summary><ul>{items}</ul></details>")
    return f'<div class="gec-lb-caption" id="gec-lb-summary">{" ".join(lines)}</div>{notes}'


def left_out_html(published) -> str:
    """The presets this board does not score, with the reason."""
    if not published.left_out:
        return ""
    items = "".join(f"<li><code>{text(c)}</code>: {text(r)}</li>" for c, r in published.left_out.items())
    return f'<details class="gec-lb-caption"><summary>Not scored here ({len(published.left_out)})</summary><ul>{items}</ul></details>'
