"""MaxMatch (M2) edit extraction: the system edits that maximally match the gold edits.

Dahlmeier & Ng (2012), with the semantics of the official m2scorer 3.2:

1. The edit lattice: every step on an optimal path of the token Levenshtein matrices with
   costs (ins, del, sub) = (1, 1, 1) and (1, 1, 2), both lattices merged.
2. Transitive arcs: any lattice path with at most ``max_unchanged_words`` unchanged tokens
   can be taken as one edit (source span and hypothesis span of its two ends).
3. The shortest path, with arc weights: an arc matching a gold edit (same span, correction
   among the gold alternatives) -L with L larger than any path (so the most matches win);
   any other changing arc its number of lattice steps + 0.001 (so fewer, merged edits win);
   an unchanged step 1. Its changing arcs are the system edits.

The official scorer materialises every transitive arc (O(V^2) of them, found by an O(V^3)
Floyd-Warshall closure) and runs Bellman-Ford over them: it hangs on long or repetitive
hypotheses. Here transitive arcs stay implicit. A dynamic program over the lattice nodes in
topological order keeps, for each node, the best path that stands between edits, or inside
an unmatched edit with k <= ``max_unchanged_words`` unchanged tokens so far; arcs matching
a gold edit (few: they are found from the gold edits) are extra transitions. Path costs are
exact integers (1000 per step, 1 per unmatched edit, -L per match), so the optimum is the
official one; among equally good paths the first found in row-major order wins. Time and
memory are O(V * max_unchanged_words) for a lattice of V nodes (V <= (n+1)(m+1)).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from gecscore.compiled import njit as _njit
from gecscore.m2.config import MAX_UNCHANGED_WORDS
from gecscore.types import Edit, Tokens

Node = tuple[int, int]

# Optimal moves into a Levenshtein cell, as bits.
_DIAGONAL, _DELETION, _INSERTION = 1, 2, 4
_STEP = 1000      # cost of one lattice step (an arc of d steps weighs d; 0.001 = 1 unit)
_UNMATCHED = 1    # the 0.001 added to each unmatched changing arc


@dataclass(frozen=True, slots=True)
class EditLattice:
    """The merged optimal-path lattice between ``source`` and ``hypothesis``.

    ``nodes`` are (source position, hypothesis position) points in row-major order, which is
    a topological order; ``successors[v]`` lists the nodes one step after ``v``.
    """

    source: Tokens
    hypothesis: Tokens
    nodes: tuple[Node, ...]
    successors: dict[Node, tuple[Node, ...]]

    def is_unchanged_step(self, v: Node, w: Node) -> bool:
        return (w[0] - v[0] == 1 and w[1] - v[1] == 1
                and self.source[v[0]] == self.hypothesis[v[1]])

    def edit(self, v: Node, w: Node) -> Edit:
        """The edit of an arc from ``v`` to ``w``."""
        return Edit(v[0], w[0], tuple(self.hypothesis[v[1]:w[1]]), tgt_start=v[1], tgt_end=w[1])


def _token_codes(source: Sequence[str], hypothesis: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The two token sequences as int64 codes (equal tokens, equal codes)."""
    codes: dict[str, int] = {}
    return (np.array([codes.setdefault(t, len(codes)) for t in source], dtype=np.int64),
            np.array([codes.setdefault(t, len(codes)) for t in hypothesis], dtype=np.int64))


@_njit(cache=True)
def _moves_kernel(source, hypothesis, sub_cost):  # pragma: no cover - compiled
    """Bit set of the optimal moves into every cell of the Levenshtein matrix (row 0: insertions,
    column 0: deletions); ties keep every optimal move."""
    n, m = source.shape[0], hypothesis.shape[0]
    moves = np.zeros((n + 1, m + 1), dtype=np.uint8)
    previous = np.arange(m + 1, dtype=np.int64)
    current = np.empty(m + 1, dtype=np.int64)
    for j in range(1, m + 1):
        moves[0, j] = 4
    for i in range(1, n + 1):
        token = source[i - 1]
        moves[i, 0] = 2
        current[0] = i
        left = i
        for j in range(1, m + 1):
            diagonal = previous[j - 1] + (0 if token == hypothesis[j - 1] else sub_cost)
            deletion = previous[j] + 1
            insertion = left + 1
            best = min(diagonal, deletion, insertion)
            moves[i, j] = (1 if diagonal == best else 0) | (2 if deletion == best else 0) \
                | (4 if insertion == best else 0)
            current[j] = best
            left = best
        previous, current = current, previous
    return moves


