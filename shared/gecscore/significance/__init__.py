"""System-vs-system significance over sentences: the paired bootstrap
(:mod:`~gecscore.significance.bootstrap`) and, per pair of systems, bootstrap and approximate
randomisation (:mod:`~gecscore.significance.comparison`). Functions over sentence statistics:
nothing here runs a metric."""
