"""Readers and writers only: M2, I-measure XML, parallel text. They produce :class:`gecscore.types.Gold`."""
from gecscore.io.m2 import parse_m2, read_m2
from gecscore.io.text import read_lines

__all__ = ["read_m2", "parse_m2", "read_lines"]
