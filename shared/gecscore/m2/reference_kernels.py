"""Compiled kernels of the reference segmentation (:mod:`gecscore.m2.reference`): m2scorer 3.2's
edit graph with its transitive arcs, its arc weights and its Bellman-Ford, on integer arrays.

Layout of one sentence's graph (all built by :func:`graph_kernel`):

- nodes: the lattice points (i, j) of either cost matrix, row-major; node 0 is (0, 0), the
  last (n, m);
- keys: one per distinct arc (v, w) of the reference's dicts ``dist`` and ``edits``, as rows of
  ``keys`` (columns ``SRC, DST, DIST, UNCHANGED, KIND, START, END``: the arc's nodes, its step
  count, its unchanged tokens, its kind and its source span label);
- listings: the reference's edge list, key ids in its order (an arc listed twice appears
  twice); the weights and Bellman-Ford run over it.

Why the sweep below lists the very arcs of the reference's Floyd-Warshall pass (k, then i, then
j over the sorted nodes), in its order, without a table of node pairs:

1. Every arc goes forward in row-major order, so an arc v_i -> v_k added at iteration k' has
   i < k' < k: at iteration k every arc into v_k is already there and final (distance, edit).
2. An arc out of v_k would need an intermediate node after v_k, added at a later iteration:
   at iteration k the only arcs out of v_k are its lattice steps (at most three, distance 1;
   no transitive arc, at least 2 steps, ever replaces one).
3. So iteration k extends each arc into v_k (sources ascending) by each lattice step out of v_k
   (targets ascending: (a, b+1), (a+1, b), (a+1, b+1)); the arc (v_i, v_j) is listed again when
   the extension is shorter than its current distance and has at most ``limit`` unchanged
   tokens. Within one iteration, the decisions for the different targets touch disjoint arcs,
   so each target is taken in turn and the listings are then interleaved in the reference's
   (i, j) order.
4. The current distance of (v_i, v_j) is read from v_j's incoming arcs, kept sorted by source,
   by a pointer that moves forward with v_i.

Time and memory are linear in the arcs (each is extended at most three times); the
reference's own closure is cubic in the nodes.
"""
from __future__ import annotations

import numpy as np

from gecscore.compiled import njit as _njit

SRC, DST, DIST, UNCHANGED, KIND, START, END, KEY = range(8)
NOOP, INS, DEL, SUB = 0, 1, 2, 3
# Lattice steps out of (a, b), by direction, in the order of their targets: 0 (a, b+1), an
# insertion (move bit 4); 1 (a+1, b), a deletion (bit 2); 2 (a+1, b+1), a diagonal (bit 1).
TOO_LARGE = -1           # graph_kernel's status past its listing bound
_EPSILON = 0.001


@_njit(cache=True)
def _reached(moves):  # pragma: no cover - compiled
    """The cells on an optimal path into (n, m): reached backwards along the kept moves."""
    n, m = moves.shape[0] - 1, moves.shape[1] - 1
    reach = np.zeros((n + 1, m + 1), dtype=np.bool_)
    reach[n, m] = True
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if reach[i, j]:
                bits = moves[i, j]
                if bits & 1:
                    reach[i - 1, j - 1] = True
                if bits & 2:
                    reach[i - 1, j] = True
                if bits & 4:
                    reach[i, j - 1] = True
    return reach


@_njit(cache=True)
def _grow_rows(array, size):  # pragma: no cover - compiled
    out = np.empty((max(2 * array.shape[0], size), array.shape[1]), dtype=array.dtype)
    for row in range(array.shape[0]):         # loops, not slice assignment: far faster to compile
        for column in range(array.shape[1]):
            out[row, column] = array[row, column]
    return out


@_njit(cache=True)
def _grow(array, size):  # pragma: no cover - compiled
    out = np.empty(max(2 * array.shape[0], size), dtype=array.dtype)
    for index in range(array.shape[0]):
        out[index] = array[index]
    return out


@_njit(cache=True)
def _nodes(reach1, reach2):  # pragma: no cover - compiled
    """Node ids of the cells reached in either matrix (row-major), and each node's cell."""
    n, m = reach1.shape[0] - 1, reach1.shape[1] - 1
    node_id = np.full((n + 1, m + 1), -1, dtype=np.int64)
    count = 0
    for i in range(n + 1):
        for j in range(m + 1):
            if reach1[i, j] or reach2[i, j]:
                node_id[i, j] = count
                count += 1
    rows = np.empty(count, dtype=np.int64)
    cols = np.empty(count, dtype=np.int64)
    for i in range(n + 1):
        for j in range(m + 1):
            if node_id[i, j] >= 0:
                rows[node_id[i, j]] = i
                cols[node_id[i, j]] = j
    return node_id, rows, cols


