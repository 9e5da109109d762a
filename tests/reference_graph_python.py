"""The library's former Python implementation of the reference segmentation (steps 1-5 of
gecscore.m2.reference), kept in the tests as an oracle: the compiled kernels must return the
same edit graph (arcs, listings, order) and the same edit sequences. Its transitive closure
materialises every arc in Python dicts (slow: minutes on whole-sentence rewrites)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from gecscore.compiled import njit
from gecscore.m2.config import MAX_UNCHANGED_WORDS
from gecscore.m2.maxmatch import _DELETION, _DIAGONAL, _INSERTION, optimal_moves
from gecscore.types import Edit, Tokens

Node = tuple[int, int]

RefEdit = tuple[str, int, int, str, str, int]   # (kind, start, end, original, correction, unchanged)
_EPSILON = 0.001
MAX_REFERENCE_ARCS = 10 ** 12       # no bound: an oracle


class ReferenceGraphTooLarge(Exception):
    """The reference edit graph of one sentence passed ``MAX_REFERENCE_ARCS`` arcs."""
_INF = float("inf")


def _reference_predecessors(moves: np.ndarray, source: Tokens, hypothesis: Tokens, i: int, j: int
                            ) -> list[tuple[Node, RefEdit]]:
    """The optimal predecessors of cell (i, j), in the order diagonal, deletion, insertion, each
    with its one-step edit. Row 0 holds insertions whose source span is (j-1, j-1), as in the
    reference code (step 6)."""
    if i == 0:
        return [((0, j - 1), ("ins", j - 1, j - 1, "", hypothesis[j - 1], 0))] if j else []
    if j == 0:
        return [((i - 1, 0), ("del", i - 1, i, source[i - 1], "", 0))]
    bits = int(moves[i, j])
    out = []
    if bits & _DIAGONAL:
        token, corrected = source[i - 1], hypothesis[j - 1]
        out.append(((i - 1, j - 1), ("noop", i - 1, i, token, corrected, 1) if token == corrected
                    else ("sub", i - 1, i, token, corrected, 0)))
    if bits & _DELETION:
        out.append(((i - 1, j), ("del", i - 1, i, source[i - 1], "", 0)))
    if bits & _INSERTION:
        out.append(((i, j - 1), ("ins", i, i, "", hypothesis[j - 1], 0)))
    return out


def _merge(first: RefEdit, second: RefEdit) -> RefEdit:
    """The edit of two consecutive arcs (kind: noop/ins/del if both are, else sub)."""
    k1, k2 = first[0], second[0]
    kind = k1 if k1 == k2 and k1 in ("noop", "ins", "del") else "sub"
    original = " ".join(s for s in (first[3], second[3]) if s) if k1 != "noop" or k2 != "noop" \
        else first[3] + " " + second[3]
    correction = " ".join(s for s in (first[4], second[4]) if s) if k1 != "noop" or k2 != "noop" \
        else first[4] + " " + second[4]
    return (kind, first[1], second[2], original, correction, first[5] + second[5])


@dataclass
class ReferenceGraph:
    """The reference code's edit graph with transitive arcs, built once per sentence."""

    nodes: list[Node]
    edges: list[tuple[Node, Node]]       # in the reference's order, duplicates included
    dist: dict[tuple[Node, Node], int]
    edits: dict[tuple[Node, Node], RefEdit]


def reference_graph(source: Sequence[str], hypothesis: Sequence[str],
                    max_unchanged_words: int = MAX_UNCHANGED_WORDS, max_arcs: int | None = None) -> ReferenceGraph:
    """Steps 1-3 of the reference behaviour (see the section comment). Time O(sum over nodes
    of in-degree x out-degree) with the arcs; the reference code's is O(V^3). Raises
    :class:`ReferenceGraphTooLarge` past ``max_arcs`` arcs (default ``MAX_REFERENCE_ARCS``)."""
    limit = MAX_REFERENCE_ARCS if max_arcs is None else max_arcs
    source, hypothesis = tuple(source), tuple(hypothesis)
    end = (len(source), len(hypothesis))
    nodes: set[Node] = set()
    edges: list[tuple[Node, Node]] = []
    edits: dict[tuple[Node, Node], RefEdit] = {}
    for moves in optimal_moves(source, hypothesis, (1, 2)):
        seen, queue = {end}, [end]
        for v in queue:                                  # breadth-first from the end
            nodes.add(v)
            for previous, edit in _reference_predecessors(moves, source, hypothesis, *v):
                edges.append((previous, v))
                edits.setdefault((previous, v), edit)
                if previous not in seen:
                    seen.add(previous)
                    queue.append(previous)
    edges.sort()
    dist = dict.fromkeys(edges, 1)
    order = sorted(nodes)
    predecessors: dict[Node, set[Node]] = {v: set() for v in order}
    successors: dict[Node, set[Node]] = {v: set() for v in order}
    for v, w in edges:
        successors[v].add(w)
        predecessors[w].add(v)
    for k in order:
        for i in sorted(predecessors[k]):
            e_ik, d_ik = edits[(i, k)], dist[(i, k)]
            for j in sorted(successors[k]):
                d = d_ik + dist[(k, j)]
                if d < dist.get((i, j), _INF):
                    merged = _merge(e_ik, edits[(k, j)])
                    if merged[-1] <= max_unchanged_words:
                        if len(edges) >= limit:
                            raise ReferenceGraphTooLarge(len(edges))
                        edges.append((i, j))
                        dist[(i, j)] = d
                        edits[(i, j)] = merged
                        successors[i].add(j)
                        predecessors[j].add(i)
    index = 0                                            # removal while iterating (step 3)
    while index < len(edges):
        edge = edges[index]
        edit = edits.get(edge)
        if edit is not None and edit[0] == "noop" and dist[edge] > 1:
            edges.remove(edge)
            dist[edge] = _INF
            del edits[edge]
        index += 1
    return ReferenceGraph(order, edges, dist, edits)


