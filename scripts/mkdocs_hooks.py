"""MkDocs hooks: pages whose one source lives elsewhere in the repository are generated here.

- ``metrics/<name>.md``: the metric card ``metrics/<name>/README.md`` without its Space YAML header;
- ``cli.md``: ``gecscore --help`` and every command's ``--help``, from the argparse parsers the
  CLI itself builds (so every flag and default shown is the one the CLI has);
- ``changelog.md``: ``CHANGELOG.md``.
"""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from mkdocs.structure.files import File

from gecscore.registry import module_names

ROOT = Path(__file__).resolve().parents[1]
_HEADER = re.compile(r"\A---\n.*?\n---\n", re.S)


def card_page(name: str) -> str:
    card = (ROOT / "metrics" / name / "README.md").read_text(encoding="utf-8")
    return _HEADER.sub("", card, count=1).lstrip()


def cli_page() -> str:
    import os

    os.environ["COLUMNS"] = "100"   # argparse wraps help at the terminal width: fix it
    from gecscore.cli import __doc__ as cli_doc, build_parser

    parser = build_parser()
    parts = ["# Command line", "", cli_doc.split("\n\n", 1)[1].strip() if cli_doc else "", "",
             "```text", parser.format_help().rstrip(), "```", ""]
    subparsers = next(action for action in parser._actions if action.__class__.__name__ == "_SubParsersAction")
    for name, command in subparsers.choices.items():
        parts += [f"## gecscore {name}", "", "```text", command.format_help().rstrip(), "```", ""]
    return "\n".join(parts)


def on_files(files, config):
    generated = {f"metrics/{name}.md": card_page(name) for name in module_names()}
    generated["cli.md"] = cli_page()
    generated["changelog.md"] = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    return files