def _optimal_moves(source: Sequence[str], hypothesis: Sequence[str],
                   sub_costs: tuple[int, ...]) -> list[np.ndarray]:
    """Per substitution cost, the bit set of optimal moves into every cell (i, j)
    (``_DIAGONAL | _DELETION | _INSERTION``), as an (n + 1) x (m + 1) uint8 array."""
    source_codes, hypothesis_codes = _token_codes(source, hypothesis)
    return [_moves_kernel(source_codes, hypothesis_codes, sub_cost) for sub_cost in sub_costs]


def build_lattice(source: Sequence[str], hypothesis: Sequence[str]) -> EditLattice:
    """The union of the optimal-path lattices for (1, 1, 1) and (1, 1, 2) costs."""
    source, hypothesis = tuple(source), tuple(hypothesis)
    n, m = len(source), len(hypothesis)
    successors: dict[Node, set[Node]] = {}
    for moves in _optimal_moves(source, hypothesis, (1, 2)):
        seen = {(n, m)}
        stack = [(n, m)]
        while stack:
            i, j = node = stack.pop()
            successors.setdefault(node, set())
            bits = int(moves[i, j])
            for bit, previous in ((_DIAGONAL, (i - 1, j - 1)), (_DELETION, (i - 1, j)),
                                  (_INSERTION, (i, j - 1))):
                if bits & bit:
                    successors.setdefault(previous, set()).add(node)
                    if previous not in seen:
                        seen.add(previous)
                        stack.append(previous)
    nodes = tuple(sorted(successors))
    return EditLattice(source, hypothesis, nodes,
                       {v: tuple(sorted(ws)) for v, ws in successors.items()})


def _fewest_unchanged(lattice: EditLattice, start: Node, end: Node, limit: int) -> int | None:
    """The fewest unchanged steps on a lattice path from ``start`` to ``end`` (None if none
    has at most ``limit``)."""
    best = {start: 0}
    for i in range(start[0], end[0] + 1):
        for j in range(start[1], end[1] + 1):
            count = best.get((i, j))
            if count is None:
                continue
            for w in lattice.successors.get((i, j), ()):
                if w[0] > end[0] or w[1] > end[1]:
                    continue
                c = count + lattice.is_unchanged_step((i, j), w)
                if c <= limit and c < best.get(w, limit + 1):
                    best[w] = c
    return best.get(end)


def gold_arcs(lattice: EditLattice, gold: Sequence[Edit],
              max_unchanged_words: int = MAX_UNCHANGED_WORDS) -> dict[Node, list[tuple[Node, int]]]:
    """Arcs of the lattice (with transitive arcs) that match a gold edit, by start node, each
    with its insertion bits: for an insertion (empty source span) the bits of the gold
    insertions at that position it matches (gold edit k of the position: bit k), else 0. One
    path crosses a source position's insertions in one row of the lattice, so the bits let the
    search take each gold insertion once, as the count does (``match_edits``): a hypothesis
    inserting "the" twice where the gold inserts it once has one correct edit, not two."""
    rows: dict[int, list[Node]] = {}
    for node in lattice.nodes:
        rows.setdefault(node[0], []).append(node)
    nodes = set(lattice.nodes)
    insertion_rank: dict[int, int] = {}
    arcs: dict[Node, dict[Node, int]] = {}
    for edit in gold:
        bit = 0
        if edit.start == edit.end:
            rank = insertion_rank.get(edit.start, 0)
            insertion_rank[edit.start] = rank + 1
            bit = 1 << rank
        original = lattice.source[edit.start:edit.end]
        for alternative in edit.alternatives or (edit.correction,):
            if tuple(alternative) == original:
                continue  # an arc that changes nothing is never a system edit
            for start in rows.get(edit.start, ()):
                end = (edit.end, start[1] + len(alternative))
                if end not in nodes or start == end:
                    continue
                known = arcs.get(start, {})
                if end in known:
                    known[end] |= bit
                    continue
                if lattice.hypothesis[start[1]:end[1]] != tuple(alternative):
                    continue
                if _fewest_unchanged(lattice, start, end, max_unchanged_words) is None:
                    continue
                arcs.setdefault(start, {})[end] = bit
    return {start: list(ends.items()) for start, ends in arcs.items()}


