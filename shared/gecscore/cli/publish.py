"""``gecscore publish <name>``: build a metric's Space folder and upload it to the Hub."""
from __future__ import annotations

import argparse
import os

from gecscore.errors import GecInputError

DEFAULT_OUT = "build/spaces"
DEFAULT_TOKEN_ENV = "HF_TOKEN"


def register(subparsers) -> None:
    from gecscore.publish import space_names

    help_text = "build a metric's Hugging Face Space folder (card, app, script, requirements) and upload it"
    parser = subparsers.add_parser("publish", help=help_text, description=help_text)
    parser.add_argument("name", choices=space_names(),
                        help="the metric to publish, or leaderboard (the leaderboard Space: upload an output, see it "
                             "among a benchmark's published systems)")
    parser.add_argument("--namespace", help="Hub user or organisation (required unless --dry-run)")
    parser.add_argument("--dry-run", action="store_true", help="only write the folder; upload nothing")
    parser.add_argument("--out", default=DEFAULT_OUT,
                        help=f"parent folder of the Space folder <OUT>/<name> (default {DEFAULT_OUT})")
    parser.add_argument("--token-env", default=DEFAULT_TOKEN_ENV, metavar="NAME",
                        help=f"environment variable holding the Hub token (default {DEFAULT_TOKEN_ENV}; "
                             "unset: the token saved by `hf auth login`)")
    parser.add_argument("--private", action="store_true", help="create the Space as private")
    parser.add_argument("--gecscore-requirement", metavar="SPEC",
                        help="requirements line for gecscore in the Space (default gecscore==<version>; "
                             "e.g. 'gecscore @ git+https://github.com/<you>/gecscore@v0.1.0')")
    parser.add_argument("--root", help="checkout holding metrics/ and spaces/ (default: this library's)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from gecscore.publish import assemble, check_repo_part, upload

    if not args.dry_run:
        if not args.namespace:
            raise GecInputError("--namespace is required to upload (or give --dry-run)")
        check_repo_part("namespace", args.namespace)
    folder = assemble(args.name, args.out, root=args.root, gecscore_requirement=args.gecscore_requirement)
    print(f"Space folder: {folder}")
    for path in sorted(folder.iterdir()):
        print(f"  {path.name}")
    if args.dry_run:
        script = (folder / f"{args.name}.py").is_file()   # a metric's Space; the leaderboard's has none
        check = f"evaluate.load({str(folder)!r})" if script else f"python {folder / 'app.py'}"
        print(f"dry run: nothing uploaded (check it with {check})")
        return 0
    token = os.environ.get(args.token_env) or None
    try:
        url = upload(folder, args.namespace, token=token, private=args.private)
    except Exception as error:  # the Hub's errors (auth, network): report without the token
        message = str(error)
        if token:
            message = message.replace(token, "***")
        hint = "" if token else f" (no token in ${args.token_env}; set it or run `hf auth login`)"
        raise GecInputError(f"upload to {args.namespace}/{args.name} failed: {message}{hint}") from None
    print(f"published: {url}")
    return 0
