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


def _optimal_moves(source: Sequence[str], hypothesis: Sequence[str],
                   sub_costs: tuple[int, ...]) -> list[list[bytearray]]:
    """Per substitution cost, the bit set of optimal moves into every cell (i, j)."""
    n, m = len(source), len(hypothesis)
    tables = []
    for sub_cost in sub_costs:
        previous = list(range(m + 1))
        moves = [bytearray([0] + [_INSERTION] * m)]
        for i in range(1, n + 1):
            token = source[i - 1]
            current = [i] * (m + 1)
            row = bytearray(m + 1)
            row[0] = _DELETION
            left = i
            for j in range(1, m + 1):
                diagonal = previous[j - 1] + (0 if token == hypothesis[j - 1] else sub_cost)
                deletion = previous[j] + 1
                insertion = left + 1
                best = diagonal if diagonal < deletion else deletion
                if insertion < best:
                    best = insertion
                row[j] = ((diagonal == best) | ((deletion == best) << 1)
                          | ((insertion == best) << 2))
                current[j] = left = best
            moves.append(row)
            previous = current
        tables.append(moves)
    return tables


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
            bits = moves[i][j]
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
              max_unchanged_words: int = MAX_UNCHANGED_WORDS) -> dict[Node, list[Node]]:
    """Arcs of the lattice (with transitive arcs) that match a gold edit, by start node."""
    rows: dict[int, list[Node]] = {}
    for node in lattice.nodes:
        rows.setdefault(node[0], []).append(node)
    nodes = set(lattice.nodes)
    arcs: dict[Node, list[Node]] = {}
    seen: set[tuple[Node, Node]] = set()
    for edit in gold:
        original = lattice.source[edit.start:edit.end]
        for alternative in edit.alternatives or (edit.correction,):
            if tuple(alternative) == original:
                continue  # an arc that changes nothing is never a system edit
            for start in rows.get(edit.start, ()):
                end = (edit.end, start[1] + len(alternative))
                if (start, end) in seen or end not in nodes or start == end:
                    continue
                if lattice.hypothesis[start[1]:end[1]] != tuple(alternative):
                    continue
                if _fewest_unchanged(lattice, start, end, max_unchanged_words) is None:
                    continue
                seen.add((start, end))
                arcs.setdefault(start, []).append(end)
    return arcs


def best_edit_sequence(lattice: EditLattice, gold: Sequence[Edit] = (),
                       max_unchanged_words: int = MAX_UNCHANGED_WORDS) -> tuple[Edit, ...]:
    """The system edits (left to right) on the shortest path that maximally matches ``gold``."""
    if lattice.source == lattice.hypothesis:
        return ()
    limit = max_unchanged_words
    free = 0                      # state 0: between edits; state 1 + k: in an edit, k unchanged
    n_states = limit + 2
    matched = gold_arcs(lattice, gold, limit)
    big = (_STEP + _UNMATCHED) * (len(lattice.source) + len(lattice.hypothesis) + 2)
    cost: dict[Node, list[int | None]] = {v: [None] * n_states for v in lattice.nodes}
    back: dict[tuple[Node, int], tuple[Node, int]] = {}
    start = lattice.nodes[0]
    cost[start][free] = 0

    def relax(w: Node, state: int, value: int, origin: tuple[Node, int]) -> None:
        current = cost[w][state]
        if current is None or value < current:
            cost[w][state] = value
            back[(w, state)] = origin

    for v in lattice.nodes:
        here = cost[v]
        for state in range(1, n_states):            # close an edit at v
            value = here[state]
            if value is not None and (here[free] is None or value < here[free]):
                here[free] = value
                back[(v, free)] = (v, state)
        for w in lattice.successors[v]:
            unchanged = lattice.is_unchanged_step(v, w)
            for state in range(n_states):
                value = here[state]
                if value is None:
                    continue
                if state == free:
                    if unchanged:
                        relax(w, free, value + _STEP, (v, free))
                    if 1 + unchanged <= 1 + limit:   # open an edit with this step
                        relax(w, 1 + unchanged, value + _STEP + _UNMATCHED, (v, free))
                elif state - 1 + unchanged <= limit:
                    relax(w, state + unchanged, value + _STEP, (v, state))
        if here[free] is not None:
            for w in matched.get(v, ()):
                relax(w, free, here[free] - big, (v, -1))
    return _trace_edits(lattice, back, lattice.nodes[-1])


def _trace_edits(lattice: EditLattice, back: dict, end: Node) -> tuple[Edit, ...]:
    edits = []
    node, state = end, 0
    edit_end: Node | None = None
    while (node, state) in back:
        previous, previous_state = back[(node, state)]
        if previous_state == -1:                       # a gold-matching arc
            edits.append(lattice.edit(previous, node))
            previous_state = 0
        elif previous == node:                        # an edit closes here
            edit_end = node
        elif state != 0 and previous_state == 0:      # the edit opened at `previous`
            edits.append(lattice.edit(previous, edit_end))
            edit_end = None
        node, state = previous, previous_state
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
