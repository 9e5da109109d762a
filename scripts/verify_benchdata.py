"""Check a data folder against gecscore's catalogue of named sets (gecscore.benchdata): every
file's size and SHA-256, set by set; ``--urls`` lists the pinned source URL of every file.

    GEC_DATA=/path/to/data python scripts/verify_benchdata.py [--urls]

Exit status 0 when every file of every set is there and verifies, 1 otherwise.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from gecscore.benchdata import CATALOGUE, data_folder  # noqa: E402
from gecscore.benchdata.fetch import url_of  # noqa: E402
from gecscore.benchdata.layout import Verifier  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="the folder to check (default: $GEC_DATA, else the per-user data folder)")
    parser.add_argument("--urls", action="store_true", help="also list every file's pinned source URL")
    args = parser.parse_args()
    root = data_folder(args.data_dir)
    verifier = Verifier(root)
    failures = 0
    print(f"data folder: {root}")
    for dataset in CATALOGUE.values():
        states = verifier.check_set(dataset)
        bad = [s for s in states if not s.ok]
        failures += len(bad)
        print(f"{dataset.name:16} {len(states) - len(bad):3}/{len(states)} files verify ({dataset.size:,} bytes)")
        for state in bad:
            print(f"    {state.file.path}: {state.describe()}")
        if args.urls:
            for file in dataset.files:
                print(f"    {file.path} <- {url_of(file) or 'made by gecscore (' + file.derivation + ')'}")
    total = sum(len(d.files) for d in CATALOGUE.values())
    print(f"{total - failures}/{total} files verify")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
