"""Alignments: the CLEME chunk partition."""
from gecscore.align.chunk_partition import partition_chunks

__all__ = ["partition_chunks"]
