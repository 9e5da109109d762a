"""A bounded least-recently-used mapping, for the caches that must not grow without limit in a
long run (parses, extracted edits): a training loop scoring at every step keeps its working set
and drops what it no longer meets."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Hashable


class LruCache(OrderedDict):
    """At most ``capacity`` entries; reading one with :meth:`get_fresh` or writing it with
    :meth:`put` makes it the most recent, and the least recent goes first."""

    def __init__(self, capacity: int):
        super().__init__()
        self.capacity = capacity

    def get_fresh(self, key: Hashable) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.capacity:
            self.popitem(last=False)