def best_edit_sequence(lattice: EditLattice, gold: Sequence[Edit] = (),
                       max_unchanged_words: int = MAX_UNCHANGED_WORDS) -> tuple[Edit, ...]:
    """The system edits (left to right) on the shortest path that maximally matches ``gold``.

    A search state is (node, state, used): ``state`` 0 between edits, 1 + k inside an unmatched
    edit with k unchanged tokens so far; ``used`` the bits of the gold insertions at the node's
    source position that the path has matched in this row (0 once the path leaves the row)."""
    if lattice.source == lattice.hypothesis:
        return ()
    limit = max_unchanged_words
    free = 0
    n_states = limit + 2
    matched = gold_arcs(lattice, gold, limit)
    big = (_STEP + _UNMATCHED) * (len(lattice.source) + len(lattice.hypothesis) + 2)
    cost: dict[Node, dict[tuple[int, int], int]] = {v: {} for v in lattice.nodes}
    back: dict[tuple[Node, int, int], tuple[Node, int, int]] = {}
    start = lattice.nodes[0]
    cost[start][(free, 0)] = 0

    def relax(w: Node, key: tuple[int, int], value: int, origin: tuple[Node, int, int]) -> None:
        current = cost[w].get(key)
        if current is None or value < current:
            cost[w][key] = value
            back[(w, *key)] = origin

    for v in lattice.nodes:
        here = cost[v]
        for (state, used) in sorted(here):               # close an edit at v
            if state != free:
                value, closed = here[(state, used)], here.get((free, used))
                if closed is None or value < closed:
                    here[(free, used)] = value
                    back[(v, free, used)] = (v, state, used)
        for w in lattice.successors[v]:
            unchanged = lattice.is_unchanged_step(v, w)
            for (state, used), value in sorted(here.items()):
                kept = used if w[0] == v[0] else 0
                if state == free:
                    if unchanged:
                        relax(w, (free, kept), value + _STEP, (v, free, used))
                    if 1 + unchanged <= 1 + limit:   # open an edit with this step
                        relax(w, (1 + unchanged, kept), value + _STEP + _UNMATCHED, (v, free, used))
                elif state - 1 + unchanged <= limit:
                    relax(w, (state + unchanged, kept), value + _STEP, (v, state, used))
        for w, bits in matched.get(v, ()):
            for (state, used), value in sorted(here.items()):
                if state != free:
                    continue
                if bits:                                # an insertion: a gold insertion not yet used
                    fresh = bits & ~used
                    if not fresh:
                        continue
                    after = used | (fresh & -fresh)
                else:
                    after = 0
                relax(w, (free, after), value - big, (v, -1, used))
    end = lattice.nodes[-1]
    best = min((value, used) for (state, used), value in cost[end].items() if state == free)
    return _trace_edits(lattice, back, (end, free, best[1]))


def _trace_edits(lattice: EditLattice, back: dict, end: tuple[Node, int, int]) -> tuple[Edit, ...]:
    edits = []
    node, state, used = end
    edit_end: Node | None = None
    while (node, state, used) in back:
        previous, previous_state, previous_used = back[(node, state, used)]
        if previous_state == -1:                       # a gold-matching arc
            edits.append(lattice.edit(previous, node))
            previous_state = 0
        elif previous == node:                        # an edit closes here
            edit_end = node
        elif state != 0 and previous_state == 0:      # the edit opened at `previous`
            edits.append(lattice.edit(previous, edit_end))
            edit_end = None
        node, state, used = previous, previous_state, previous_used
    edits.reverse()
    return tuple(edits)


