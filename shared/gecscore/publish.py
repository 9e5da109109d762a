"""Build a metric's Hugging Face Space folder and upload it.

The folder is what ``evaluate.load("<namespace>/<name>")`` and the Space need:

    <out>/<name>/README.md          the metric card (Space YAML header + evaluate's sections)
    <out>/<name>/<name>.py          the evaluate.Metric script
    <out>/<name>/app.py             the Gradio app
    <out>/<name>/requirements.txt   every dependency, pinned, all on PyPI
    <out>/<name>/gecscore/          the library's source (vendored; see below)

The folder is named after the metric, so ``evaluate.load(<out>/<name>)`` works on it directly.

A Space that is not one metric's (:data:`SPACES_WITHOUT_METRIC`: the leaderboard) has no metric
script: its card and requirements sit beside its app in ``spaces/<name>/``, and its folder holds
the card, the app, the requirements and the vendored library.

The Space must build with nothing but PyPI, before gecscore itself is on an index: by default the
library's own source is copied into the folder (``app.py`` imports it from its own folder, where
the Space runs), and ``requirements.txt`` lists gecscore's dependencies (its base requirements,
the metric's extras and Gradio at the card's ``sdk_version``), each pinned to the version
installed here. ``--gecscore-requirement SPEC`` (e.g. ``gecscore==0.1.0`` once released)
installs gecscore from that line instead and vendors nothing.

Publishing owns that folder and nothing else: it is marked with a stamp file
(``.gecscore-space``) that lists every file the build wrote, built in a temporary sibling and
renamed into place. An existing ``<out>/<name>`` is replaced only when it carries the stamp and
holds, at any depth, nothing but the files the stamp lists (and Python's bytecode caches); a
file anywhere else in it (e.g. ``gecscore/chunks/notes.txt``) makes the build refuse, so no file
publishing did not write is ever deleted. A folder without the stamp (e.g. ``--out metrics``, whose ``metrics/<name>`` holds
the metric's own sources), a symlink, or a folder holding or inside the sources is refused
before anything is written.
"""
from __future__ import annotations

import importlib.metadata
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gecscore.version import __version__
from gecscore.errors import GecInputError
from gecscore.registry import module_names

CARD = "README.md"
APP = "app.py"
REQUIREMENTS = "requirements.txt"
STAMP = ".gecscore-space"
VENDORED = "gecscore"
PYCACHE = "__pycache__"   # written when the folder's app or module is run: a cache, removable
_BUILT_FOLDERS = (VENDORED, PYCACHE)
_NOT_VENDORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
REQUIRED_HEADER = {"sdk": "gradio", "app_file": APP}
NAME_PATTERN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$")
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


#: Spaces that serve no single metric: ``spaces/<name>/`` holds their app, card and requirements
SPACES_WITHOUT_METRIC = ("leaderboard",)


def space_names() -> list[str]:
    """Every Space ``gecscore publish`` builds: one per metric module, then the others."""
    return [*module_names(), *SPACES_WITHOUT_METRIC]


def repo_root() -> Path:
    """The checkout holding ``metrics/`` and ``spaces/`` (``shared/gecscore/`` -> two levels up)."""
    return Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class SpaceSources:
    """Where a Space's files come from (``script``: the metric's evaluate script; None for a
    Space of :data:`SPACES_WITHOUT_METRIC`)."""

    name: str
    script: Path | None
    card: Path
    app: Path
    requirements: Path

    @classmethod
    def find(cls, name: str, root: Path | None = None) -> "SpaceSources":
        if name not in space_names():
            raise GecInputError(f"unknown metric {name!r}; expected one of: {', '.join(space_names())}")
        root = Path(root) if root else repo_root()
        if name in SPACES_WITHOUT_METRIC:
            space = root / "spaces" / name
            sources = cls(name, None, space / CARD, space / APP, space / REQUIREMENTS)
        else:
            sources = cls(name, root / "metrics" / name / f"{name}.py", root / "metrics" / name / CARD,
                          root / "spaces" / name / APP, root / "metrics" / name / REQUIREMENTS)
        missing = [str(p) for p in sources.files() if not p.is_file()]
        if missing:
            raise GecInputError(f"the {name} Space cannot be built; missing: {', '.join(missing)}")
        return sources

    def files(self) -> list[Path]:
        """The source files the build copies (the sources a build must never overwrite)."""
        return [p for p in (self.script, self.card, self.app, self.requirements) if p is not None]


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
    """``name==installed`` (its public part) when the installed version satisfies ``line``;
    ``line`` otherwise."""
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
    return f"{requirement.name}{extras}=={_public_version(installed)}"


