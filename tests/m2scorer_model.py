"""A test-side model of m2scorer 3.2's edit extraction (nusnlp/m2scorer, ``levenshtein.py``),
written step by step as the reference computes it, slow on purpose: the library's
``segmentation="reference"`` (gecscore.m2.reference) reaches the same edits without the cubic
closure, and tests/test_maxmatch_reference.py checks the two against each other on random
rewrites. Nothing here is optimised or shared with the library.

The steps, as the reference runs them:

1. Two Levenshtein matrices, costs (ins, del, sub) = (1, 1, 1) and (1, 1, 2). Each cell keeps
   every optimal move, in the order diagonal, deletion, insertion. Row 0 holds insertions
   labelled with the source span (j-1, j-1); column 0 deletions.
2. Each matrix's graph: breadth-first from the last cell along the kept moves; an edge per move
   of each node reached, weight 1.
3. The two graphs merged: the nodes sorted; the edge lists concatenated (an edge of both graphs
   is listed twice) and sorted; the first graph's edit kept for an edge of both.
4. Transitive arcs: for k, then i, then j over the sorted nodes, when an arc i->k and an arc k->j
   exist and their distances add up to less than i->j's, the merged edit (at most
   ``max_unchanged_words`` unchanged tokens) is appended as i->j.
5. Unchanged arcs longer than one step are removed while the edge list is iterated (Python's
   list iterator: the edge after a removed one is skipped).
6. Weights: distance, plus 0.001 per listing of a changing edge; an edge matching a gold edit
   (span, original, correction among the alternatives) -|E|. Insertion spans are matched by a
   two-pointer walk over the span's sorted edges and gold edits; after a match, the edges up to
   the matched edge's end (from the left) or start (from the right) get 0.001 each.
7. Bellman-Ford over the edge list in order, float sums, a strictly smaller cost replaces (the
   reference runs all |V| - 1 passes; here the passes stop at the first that changes nothing,
   whose successors would change nothing either); the path's changing edges, left to right.
8. Matching: system edits left to right, each against the gold edits after the last match.
"""
from __future__ import annotations

from typing import Sequence

from gecscore.types import Edit

MoveEdit = tuple[str, int, int, str, str, int]       # kind, start, end, original, correction, unchanged


def _matrix(source: list[str], hypothesis: list[str], sub_cost: int) -> dict:
    n, m = len(source), len(hypothesis)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    moves: dict = {}
    for i in range(1, n + 1):
        d[i][0] = i
        moves[(i, 0)] = [((i - 1, 0), ("del", i - 1, i, source[i - 1], "", 0))]
    for j in range(1, m + 1):
        d[0][j] = j
        moves[(0, j)] = [((0, j - 1), ("ins", j - 1, j - 1, "", hypothesis[j - 1], 0))]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            same = source[i - 1] == hypothesis[j - 1]
            options = (d[i - 1][j - 1] + (0 if same else sub_cost), d[i - 1][j] + 1, d[i][j - 1] + 1)
            d[i][j] = best = min(options)
            kept = []
            if options[0] == best:
                kept.append(((i - 1, j - 1), ("noop", i - 1, i, source[i - 1], hypothesis[j - 1], 1) if same
                             else ("sub", i - 1, i, source[i - 1], hypothesis[j - 1], 0)))
            if options[1] == best:
                kept.append(((i - 1, j), ("del", i - 1, i, source[i - 1], "", 0)))
            if options[2] == best:
                kept.append(((i, j - 1), ("ins", i, i, "", hypothesis[j - 1], 0)))
            moves[(i, j)] = kept
    return moves


def _graph(moves: dict, end: tuple[int, int]):
    nodes, edges, edits = [], [], {}
    queue = [end]
    while queue:
        v = queue.pop(0)
        if v in nodes:
            continue
        nodes.append(v)
        for previous, edit in moves.get(v, ()):
            edges.append((previous, v))
            edits[(previous, v)] = edit
            if previous not in queue:
                queue.append(previous)
    return nodes, edges, edits


def _merged(first: MoveEdit, second: MoveEdit) -> MoveEdit:
    kinds = (first[0], second[0])
    kind = first[0] if kinds in (("ins", "ins"), ("del", "del"), ("noop", "noop")) else "sub"
    join = lambda a, b: a + " " + b if a and b else a or b
    return (kind, first[1], second[2], join(first[3], second[3]), join(first[4], second[4]),
            first[5] + second[5])