RefGold = tuple[int, int, str, tuple[str, ...]]


def _reference_weights(graph: ReferenceGraph, gold: Sequence[RefGold]) -> dict:
    """Step 4: the arc weights for one annotator's gold edits."""
    edges, edits = graph.edges, graph.edits
    weights: dict = dict(graph.dist)
    matched_weight = -len(edges)
    by_span: dict[tuple[int, int], list] = {}
    gold_by_span: dict[tuple[int, int], list[RefGold]] = {}
    for edge in edges:
        edit = edits[edge]
        by_span.setdefault((edit[1], edit[2]), []).append(edge)
    for g in gold:
        gold_by_span.setdefault((g[0], g[1]), []).append(g)

    def matches(edit: RefEdit, g: RefGold) -> bool:
        return edit[1] == g[0] and edit[2] == g[1] and edit[3] == g[2] and edit[4] in g[3]

    for span in sorted(by_span):
        arcs = sorted(by_span[span])
        golds = gold_by_span.get(span, [])
        if span[0] != span[1]:
            for edge in arcs:
                edit = edits[edge]
                if any(matches(edit, g) for g in golds):
                    weights[edge] = matched_weight
                elif edit[0] != "noop":
                    weights[edge] += _EPSILON
            continue
        left, right, cur = 0, len(arcs) - 1, 0
        g_left, g_right = 0, len(golds) - 1
        while left <= right:
            edge = arcs[cur]
            edit = edits[edge]
            order = range(g_left, g_right + 1) if cur == left else range(g_right, g_left - 1, -1)
            hit = next((i for i in order if matches(edit, golds[i])), None)
            if hit is not None:
                weights[edge] = matched_weight
                if cur == left:
                    g_left = hit + 1
                else:
                    g_right = hit - 1
            elif edit[0] != "noop":
                weights[edge] += _EPSILON
            if hit is not None and cur == left:
                left += 1
                while left < len(arcs) and arcs[left][0] != arcs[cur][1]:
                    weights[arcs[left]] += _EPSILON
                    left += 1
                cur = left
            elif hit is not None:
                right -= 1
                while right >= 0 and arcs[right][1] != arcs[cur][0]:
                    weights[arcs[right]] += _EPSILON
                    right -= 1
                cur = right
            elif cur == left:
                left += 1
                cur = right
            else:
                right -= 1
                cur = left
    return weights


def reference_gold(source: Tokens, gold: Sequence[Edit]) -> list[RefGold]:
    """Gold edits as the reference code compares them: span, original text, corrections."""
    return [(e.start, e.end, " ".join(source[e.start:e.end]),
             tuple(" ".join(a) for a in (e.alternatives or (e.correction,)))) for e in gold]


@njit(cache=True)
def _bellman_ford_kernel(sources, targets, weights, n_nodes):  # pragma: no cover - compiled
    """Step 5: passes over the edge list in its order, float sums, a node's predecessor replaced
    only on a strictly smaller cost, until a pass changes nothing (the remaining passes of the
    reference would change nothing either). Returns each node's predecessor (-1: none)."""
    cost = np.full(n_nodes, np.inf)
    cost[0] = 0.0
    path = np.full(n_nodes, -1, dtype=np.int64)
    for _ in range(max(1, n_nodes - 1)):
        changed = False
        for k in range(sources.shape[0]):
            value = cost[sources[k]] + weights[k]
            if value < cost[targets[k]]:
                cost[targets[k]] = value
                path[targets[k]] = sources[k]
                changed = True
        if not changed:
            break
    return path


def reference_edit_sequence(graph: ReferenceGraph, source: Tokens, gold: Sequence[Edit] = ()
                            ) -> tuple[Edit, ...]:
    """Step 5: the reference code's system edits (left to right) for one annotator."""
    weights = _reference_weights(graph, reference_gold(tuple(source), gold))
    index = {node: k for k, node in enumerate(graph.nodes)}
    sources = np.fromiter((index[v] for v, _ in graph.edges), dtype=np.int64, count=len(graph.edges))
    targets = np.fromiter((index[w] for _, w in graph.edges), dtype=np.int64, count=len(graph.edges))
    edge_weights = np.fromiter((weights[edge] for edge in graph.edges), dtype=np.float64, count=len(graph.edges))
    path = _bellman_ford_kernel(sources, targets, edge_weights, len(graph.nodes))
    out = []
    k = len(graph.nodes) - 1
    while path[k] >= 0:
        v, w = graph.nodes[path[k]], graph.nodes[k]
        kind, start, end, _, correction, _ = graph.edits[(v, w)]
        if kind != "noop":
            out.append(Edit(start, end, tuple(correction.split()), tgt_start=v[1], tgt_end=w[1]))
        k = int(path[k])
    out.reverse()
    return tuple(out)
