"""Chinese in the leaderboard: a parallel-file gold and --lang zh give every configuration the
numbers and signature that ``gecscore.load(name, lang="zh")`` gives on the same files."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pypinyin", reason="Chinese needs the zh extra: pip install 'gecscore[zh]'")
pytest.importorskip("opencc", reason="Chinese needs the zh extra: pip install 'gecscore[zh]'")

import gecscore  # noqa: E402
from gecscore.io.para import read_para  # noqa: E402
from gecscore.leaderboard.board import run_leaderboard  # noqa: E402
from gecscore.leaderboard.systems import discover_systems  # noqa: E402
from gecscore.benchdata.refsets import refset_from_para  # noqa: E402
from gecscore.leaderboard.run_wide import RunWide  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "zh"


def test_leaderboard_equals_the_seam_on_a_chinese_parallel_gold(tmp_path):
    (tmp_path / "SYS.txt").write_text((EXAMPLES / "hypothesis.para").read_text(encoding="utf-8"), encoding="utf-8")
    board = run_leaderboard(refset_from_para(EXAMPLES / "gold.para", "zh"), discover_systems(tmp_path),
                            ["cleme2-corpus-dep", "errant-corpus", "gleu"], options=RunWide(text={"lang": "zh"}),
                            progress=False)
    predictions = [t[0] for t in read_para(EXAMPLES / "hypothesis.para").targets]
    for config, name, options in (("cleme2-corpus-dep", "cleme2", {}),
                                  ("errant-corpus", "pt_m2", {"base": "errant", "scorer": "none"}),
                                  ("gleu", "gleu", {})):
        metric = gecscore.load(name, lang="zh", **options)
        result = metric.score(metric.prepare_para(str(EXAMPLES / "gold.para")), predictions)
        cell = board.scores["SYS"][config]
        assert cell.score == result.score
        assert cell.signature.split("|refs:")[0] == str(result.signature).split("|refs:")[0]
        assert "|lang:zh|" in cell.signature and "extractor:cherrant-char" in cell.signature
