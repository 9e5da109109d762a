"""Gradio Space: where does my system stand? Upload one system output, name it, press Score, and see
it among a benchmark's published systems under every model-free configuration of `gecscore
leaderboard`, with its rank, its significance cluster, which columns to believe, its per-type table
and plots.

The benchmarks' data are fetched by name from the catalogue at start-up (`gecscore data get`'s
sources; `GEC_DATA` names the folder), the published systems' cells are computed once and kept in
the persistent cache (`GECSCORE_CACHE_DIR`). Runs from the repository or from a published Space
folder; needs only ``gecscore`` (and gradio). Settings: see gecscore/spaces/leaderboard_page.py.
"""
from gecscore.spaces.leaderboard_page import Boards
from gecscore.spaces.leaderboard_page import build_demo
from gecscore.spaces.leaderboard_page import launch

boards = Boards.from_env()
demo = build_demo(boards)

if __name__ == "__main__":
    boards.prepare_in_background()   # the first benchmark's board, before the first visitor asks
    launch(demo)