def match_edits(system: Sequence[Edit], gold: Sequence[Edit]) -> list[Edit]:
    """The system edits that match a gold edit, as the official scorer counts them.

    System edits are taken left to right; each may match any gold edit after the last one
    matched (same span, correction among the alternatives), and counts once per gold edit it
    matches (a gold edit listed twice counts twice, as in m2scorer).
    """
    matched = []
    last = 0
    for edit in system:
        for index in range(last, len(gold)):
            reference = gold[index]
            if (edit.start == reference.start and edit.end == reference.end
                    and edit.correction in (reference.alternatives or (reference.correction,))):
                matched.append(edit)
                last = index + 1
    return matched


# --- The reference code's segmentation -------------------------------------------------------
#
# ``segmentation="reference"``: the edit sequence that the PT-M2 reference code (and the
# m2scorer it embeds) returns, reproduced from its behaviour. Same lattice and match-maximising
# costs as above; what differs is which of several equally good sequences comes out, which
# PT-M2's per-edit weights can tell apart (M2 counts are the same on all 13 CoNLL-2014
# systems). One real difference: its transitive arcs come from fewest-step paths only (step 2),
# so where only a longer path stays within ``max_unchanged_words`` it has no arc and may propose
# more edits than the search above (e.g. "a a a b" -> "a b a b a": 2 edits instead of 1).
# The behaviour, step by step:
#
# 1. The lattice of each cost matrix is walked breadth-first from (n, m); the two edge lists are
#    concatenated and sorted, so an edge on both lattices is listed twice.
# 2. Transitive arcs by a Floyd-Warshall pass (k, then i, then j over the sorted nodes): an arc
#    v_i -> v_j is added (appended to the edge list; its edit merged from the two halves, the
#    unchanged count summed) when d(v_i, v_k) + d(v_k, v_j) < d(v_i, v_j) and the merged edit
#    has at most ``max_unchanged_words`` unchanged tokens; d counts lattice steps.
# 3. Unchanged ("noop") arcs longer than one step are removed while the edge list is iterated,
#    so the edge after each removed one escapes removal.
# 4. Weights: an arc matching a gold edit (same span, same original, correction among the
#    alternatives) weighs -|E|; any other arc d + 0.001, the 0.001 added once per listing of the
#    edge (twice for an edge on both lattices). Insertion arcs (empty source span) are matched
#    by a two-pointer walk over the arcs of that span, sorted, and the gold edits of the span:
#    after a match from the left (right), the arcs up to the matched arc's end (from its start)
#    are skipped and get 0.001 each, unchanged ones included.
# 5. Bellman-Ford over the edge list in its order, costs as floating-point sums, a node's
#    predecessor replaced only on a strictly smaller cost: on a tie the arc listed first
#    wins, i.e. the lattice edge (sorted, so from the earliest node) before a transitive arc,
#    and among transitive arcs the earliest added. Rounding of the float sums decides some
#    near-ties. The passes stop when one changes nothing (the same fixed point).
# 6. An insertion at the very start of the sentence (lattice row 0, hypothesis token j) has the
#    source span (j-1, j-1) in the reference code; kept as is, since it decides gold matches.

RefEdit = tuple[str, int, int, str, str, int]   # (kind, start, end, original, correction, unchanged)
_EPSILON = 0.001
# The reference graph's transitive arcs grow with the lattice's density: a whole-sentence rewrite
# with nothing in common with its source (a degenerate output, or text tokenised for another
# language) makes millions, where m2scorer itself would not finish. Past this many, the sentence
# is refused with a clear error instead (about 20 s of work on this machine).
MAX_REFERENCE_ARCS = 1_000_000


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
    for moves in _optimal_moves(source, hypothesis, (1, 2)):
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


@_njit(cache=True)
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