def _public_version(version: str) -> str:
    """``2.13.0+cpu`` -> ``2.13.0``: indexes serve no local versions, so a pin must not name one."""
    from packaging.version import InvalidVersion, Version

    try:
        return Version(version).public
    except InvalidVersion:
        return version


def library_requirements(extras: frozenset[str] = frozenset()) -> list[str]:
    """gecscore's own install requirements and those of ``extras``, from its installed metadata
    (setup.cfg declares each once)."""
    from packaging.requirements import Requirement

    try:
        declared = importlib.metadata.requires("gecscore") or []
    except importlib.metadata.PackageNotFoundError:
        return []
    chosen = []
    for line in declared:
        requirement = Requirement(line)
        if requirement.marker is None:
            chosen.append(line)
        elif any(requirement.marker.evaluate({"extra": extra}) for extra in extras):
            requirement.marker = None
            chosen.append(str(requirement))
    return chosen


def _gecscore_extras(lines: list[str]) -> frozenset[str]:
    """The extras named by ``gecscore[...]`` lines of a metric's requirements.txt."""
    from packaging.requirements import InvalidRequirement, Requirement

    extras: set[str] = set()
    for line in lines:
        try:
            requirement = Requirement(line.split("#", 1)[0].strip())
        except InvalidRequirement:
            continue
        if requirement.name == "gecscore":
            extras |= requirement.extras
    return frozenset(extras)


def space_requirements(metric_requirements: str, gecscore_requirement: str | None = None,
                       gradio_version: str | None = None) -> str:
    """requirements.txt of the Space: ``gecscore_requirement`` first when given (None: gecscore is
    vendored, no line), then Gradio at ``gradio_version`` (the card's ``sdk_version``), the
    metric's and the library's requirements, each pinned to the installed version when that
    fits; comments kept."""
    lines = [gecscore_requirement] if gecscore_requirement else []
    seen = {"gecscore"}
    comments = []
    extra = [f"gradio=={gradio_version}"] if gradio_version else []
    metric_lines = metric_requirements.splitlines()
    for line in [*extra, *metric_lines, *library_requirements(_gecscore_extras(metric_lines))]:
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
    """Write the Space folder ``<out>/<name>`` and return it.

    A previous build (stamped, with only build files) is replaced as a whole; anything else at
    ``<out>/<name>`` is refused with a :class:`GecInputError` and left untouched."""
    sources = SpaceSources.find(name, root)
    header = card_header(sources.card)
    from gecscore.outputs import check_output_folder, remove_stale_staging

    folder = Path(out) / name
    vendor = not gecscore_requirement
    built = {CARD, APP, REQUIREMENTS, VENDORED, PYCACHE} | ({f"{name}.py"} if sources.script else set())
    check_build_folder(folder, built, sources)
    check_output_folder(folder, "the Space folder")
    sdk_version = header.get("sdk_version")
    requirements = space_requirements(sources.requirements.read_text(encoding="utf-8"), gecscore_requirement,
                                      str(sdk_version) if sdk_version else None)
    folder.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(folder, ("building",))   # what a killed build left beside it
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".building", dir=folder.parent))
    try:
        shutil.copyfile(sources.card, staging / CARD)
        if sources.script is not None:
            shutil.copyfile(sources.script, staging / f"{name}.py")
        shutil.copyfile(sources.app, staging / APP)
        (staging / REQUIREMENTS).write_text(requirements, encoding="utf-8")
        if vendor:
            shutil.copytree(library_source(), staging / VENDORED, ignore=_NOT_VENDORED)
        (staging / STAMP).write_text(stamp_text(name, staging), encoding="utf-8")
        staging.chmod(0o755)
        if folder.exists():
            _remove_build(folder, built)
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _warn_sdk_version(header, sources.card)
    return folder


