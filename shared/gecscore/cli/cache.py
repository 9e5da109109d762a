"""``gecscore cache info|clear``: what the persistent cache holds, and emptying it
(:mod:`gecscore.cache`)."""
from __future__ import annotations

import argparse

from gecscore.outputs import json_text
from gecscore.warnings_once import with_warnings


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "cache", help="the persistent cache of parses and edits: info or clear",
        description="The persistent cache ($GECSCORE_CACHE_DIR, else ~/.cache/gecscore/store; off with "
                    "GECSCORE_NO_CACHE=1 or a command's --no-cache; at most $GECSCORE_CACHE_MAX_BYTES, 2 GiB "
                    "by default, least recently used entries out first).")
    parser.add_argument("action", choices=("info", "clear"), help="info: where, how many entries, how big; "
                                                                  "clear: delete every entry and every "
                                                                  "temporary file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from gecscore.cache.store import DiskCache, default_dir, enabled, max_bytes

    store = DiskCache(default_dir(), max_bytes())
    if args.action == "clear":
        removed = store.clear()
        print(json_text(with_warnings({"path": str(store.root), "removed": removed})) if args.json else
              f"removed {removed} entries (and any temporary files) from {store.root}")
        return 0
    info = store.info()
    if args.json:
        print(json_text(with_warnings({**info.as_dict(), "enabled": enabled()})))
        return 0
    state = "on" if enabled() else "off (GECSCORE_NO_CACHE)"
    print(f"{info.path}: {info.entries} entries, {info.bytes / 2**20:.1f} MiB of {info.max_bytes / 2**20:.0f} MiB; "
          f"cache {state}")
    for namespace, (entries, size) in sorted(info.by_namespace.items()):
        print(f"  {namespace}: {entries} entries, {size / 2**20:.1f} MiB")
    if info.temporary[0]:
        print(f"  temporary files (writers running, or killed): {info.temporary[0]}, "
              f"{info.temporary[1] / 2**20:.1f} MiB (removed when an hour old, or by `gecscore cache clear`)")
    return 0
