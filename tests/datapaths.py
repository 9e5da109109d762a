"""Where the real evaluation data lives (GEC_DATA, default ../shared/data beside the repo)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GEC_DATA = Path(os.environ.get("GEC_DATA", REPO.parent / "shared" / "data"))
CONLL14 = GEC_DATA / "conll14"


def require(path: Path) -> Path:
    """Skip the calling test when a data file is absent."""
    if not path.exists():
        pytest.skip(f"evaluation data not found at {path} (set GEC_DATA)")
    return path