@_njit(cache=True)
def _lattice_steps(source, hypothesis, moves1, moves2, reach1, reach2, node_id, rows):  # pragma: no cover
    """Step 1: the lattice edges, sorted; an edge of both matrices listed twice. Returns each
    node's steps out (by direction: -1 in column KEY where none), its steps in (sources
    ascending) and their number, and the listings."""
    n, m = source.shape[0], hypothesis.shape[0]
    count = rows.shape[0]
    cols = np.empty(count, dtype=np.int64)
    for i in range(n + 1):
        for j in range(m + 1):
            if node_id[i, j] >= 0:
                cols[node_id[i, j]] = j
    steps_out = np.full((count, 3, 8), -1, dtype=np.int32)
    steps_in = np.zeros((count, 3, 8), dtype=np.int32)
    n_in = np.zeros(count, dtype=np.int64)
    listings = np.empty(6 * count + 1, dtype=np.int32)
    n_keys = 0
    n_listings = 0
    for v in range(count):
        a, b = rows[v], cols[v]
        for direction in range(3):
            bit = 4 if direction == 0 else (2 if direction == 1 else 1)
            wa = a + (1 if direction > 0 else 0)
            wb = b + (1 if direction != 1 else 0)
            if wa > n or wb > m:
                continue
            listed = 0
            if reach1[wa, wb] and moves1[wa, wb] & bit:
                listed += 1
            if reach2[wa, wb] and moves2[wa, wb] & bit:
                listed += 1
            if listed == 0:
                continue
            w = node_id[wa, wb]
            steps_out[v, direction, SRC] = v
            steps_out[v, direction, DST] = w
            steps_out[v, direction, DIST] = 1
            steps_out[v, direction, KEY] = n_keys
            if direction == 0:                     # insertion; row 0 labelled (j-1, j-1)
                unchanged, kind, start, end = 0, INS, (b if a == 0 else a), (b if a == 0 else a)
            elif direction == 1:
                unchanged, kind, start, end = 0, DEL, a, a + 1
            elif source[a] == hypothesis[b]:
                unchanged, kind, start, end = 1, NOOP, a, a + 1
            else:
                unchanged, kind, start, end = 0, SUB, a, a + 1
            steps_out[v, direction, UNCHANGED] = unchanged
            steps_out[v, direction, KIND] = kind
            steps_out[v, direction, START] = start
            steps_out[v, direction, END] = end
            for column in range(8):
                steps_in[w, n_in[w], column] = steps_out[v, direction, column]
            n_in[w] += 1
            for _ in range(listed):
                listings[n_listings] = n_keys
                n_listings += 1
            n_keys += 1
    return steps_out, steps_in, n_in, listings[:n_listings], n_keys


@_njit(cache=True)
def _extend(into, known, target, step_unchanged, step_kind, step_end, limit, first_key, accepted):  # pragma: no cover
    """Step 2 at one node for one lattice step out of it (to ``target``): every arc into the
    node (rows ``into``, sources ascending) extended by the step, against the target's current
    incoming arcs ``known`` (sources ascending; updated in place when an extension is shorter).
    ``accepted[index]`` gets the key listed for ``into[index]`` (-1: none). Returns the new
    arcs' rows (sources ascending; keys numbered from ``first_key``) and the listings made."""
    n_into, n_known = into.shape[0], known.shape[0]
    fresh = np.empty((n_into, 8), dtype=np.int32)
    n_fresh = 0
    n_accepted = 0
    p = 0
    for index in range(n_into):
        unchanged = into[index, UNCHANGED] + step_unchanged
        if unchanged > limit:
            continue
        i = into[index, SRC]
        d = into[index, DIST] + 1
        while p < n_known and known[p, SRC] < i:
            p += 1
        if p < n_known and known[p, SRC] == i:
            if d >= known[p, DIST]:
                continue
            rows_of, r = known, p
        else:
            rows_of, r = fresh, n_fresh
            n_fresh += 1
            fresh[r, SRC] = i
            fresh[r, DST] = target
            fresh[r, KEY] = first_key + r
        rows_of[r, DIST] = d
        rows_of[r, UNCHANGED] = unchanged
        rows_of[r, KIND] = into[index, KIND] if into[index, KIND] == step_kind else SUB
        rows_of[r, START] = into[index, START]
        rows_of[r, END] = step_end
        accepted[index] = rows_of[r, KEY]
        n_accepted += 1
    return fresh[:n_fresh], n_accepted


