"""Robustness of metrics to adversarial systems: the attacks (:mod:`~gecscore.robustness.attacks`)
and how a leaderboard ranks them beside the real systems (:mod:`~gecscore.robustness.measure`)."""
