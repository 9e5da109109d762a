"""Metrics: from labelled counts to scores."""
