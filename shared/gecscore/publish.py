"""Build a metric's Hugging Face Space folder and upload it.

The folder is what ``evaluate.load("<namespace>/<name>")`` and the Space need:

    <out>/<name>/README.md          the metric card (Space YAML header + evaluate's sections)
    <out>/<name>/<name>.py          the evaluate.Metric script
    <out>/<name>/app.py             the Gradio app
    <out>/<name>/requirements.txt   gecscore and every dependency, pinned

The folder is named after the metric, so ``evaluate.load(<out>/<name>)`` works on it directly.
"""
from __future__ import annotations

import importlib.metadata
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from gecscore import __version__
from gecscore.errors import GecInputError

METRICS = ("cleme2", "pt_m2", "imeasure", "dsgram")
CARD = "README.md"
APP = "app.py"
REQUIREMENTS = "requirements.txt"
REQUIRED_HEADER = {"sdk": "gradio", "app_file": APP}
NAME_PATTERN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$")
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def repo_root() -> Path:
    """The checkout holding ``metrics/`` and ``spaces/`` (``shared/gecscore/`` -> two levels up)."""
    return Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class SpaceSources:
    """Where a metric's Space files come from."""

    name: str
    script: Path
    card: Path
    app: Path
    requirements: Path

    @classmethod
    def find(cls, name: str, root: Path | None = None) -> "SpaceSources":
        if name not in METRICS:
            raise GecInputError(f"unknown metric {name!r}; expected one of: {', '.join(METRICS)}")
        root = Path(root) if root else repo_root()
        sources = cls(name, root / "metrics" / name / f"{name}.py", root / "metrics" / name / CARD,
                      root / "spaces" / name / APP, root / "metrics" / name / REQUIREMENTS)
        missing = [str(p) for p in (sources.script, sources.card, sources.app, sources.requirements)
                   if not p.is_file()]
        if missing:
            raise GecInputError(f"the {name} Space cannot be built; missing: {', '.join(missing)}")
        return sources


def card_header(card: Path) -> dict:
    """The YAML header of a card, checked for what a Gradio Space needs."""
    from huggingface_hub.repocard import metadata_load

    header = metadata_load(card) or {}
    for key, value in REQUIRED_HEADER.items():
        if header.get(key) != value:
            raise GecInputError(f"the card's YAML header needs {key}: {value} (has {header.get(key)!r})",
                                str(card))
    if not header.get("title"):
        raise GecInputError("the card's YAML header needs a title", str(card))
    return header


def requirement_name(line: str) -> str | None:
    """The normalised distribution name of a requirements line (None for comments/blank)."""
    match = _REQUIREMENT_NAME.match(line.split("#", 1)[0])
    return re.sub(r"[-_.]+", "-", match.group(1)).lower() if match else None


def pinned(line: str) -> str:
    """``name==installed`` when the installed version satisfies ``line``; ``line`` otherwise."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(line)
    except InvalidRequirement:
        return line
    if requirement.url or requirement.marker is not None:
        return line
    try:
        installed = importlib.metadata.version(requirement.name)
    except importlib.metadata.PackageNotFoundError:
        return line
    if requirement.specifier and not requirement.specifier.contains(installed, prereleases=True):
        return line
    extras = f"[{','.join(sorted(requirement.extras))}]" if requirement.extras else ""
    return f"{requirement.name}{extras}=={installed}"


def library_requirements() -> list[str]:
    """gecscore's own install requirements (no extras), from its installed metadata."""
    try:
        declared = importlib.metadata.requires("gecscore") or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [r for r in declared if "extra ==" not in r.replace("'", '"').replace('"', "")
            and "extra==" not in r.replace(" ", "")]


def space_requirements(metric_requirements: str, gecscore_requirement: str | None = None) -> str:
    """requirements.txt of the Space: gecscore first, then the metric's and the library's
    requirements, each pinned to the installed version when that fits; comments kept."""
    lines = [gecscore_requirement or f"gecscore=={__version__}"]
    seen = {"gecscore"}
    comments = []
    for line in [*metric_requirements.splitlines(), *library_requirements()]:
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            comments.append(stripped)
            continue
        name = requirement_name(stripped)
        if name is None or name in seen:
            continue
        seen.add(name)
        lines.append(pinned(stripped))
    return "\n".join([*lines, *comments]) + "\n"


def assemble(name: str, out: str | Path, *, root: Path | None = None,
             gecscore_requirement: str | None = None) -> Path:
    """Write the Space folder ``<out>/<name>`` and return it (a previous build is replaced)."""
    sources = SpaceSources.find(name, root)
    header = card_header(sources.card)
    folder = Path(out) / name
    expected = {CARD, APP, REQUIREMENTS, f"{name}.py"}
    if folder.exists():
        unexpected = sorted(p.name for p in folder.iterdir() if p.name not in expected)
        if unexpected:
            raise GecInputError(f"refusing to overwrite a folder with other files ({', '.join(unexpected)})",
                                str(folder))
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copyfile(sources.card, folder / CARD)
    shutil.copyfile(sources.script, folder / f"{name}.py")
    shutil.copyfile(sources.app, folder / APP)
    requirements = space_requirements(sources.requirements.read_text(encoding="utf-8"), gecscore_requirement)
    (folder / REQUIREMENTS).write_text(requirements, encoding="utf-8")
    _warn_sdk_version(header, sources.card)
    return folder


def _warn_sdk_version(header: dict, card: Path) -> None:
    try:
        installed = importlib.metadata.version("gradio")
    except importlib.metadata.PackageNotFoundError:
        return
    if str(header.get("sdk_version")) != installed:
        print(f"gecscore publish: warning: {card} has sdk_version {header.get('sdk_version')} "
              f"but the app was tested with gradio {installed}", file=sys.stderr)


def check_repo_part(kind: str, value: str) -> str:
    if not NAME_PATTERN.match(value or ""):
        raise GecInputError(f"invalid {kind} {value!r}: letters, digits, '-', '_' and '.' only")
    return value


def upload(folder: str | Path, namespace: str, *, token: str | None = None, private: bool = False,
           api=None) -> str:
    """Create the Space ``<namespace>/<folder name>`` if needed and upload the folder; return its URL.

    ``api`` defaults to ``huggingface_hub.HfApi(token=token)`` (a fake can be passed in tests).
    """
    folder = Path(folder)
    repo_id = f"{check_repo_part('namespace', namespace)}/{check_repo_part('Space name', folder.name)}"
    if api is None:
        from huggingface_hub import HfApi

        api = HfApi(token=token)
    repo = api.create_repo(repo_id, repo_type="space", space_sdk="gradio", exist_ok=True, private=private)
    api.upload_folder(repo_id=repo_id, folder_path=str(folder), repo_type="space",
                      commit_message=f"gecscore {__version__}: publish {folder.name}")
    return str(getattr(repo, "url", None) or f"https://huggingface.co/spaces/{repo_id}")