@_njit(cache=True)
def _without_long_unchanged(listings, keys):  # pragma: no cover - compiled
    """Step 3: unchanged arcs longer than one step leave the list while it is iterated: the
    listing after each removed one is not looked at. (Such an arc is listed once: it is first
    found through its diagonal predecessor, the first of its target's lattice predecessors.)"""
    kept = np.empty(listings.shape[0], dtype=np.int32)
    n_kept = 0
    skip = False
    for p in range(listings.shape[0]):
        key = listings[p]
        if not skip and keys[key, KIND] == NOOP and keys[key, DIST] > 1:
            skip = True
            continue
        skip = False
        kept[n_kept] = key
        n_kept += 1
    return kept[:n_kept]


@_njit(cache=True)
def graph_kernel(source, hypothesis, moves1, moves2, limit, max_listings):  # pragma: no cover - compiled
    """Steps 1-3 of the reference behaviour (gecscore.m2.reference) for token codes ``source``
    and ``hypothesis`` and the optimal-move bit sets of the (1, 1, 1) and (1, 1, 2) matrices.

    Returns (status, node_rows, node_cols, keys, listings): status 0, or ``TOO_LARGE`` when the
    edge list would pass ``max_listings`` entries (then the arrays are empty); ``listings``
    after the reference's removal of unchanged arcs longer than one step."""
    reach1, reach2 = _reached(moves1), _reached(moves2)
    node_id, rows, cols = _nodes(reach1, reach2)
    count = rows.shape[0]
    steps_out, steps_in, n_in, lattice, n_keys = _lattice_steps(source, hypothesis, moves1, moves2, reach1,
                                                                reach2, node_id, rows)
    if lattice.shape[0] > max_listings:
        return TOO_LARGE, rows, cols, np.empty((0, 7), dtype=np.int32), lattice[:0]
    listings = _grow(lattice, 4 * lattice.shape[0] + 16)
    n_listings = lattice.shape[0]
    keys = np.empty((max(16, 4 * n_keys), 7), dtype=np.int32)
    # Each node's incoming arcs, sorted by source, as rows of the key columns and the key id
    # (column KEY); copied to ``keys`` when the sweep leaves the node (then they are final).
    empty = np.empty((0, 8), dtype=np.int32)
    incoming = [steps_in[w, :n_in[w]].copy() for w in range(count)]
    # Step 2: the forward sweep (see the module docstring).
    for k in range(count):
        into = incoming[k]
        n_into = into.shape[0]
        accepted = np.full((3, n_into), -1, dtype=np.int64)
        n_accepted = 0
        for direction in range(3):
            if steps_out[k, direction, KEY] < 0:
                continue
            target = steps_out[k, direction, DST]
            fresh, made = _extend(into, incoming[target], target, steps_out[k, direction, UNCHANGED],
                                  steps_out[k, direction, KIND], steps_out[k, direction, END], limit, n_keys,
                                  accepted[direction])
            n_keys += fresh.shape[0]
            n_accepted += made
            if fresh.shape[0]:
                incoming[target] = _merge_by_source(incoming[target], fresh)
        if n_listings + n_accepted > max_listings:
            return TOO_LARGE, rows, cols, np.empty((0, 7), dtype=np.int32), listings[:0]
        if n_accepted:
            if listings.shape[0] < n_listings + n_accepted:
                listings = _grow(listings, n_listings + n_accepted)
            for index in range(n_into):                           # by source, then by target
                for direction in range(3):
                    if accepted[direction, index] >= 0:
                        listings[n_listings] = accepted[direction, index]
                        n_listings += 1
        if keys.shape[0] < n_keys:
            keys = _grow_rows(keys, n_keys)
        for index in range(n_into):                               # v_k's incoming arcs are final
            key = into[index, KEY]
            for column in range(7):
                keys[key, column] = into[index, column]
        incoming[k] = empty
    return 0, rows, cols, keys[:n_keys], _without_long_unchanged(listings[:n_listings], keys)