def m2scorer_edits(source: Sequence[str], hypothesis: Sequence[str], gold: Sequence[Edit],
                   max_unchanged_words: int = 2) -> list[Edit]:
    """The system edits m2scorer 3.2 extracts for one annotator's ``gold`` (left to right)."""
    source, hypothesis = list(source), list(hypothesis)
    end = (len(source), len(hypothesis))
    nodes1, edges1, edits1 = _graph(_matrix(source, hypothesis, 1), end)
    nodes2, edges2, edits2 = _graph(_matrix(source, hypothesis, 2), end)
    nodes = sorted(set(nodes1) | set(nodes2))
    edges = sorted(edges1 + edges2)
    edits = {**edits2, **edits1}
    dist = dict.fromkeys(edits, 1)
    for k in nodes:                                           # step 4
        for i in nodes:
            if (i, k) not in edits:
                continue
            for j in nodes:
                if (k, j) not in edits:
                    continue
                through = dist[(i, k)] + dist[(k, j)]
                if through < dist.get((i, j), float("inf")):
                    merged = _merged(edits[(i, k)], edits[(k, j)])
                    if merged[5] <= max_unchanged_words:
                        edges.append((i, j))
                        dist[(i, j)] = through
                        edits[(i, j)] = merged
    for edge in edges:                                        # step 5: removal while iterating
        if edits[edge][0] == "noop" and dist[edge] > 1:
            edges.remove(edge)
            dist[edge] = float("inf")
            del edits[edge]
    weight = dict(dist)                                       # step 6
    golds = [(g.start, g.end, " ".join(source[g.start:g.end]),
              [" ".join(a) for a in (g.alternatives or (g.correction,))]) for g in gold]
    matches = lambda e, g: e[1] == g[0] and e[2] == g[1] and e[3] == g[2] and e[4] in g[3]
    spans: dict = {}
    for edge in edges:
        spans.setdefault(edits[edge][1:3], []).append(edge)
    for span in sorted(spans):
        arcs = sorted(spans[span])
        span_gold = [g for g in golds if (g[0], g[1]) == span]
        if span[0] != span[1]:
            for edge in arcs:
                if any(matches(edits[edge], g) for g in span_gold):
                    weight[edge] = -len(edges)
                elif edits[edge][0] != "noop":
                    weight[edge] += 0.001
            continue
        left, right, cur, g_left, g_right = 0, len(arcs) - 1, 0, 0, len(span_gold) - 1
        while left <= right:
            edge = arcs[cur]
            order = range(g_left, g_right + 1) if cur == left else reversed(range(g_left, g_right + 1))
            hit = next((i for i in order if matches(edits[edge], span_gold[i])), None)
            if hit is not None:
                weight[edge] = -len(edges)
                if cur == left:
                    g_left = hit + 1
                    left += 1
                    while left < len(arcs) and arcs[left][0] != arcs[cur][1]:
                        weight[arcs[left]] += 0.001
                        left += 1
                    cur = left
                else:
                    g_right = hit - 1
                    right -= 1
                    while right >= 0 and arcs[right][1] != arcs[cur][0]:
                        weight[arcs[right]] += 0.001
                        right -= 1
                    cur = right
                continue
            if edits[edge][0] != "noop":
                weight[edge] += 0.001
            if cur == left:
                left += 1
                cur = right
            else:
                right -= 1
                cur = left
    cost = dict.fromkeys(nodes, float("inf"))                 # step 7
    cost[(0, 0)] = 0
    path: dict = {}
    for _ in range(len(nodes) - 1):
        changed = False
        for v, w in edges:
            if cost[v] + weight[(v, w)] < cost[w]:
                cost[w] = cost[v] + weight[(v, w)]
                path[w] = v
                changed = True
        if not changed:      # the remaining passes of the reference would change nothing either
            break
    out, w = [], nodes[-1]
    while w in path:
        v = path[w]
        kind, start, stop, _, correction, _ = edits[(v, w)]
        if kind != "noop":
            out.append(Edit(start, stop, tuple(correction.split())))
        w = v
    return out[::-1]


def m2scorer_matches(system: Sequence[Edit], gold: Sequence[Edit], source: Sequence[str]) -> int:
    """Step 8: the number of correct edits as m2scorer counts them."""
    count, last = 0, 0
    for edit in system:
        for index in range(last, len(gold)):
            g = gold[index]
            if (edit.start, edit.end) == (g.start, g.end) and \
                    edit.correction in (g.alternatives or (g.correction,)):
                count += 1
                last = index + 1
    return count
