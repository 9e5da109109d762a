"""Readers and writers: M2, parallel text."""
from gecscore.io.m2 import M2Sentence, read_m2, parse_m2
from gecscore.io.text import read_lines

__all__ = ["M2Sentence", "read_m2", "parse_m2", "read_lines"]