@_njit(cache=True)
def _merge_by_source(known, fresh):  # pragma: no cover - compiled
    """Two row lists, each sorted by source node, merged (no source is in both)."""
    out = np.empty((known.shape[0] + fresh.shape[0], known.shape[1]), dtype=known.dtype)
    a = b = 0
    for index in range(out.shape[0]):
        if b >= fresh.shape[0] or (a < known.shape[0] and known[a, SRC] < fresh[b, SRC]):
            for column in range(known.shape[1]):
                out[index, column] = known[a, column]
            a += 1
        else:
            for column in range(known.shape[1]):
                out[index, column] = fresh[b, column]
            b += 1
    return out


@_njit(cache=True)
def base_weights(keys, listings):  # pragma: no cover - compiled
    """Step 4 without gold edits: each arc its distance, plus 0.001 per listing of a changing
    arc (added one listing at a time, as the reference's floats are); the listings per key."""
    n_keys = keys.shape[0]
    weights = np.empty(n_keys, dtype=np.float64)
    listed = np.zeros(n_keys, dtype=np.int64)
    for key in range(n_keys):
        weights[key] = float(keys[key, DIST])
    for p in range(listings.shape[0]):
        key = listings[p]
        listed[key] += 1
        if keys[key, KIND] != NOOP:
            weights[key] += _EPSILON
    return weights, listed


@_njit(cache=True)
def _matches(key, g, keys, rows, cols, source, hypothesis, golds):  # pragma: no cover - compiled
    """The reference's ``matches``: the same label span, the same original tokens, the
    correction one of the gold alternatives (token codes compared: equal token sequences are
    equal joined strings for tokens without whitespace, as every tokeniser here makes them)."""
    spans, alternatives, bounds, codes = golds
    g_lo, g_hi = spans[g, 0], spans[g, 1]
    if keys[key, START] != g_lo or keys[key, END] != g_hi:
        return False
    v, w = keys[key, SRC], keys[key, DST]
    lo, hi = rows[v], rows[w]
    if lo != g_lo or hi != g_hi:
        if hi - lo != g_hi - g_lo:
            return False
        for t in range(hi - lo):
            if source[lo + t] != source[g_lo + t]:
                return False
    c_lo, c_hi = cols[v], cols[w]
    for alternative in range(alternatives[g, 0], alternatives[g, 1]):
        a_lo, a_hi = bounds[alternative, 0], bounds[alternative, 1]
        if a_hi - a_lo != c_hi - c_lo:
            continue
        equal = True
        for t in range(c_hi - c_lo):
            if hypothesis[c_lo + t] != codes[a_lo + t]:
                equal = False
                break
        if equal:
            return True
    return False


@_njit(cache=True)
def gold_span_keys(keys, listed, gold_spans, span_bound):  # pragma: no cover - compiled
    """The listed arcs whose span label is the span of one of ``gold_spans`` (in key order)."""
    n_gold = gold_spans.shape[0]
    gold_start = np.zeros(span_bound, dtype=np.bool_)
    for g in range(n_gold):
        if 0 <= gold_spans[g, 0] < span_bound:
            gold_start[gold_spans[g, 0]] = True
    n_keys = keys.shape[0]
    chosen = np.empty(n_keys, dtype=np.int64)
    n_chosen = 0
    for key in range(n_keys):
        s = keys[key, START]
        if listed[key] and gold_start[s]:
            e = keys[key, END]
            for g in range(n_gold):
                if gold_spans[g, 0] == s and gold_spans[g, 1] == e:
                    chosen[n_chosen] = key
                    n_chosen += 1
                    break
    return chosen[:n_chosen]


