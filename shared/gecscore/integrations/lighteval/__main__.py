"""``python -m gecscore.integrations.lighteval ARGS``: the ``lighteval`` command line with the
offline fix of :mod:`gecscore.integrations.lighteval.offline` applied (same arguments)."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from gecscore.integrations.lighteval.offline import tolerate_broken_builtin_tasks

    tolerate_broken_builtin_tasks()
    from lighteval.__main__ import app

    sys.argv = ["lighteval", *(sys.argv[1:] if argv is None else argv)]
    app()


if __name__ == "__main__":
    main()
