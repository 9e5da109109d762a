"""The leaderboard: every system of a folder scored with every metric configuration, and the
meta-evaluation of those scores against human rankings.

Where is what: :mod:`~gecscore.leaderboard.board` (``run_leaderboard`` and the
:class:`~gecscore.leaderboard.board.Leaderboard`), :mod:`~gecscore.leaderboard.systems` (the
systems of a folder), :mod:`~gecscore.leaderboard.configurations` (a configuration resolved
once), :mod:`~gecscore.leaderboard.presets` and :mod:`~gecscore.leaderboard.specs` (from names
to configurations), :mod:`~gecscore.leaderboard.run_wide` (options given once per run),
:mod:`~gecscore.leaderboard.shared_data` and :mod:`~gecscore.leaderboard.system_scores` (a
cell, scored with the work a process shares), :mod:`~gecscore.leaderboard.cell_cache` (cells
kept across runs), :mod:`~gecscore.leaderboard.report` (CSV, JSON, Markdown, plots); where the
cells are scored is an executor (:mod:`~gecscore.leaderboard.executor`: this process;
:mod:`~gecscore.leaderboard.processes`: local worker processes;
:mod:`~gecscore.leaderboard.dask_cluster`: a Dask cluster), chosen by the caller.
"""
