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

This is ``segmentation="minimal"``; the default, the reference code's own choice among equally
good sequences (its transitive arcs materialised, compiled), is :mod:`gecscore.m2.reference`.
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


def optimal_moves(source: Sequence[str], hypothesis: Sequence[str],
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
    for moves in optimal_moves(source, hypothesis, (1, 2)):
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
