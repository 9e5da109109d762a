"""Bridges from gecscore's metrics to other evaluation frameworks (each an optional extra, so
that ``import gecscore`` never needs them)."""
