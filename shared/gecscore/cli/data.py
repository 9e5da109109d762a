"""``gecscore data list|get|path|info``: the known evaluation sets (:mod:`gecscore.benchdata`)."""
from __future__ import annotations

import argparse
import sys

from gecscore.outputs import json_text
from gecscore.warnings_once import with_warnings


def register(subparsers) -> None:
    help_text = "the known evaluation sets (CoNLL-2014, SEEDA, ...): list, fetch, locate"
    parser = subparsers.add_parser(
        "data", help=help_text,
        description="The known evaluation sets, fetched from their official sources, verified and laid out in the "
                    "data folder: --data-dir, else $GEC_DATA, else $XDG_DATA_HOME/gecscore (~/.local/share/gecscore). "
                    "Commands that read a named set fetch it on first use; GECSCORE_OFFLINE=1 (or HF_HUB_OFFLINE=1) "
                    "turns downloads off. See docs/data.md.")
    actions = parser.add_subparsers(dest="data_action", metavar="<action>", required=True)
    listing = actions.add_parser("list", help="every known set, its size and licence, and whether it is here")
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    get = actions.add_parser("get", help="fetch sets (NAME ... or all) into the data folder and verify them")
    get.add_argument("names", nargs="+", metavar="NAME", help="set names (see `gecscore data list`) or all")
    get.add_argument("--force", action="store_true",
                     help="replace files that are there but differ from the catalogue")
    path = actions.add_parser("path", help="print the data folder, or a set's folder (fetching it if missing)")
    path.add_argument("name", nargs="?", metavar="NAME", help="a set name (none: the data folder)")
    info = actions.add_parser("info", help="a set's files, sources (pinned URLs), licence and BibTeX")
    info.add_argument("name", metavar="NAME")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    for sub in (listing, get, path, info):
        sub.add_argument("--data-dir", help="the data folder (default $GEC_DATA, else the per-user data folder)")
        sub.add_argument("--quiet", action="store_true", help="no progress bars on stderr")
        sub.set_defaults(run=run)
    parser.set_defaults(run=run)


def _check_names(names: list[str]) -> list[str]:
    from gecscore.benchdata import CATALOGUE
    from gecscore.errors import GecInputError

    if "all" in names:
        return list(CATALOGUE)
    unknown = [n for n in names if n not in CATALOGUE]
    if unknown:
        raise GecInputError(f"unknown set(s) {', '.join(unknown)}; expected one of: {', '.join(CATALOGUE)} or all")
    return list(dict.fromkeys(names))


def _status(dataset, root) -> str:
    from gecscore.benchdata.layout import Verifier

    states = Verifier(root).check_set(dataset)
    ok = sum(s.ok for s in states)
    if ok == len(states):
        return "here"
    if any(s.state == "mismatch" for s in states):
        return "differs"
    return "partial" if ok else "absent"


def run(args: argparse.Namespace) -> int:
    return {"list": _list, "get": _get, "path": _path, "info": _info}[args.data_action](args)


def _list(args: argparse.Namespace) -> int:
    from gecscore.benchdata import CATALOGUE, data_folder

    root = data_folder(args.data_dir)
    rows = [{"name": d.name, "title": d.title, "files": len(d.files), "bytes": d.size, "status": _status(d, root),
             "licence": d.licence} for d in CATALOGUE.values()]
    if args.json:
        print(json_text(with_warnings({"data_folder": str(root), "sets": rows})))
        return 0
    print(f"data folder: {root}")
    for row in rows:
        print(f"{row['name']:16} {row['files']:3} files {row['bytes'] / 1e6:5.1f} MB  {row['status']:8} {row['title']}")
    return 0


def _get(args: argparse.Namespace) -> int:
    from gecscore.benchdata import CATALOGUE, fetch_set
    from gecscore.benchdata.fetch import credits

    for name in _check_names(args.names):
        report = fetch_set(CATALOGUE[name], args.data_dir, force=args.force)
        print(f"{name}: {len(report.fetched)} file(s) fetched ({report.downloaded_bytes / 1e6:.1f} MB downloaded), "
              f"{len(report.present)} already there and verified, in {report.root}")
        print(credits(CATALOGUE[name]))
    return 0


def _path(args: argparse.Namespace) -> int:
    from gecscore.benchdata import CATALOGUE, data_folder, require

    if args.name is None:
        print(data_folder(args.data_dir))
        return 0
    name = _check_names([args.name])[0]
    dataset = CATALOGUE[name]
    root = require([dataset.files[0].path], args.data_dir)
    print(root / dataset.folder)
    return 0


def _info(args: argparse.Namespace) -> int:
    from gecscore.benchdata import CATALOGUE, data_folder
    from gecscore.benchdata.fetch import url_of

    dataset = CATALOGUE[_check_names([args.name])[0]]
    root = data_folder(args.data_dir)
    files = [{"path": f.path, "bytes": f.size, "sha256": f.sha256, "derivation": f.derivation, "url": url_of(f),
              **({"upstream_bytes": f.upstream_size, "upstream_sha256": f.upstream_sha256}
                 if f.upstream_sha256 else {})} for f in dataset.files]
    if args.json:
        print(json_text(with_warnings({"name": dataset.name, "title": dataset.title,
                                       "description": dataset.description, "folder": str(root / dataset.folder),
                                       "licence": dataset.licence, "citation": dataset.citation,
                                       "bibtex": dataset.bibtex, "files": files})))
        return 0
    out = sys.stdout
    out.write(f"{dataset.name}: {dataset.title}\n{dataset.description}\nfolder: {root / dataset.folder}\n"
              f"licence: {dataset.licence}\ncite: {dataset.citation}\n\n")
    for f in files:
        origin = f["url"] or f"made by gecscore ({f['derivation']})"
        note = "" if f["derivation"] == "copy" else f"  [{f['derivation']}]"
        out.write(f"{f['path']}  {f['bytes']} B  sha256 {f['sha256']}\n    <- {origin}{note}\n")
    out.write(f"\n{dataset.bibtex}\n")
    return 0
