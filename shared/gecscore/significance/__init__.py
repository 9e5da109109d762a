"""System-vs-system significance over sentences: the paired bootstrap
(:mod:`~gecscore.significance.bootstrap`) and, per pair of systems, bootstrap and approximate
randomisation (:mod:`~gecscore.significance.comparison`), every pair of systems in clusters
(:mod:`~gecscore.significance.system_clusters`) and the rank rule of those clusters
(:mod:`~gecscore.significance.ranks`). Functions over sentence statistics: nothing here runs a
metric."""
