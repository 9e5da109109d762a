"""A bounded least-recently-used mapping (the free and MultiGEC profiles' edit and parse caches).

A leaderboard or a training loop scores the same sources and references again and again, so
their edits are kept; the bound keeps a long run from growing without limit. Same interface as
the ERRANT extractor's caches (``get_fresh``, ``put``, ``in``, ``[]``), since the MultiGEC
extractor reuses that extractor's methods."""
from __future__ import annotations

from collections import OrderedDict


class BoundedCache(OrderedDict):
    """At most ``capacity`` entries; reading with :meth:`get_fresh` or writing with :meth:`put`
    makes an entry the most recent, and the least recent goes first when full."""

    def __init__(self, capacity: int):
        super().__init__()
        self.capacity = capacity

    def get_fresh(self, key):
        """The value of ``key`` (None when absent), now the most recent."""
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.capacity:
            self.popitem(last=False)