def library_source() -> Path:
    """The folder of the ``gecscore`` package this code runs from (a checkout or an install)."""
    return Path(__file__).resolve().parent


def stamp_text(name: str, folder: Path) -> str:
    """The stamp: who built the folder, then every file in it (what a rebuild may delete)."""
    from gecscore.outputs import manifest_text

    return manifest_text(f"built by gecscore publish {name} ({__version__}); replaced on every build", folder)


def written_files(folder: Path, built: set[str]) -> set[str]:
    """The files a previous build wrote into ``folder`` (relative, POSIX): the stamp's list; for
    a stamp without one (an older gecscore), the top-level build files and the vendored files
    that exist in this library's source."""
    from gecscore.outputs import read_manifest

    if not (folder / STAMP).is_file():   # an empty folder taken over: nothing written yet
        return set()
    listed = read_manifest(folder / STAMP)
    if listed is not None:
        return listed
    library = library_source()
    vendored = {f"{VENDORED}/{p.relative_to(library).as_posix()}" for p in library.rglob("*") if p.is_file()}
    return {n for n in built if n not in _BUILT_FOLDERS} | vendored


def _is_bytecode_cache(relative: Path) -> bool:
    """A file Python writes when the folder's code runs (``__pycache__/*.pyc``): removable."""
    return relative.parent.name == PYCACHE and relative.suffix == ".pyc"


def foreign_entries(folder: Path, built: set[str]) -> list[str]:
    """Everything under ``folder``, at any depth, that a rebuild must not delete (the rule every
    folder gecscore replaces follows: :func:`gecscore.outputs.foreign_entries`)."""
    from gecscore.outputs import foreign_entries as foreign

    return foreign(folder, written_files(folder, built) | {STAMP}, _is_bytecode_cache)


def check_build_folder(folder: Path, built: set[str], sources: SpaceSources) -> None:
    """Refuse a ``folder`` that publishing does not own (see the module docstring)."""
    protected = sources.files()
    target = folder.resolve()
    for path in protected:
        path = path.resolve()
        if target == path or target in path.parents:
            raise GecInputError(f"refusing to build over the metric's sources ({path} is inside it); "
                                "choose another output folder", str(folder))
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise GecInputError("refusing to replace something that is not a folder gecscore publish built; "
                            "choose another output folder", str(folder))
    if not folder.exists():
        return
    present = {p.name for p in folder.iterdir()}
    if present and STAMP not in present:
        raise GecInputError(f"refusing to overwrite a folder gecscore publish did not build (no {STAMP} "
                            f"stamp; it holds {', '.join(sorted(present)[:5])}); choose another output folder",
                            str(folder))
    unexpected = sorted(present - built - {STAMP})
    if unexpected:
        raise GecInputError(f"refusing to overwrite a folder with other files ({', '.join(unexpected)})",
                            str(folder))
    odd = [n for n in present if (folder / n).is_symlink()
           or not ((folder / n).is_file() or (n in _BUILT_FOLDERS and (folder / n).is_dir()))]
    if odd:
        raise GecInputError(f"refusing to overwrite a folder holding links or folders ({', '.join(sorted(odd))})",
                            str(folder))
    foreign = foreign_entries(folder, built)
    if foreign:
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise GecInputError(f"refusing to overwrite a folder holding files gecscore publish did not write "
                            f"({', '.join(foreign[:5])}{more}); move them away or choose another output folder",
                            str(folder))


def _remove_build(folder: Path, built: set[str]) -> None:
    """Delete a previous build: the files it wrote and bytecode caches (all that
    :func:`check_build_folder` let through) and nothing else
    (:func:`gecscore.outputs.remove_written`: anything that appeared meanwhile is kept, and
    the build fails)."""
    from gecscore.outputs import remove_written

    remove_written(folder, written_files(folder, built) | {STAMP}, _is_bytecode_cache)


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
                      ignore_patterns=[STAMP, "**/__pycache__/**", "*.pyc"], commit_message=f"gecscore {__version__}: publish {folder.name}")
    return str(getattr(repo, "url", None) or f"https://huggingface.co/spaces/{repo_id}")
