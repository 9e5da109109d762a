"""A tiny leaderboard corpus shared by the leaderboard tests: two sentences, an M2 gold with its
I-measure XML, and three systems whose scores can be worked out by hand."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from gecscore.imeasure.gold import m2_to_ixml
from gecscore.io.ixml import write_ixml
from gecscore.io.m2 import read_m2
from gecscore.leaderboard.systems import SystemSource, discover_systems
from gecscore.benchdata.refsets import RefSet, load_refset

GOLD = """S The cat sit on mat .
A 2 3|||R:VERB:SVA|||sits|||REQUIRED|||-NONE-|||0
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0

S He go home .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
"""
SYSTEMS = {
    "PERFECT": ["The cat sits on the mat .", "He goes home ."],
    "HALF": ["The cat sits on mat .", "He went home ."],
    "INPUT": ["The cat sit on mat .", "He go home ."],
}


def write_tiny_board(root: Path) -> tuple[RefSet, list[SystemSource]]:
    """Write the gold (M2 and XML) and the systems under ``root``; the reference set and systems."""
    (root / "gold.m2").write_text(GOLD)
    write_ixml(m2_to_ixml(read_m2(root / "gold.m2")), root / "gold.ieval.xml")
    (root / "systems").mkdir()
    for name, lines in SYSTEMS.items():
        (root / "systems" / f"{name}.txt").write_text("\n".join(lines) + "\n")
    refset = dataclasses.replace(load_refset(root / "gold.m2"), ixml_path=root / "gold.ieval.xml")
    return refset, discover_systems(root / "systems")
