"""Length-sorted batches (gecscore.models.batching): every input once, shortest first, within
the count and the padded-token bound (an input longer than the bound alone)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from gecscore.models.batching import length_batches


@given(st.lists(st.integers(0, 300), max_size=60), st.integers(1, 8), st.none() | st.integers(1, 600))
def test_batches_cover_every_input_once_within_the_bounds(lengths, batch_size, max_tokens):
    batches = list(length_batches(lengths, batch_size, max_tokens))
    flat = [i for batch in batches for i in batch]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths)               # shortest first
    for batch in batches:
        assert 1 <= len(batch) <= batch_size
        if max_tokens is not None and len(batch) > 1:
            assert len(batch) * max(lengths[i] for i in batch) <= max_tokens
    if max_tokens is None:   # only the count closes a batch
        assert [len(b) for b in batches[:-1]] == [batch_size] * (len(batches) - 1)
