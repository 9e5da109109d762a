"""Run the CLI and an evaluate module from an installed gecscore wheel (``make wheel-check``).

Run with the wheel venv's python, outside the checkout (so ``import gecscore`` is the wheel's):

    python scripts/check_wheel_install.py <checkout>

It checks that gecscore comes from site-packages, that the model stack, Gradio and matplotlib are
absent (the base install), scores ``examples/`` with ``gecscore cleme2`` and with the cleme2
evaluate module (the two must agree), and that a model-weighted metric names the extra to install.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path


def main(checkout: Path) -> int:
    import gecscore

    where = Path(gecscore.__file__).resolve()
    assert "site-packages" in where.parts, f"gecscore imported from {where}, not from the wheel"
    absent = [name for name in ("torch", "transformers", "gradio", "matplotlib", "playwright")
              if importlib.util.find_spec(name) is None]
    assert len(absent) == 5, f"the base install brought {sorted({'torch', 'transformers', 'gradio', 'matplotlib', 'playwright'} - set(absent))}"
    examples = checkout / "examples"
    files = ["--src", examples / "source.txt", "--hyp", examples / "hypothesis.txt",
             "--ref", examples / "reference0.txt", "--ref", examples / "reference1.txt"]
    gecscore_cli = Path(sys.executable).with_name("gecscore")
    cli = json.loads(subprocess.run([gecscore_cli, "cleme2", *map(str, files), "--json", "--quiet"],
                                    check=True, capture_output=True, text=True).stdout)

    import evaluate

    def lines(name: str) -> list[str]:
        return (examples / name).read_text(encoding="utf-8").splitlines()

    module = evaluate.load(str(checkout / "metrics" / "cleme2"))
    result = module.compute(sources=lines("source.txt"), predictions=lines("hypothesis.txt"),
                            references=[list(pair) for pair in zip(lines("reference0.txt"), lines("reference1.txt"))])
    assert result["score"] == cli["score"], (result["score"], cli["score"])
    assert result["signature"] == cli["signature"], (result["signature"], cli["signature"])
    weighted = subprocess.run([gecscore_cli, "pt_m2", *map(str, files)], capture_output=True, text=True)
    assert weighted.returncode == 2 and "pip install 'gecscore[models]'" in weighted.stderr, weighted.stderr
    print(f"wheel install OK: gecscore {gecscore.__version__} from {where.parent}")
    print(f"  {cli['signature']}")
    print(f"  score {cli['score']:.4f} (CLI) == {result['score']:.4f} (evaluate module)")
    print(f"  pt_m2 with a model: {weighted.stderr.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).resolve()))