@_njit(cache=True)
def gold_weights(chosen, keys, listed, rows, cols, source, hypothesis, weights, n_listings,
                 golds):  # pragma: no cover - compiled
    """Step 4 for one annotator: ``weights`` (the base weights) with the arcs of each gold span
    weighed again as the reference does (a match -|E|; the insertion spans' two-pointer walk).

    ``chosen``: the arcs of the gold spans (:func:`gold_span_keys`), sorted by span, then by
    (source, target), as the reference sorts a span's arcs. ``golds`` = (spans, alternatives,
    bounds, codes): ``spans[g]`` the (start, end) of gold edit g in the annotator's order, its
    alternatives rows ``alternatives[g, 0]`` to ``alternatives[g, 1]`` (excluded) of
    ``bounds``, each the range of its token codes in ``codes``."""
    gold_spans = golds[0]
    n_gold = gold_spans.shape[0]
    n_chosen = chosen.shape[0]
    out = weights.copy()
    matched = -float(n_listings)
    in_span = np.empty(n_gold, dtype=np.int64)
    first = 0
    while first < n_chosen:
        s, e = keys[chosen[first], START], keys[chosen[first], END]
        last = first
        while last < n_chosen and keys[chosen[last], START] == s and keys[chosen[last], END] == e:
            last += 1
        n_arcs = 0
        for index in range(first, last):
            n_arcs += listed[chosen[index]]
        arcs = np.empty(n_arcs, dtype=np.int64)           # the span's listings, sorted
        position = 0
        for index in range(first, last):
            key = chosen[index]
            out[key] = float(keys[key, DIST])
            for _ in range(listed[key]):
                arcs[position] = key
                position += 1
        n_span_gold = 0
        for g in range(n_gold):
            if gold_spans[g, 0] == s and gold_spans[g, 1] == e:
                in_span[n_span_gold] = g
                n_span_gold += 1
        span_golds = in_span[:n_span_gold]
        if s != e:
            for arc in arcs:
                hit = False
                for index in range(n_span_gold):
                    if _matches(arc, span_golds[index], keys, rows, cols, source, hypothesis, golds):
                        hit = True
                        break
                if hit:
                    out[arc] = matched
                elif keys[arc, KIND] != NOOP:
                    out[arc] += _EPSILON
        else:
            _insertion_walk(arcs, span_golds, out, matched, keys, rows, cols, source, hypothesis, golds)
        first = last
    return out


@_njit(cache=True)
def _insertion_walk(arcs, span_golds, out, matched, keys, rows, cols, source, hypothesis,
                    golds):  # pragma: no cover - compiled
    """The reference's two-pointer walk over an insertion span's sorted listings and gold edits:
    after a match from the left (right), the listings up to the matched arc's target (from its
    source) are passed over with 0.001 each."""
    left, right, cur = 0, arcs.shape[0] - 1, 0
    g_left, g_right = 0, span_golds.shape[0] - 1
    while left <= right:
        arc = arcs[cur]
        hit = -1
        if cur == left:
            for index in range(g_left, g_right + 1):
                if _matches(arc, span_golds[index], keys, rows, cols, source, hypothesis, golds):
                    hit = index
                    break
        else:
            for index in range(g_right, g_left - 1, -1):
                if _matches(arc, span_golds[index], keys, rows, cols, source, hypothesis, golds):
                    hit = index
                    break
        if hit >= 0:
            out[arc] = matched
            if cur == left:
                g_left = hit + 1
            else:
                g_right = hit - 1
        elif keys[arc, KIND] != NOOP:
            out[arc] += _EPSILON
        if hit >= 0 and cur == left:
            left += 1
            while left < arcs.shape[0] and keys[arcs[left], SRC] != keys[arc, DST]:
                out[arcs[left]] += _EPSILON
                left += 1
            cur = left
        elif hit >= 0:
            right -= 1
            while right >= 0 and keys[arcs[right], DST] != keys[arc, SRC]:
                out[arcs[right]] += _EPSILON
                right -= 1
            cur = right
        elif cur == left:
            left += 1
            cur = right
        else:
            right -= 1
            cur = left


@_njit(cache=True)
def bellman_ford(sources, targets, listings, weights, n_nodes):  # pragma: no cover - compiled
    """Step 5: passes over the listings in order (``sources[p]`` -> ``targets[p]`` is arc
    ``listings[p]``, weighing ``weights[p]``), float sums, a node's arc replaced only on a
    strictly smaller cost, until a pass changes nothing (the remaining passes of the reference
    would change nothing either). Returns the keys of the path's arcs, from the end backwards."""
    cost = np.full(n_nodes, np.inf)
    cost[0] = 0.0
    via = np.full(n_nodes, -1, dtype=np.int64)
    for _ in range(max(1, n_nodes - 1)):
        changed = False
        for p in range(listings.shape[0]):
            target = targets[p]
            value = cost[sources[p]] + weights[p]
            if value < cost[target]:
                cost[target] = value
                via[target] = p
                changed = True
        if not changed:
            break
    path = np.empty(n_nodes, dtype=np.int64)
    length = 0
    node = n_nodes - 1
    while via[node] >= 0:
        path[length] = listings[via[node]]
        length += 1
        node = sources[via[node]]
    return path[:length]
