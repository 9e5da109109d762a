"""Where the evaluation data lives, and whether a file there is the catalogue's.

The data folder (:func:`data_folder`): ``--data-dir`` where a command has it, else
``$GEC_DATA``, else the per-user folder (:func:`user_data_dir`: ``$XDG_DATA_HOME/gecscore``,
else ``~/.local/share/gecscore``; ``%LOCALAPPDATA%\\gecscore`` on Windows), never the working
directory. Named sets are fetched into it. One more folder is read, never written, as a last
resort: ``shared/data`` beside a source checkout of the repository (:func:`checkout_data_dir`),
where the project's developers keep the data; it is used only when it exists and holds the
whole set, verified.

A file is verified when its size and SHA-256 are the catalogue's. A folder gecscore fetched into
carries ``.gecscore/verified.json``, the (size, mtime, ctime, inode) of each file when it last
verified; a file whose four values are unchanged is not hashed again. Any write to a file
changes its ctime, which a program cannot set back, so a stamp cannot vouch for edited bytes.
Elsewhere (a folder gecscore did not fill, or a read-only one) files are hashed on every check:
the largest set is 6 MB, a few milliseconds.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from gecscore.benchdata.catalogue import DataFile, DataSet
from gecscore.errors import GecInputError
from gecscore.user_folders import data_home

DATA_ENV = "GEC_DATA"
OFFLINE_ENVS = ("GECSCORE_OFFLINE", "HF_HUB_OFFLINE")
MARKER_DIR = ".gecscore"
STAMPS = "verified.json"
_TRUE = {"1", "true", "yes", "on"}


def user_data_dir() -> Path:
    """The per-user data folder: ``$XDG_DATA_HOME/gecscore``, else ``~/.local/share/gecscore``
    (``%LOCALAPPDATA%\\gecscore`` on Windows); without a home folder, an error saying to set
    ``GEC_DATA``."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "gecscore"
    base = data_home()
    if base is None:
        raise GecInputError(f"no folder for named data sets: no home folder (HOME unset and no passwd entry) and "
                            f"no absolute $XDG_DATA_HOME; set {DATA_ENV} (or --data-dir) to a folder")
    return base / "gecscore"


def checkout_data_dir() -> Path | None:
    """``shared/data`` beside the repository when gecscore runs from a source checkout (the
    developers' layout) and that folder exists; None otherwise."""
    repo = Path(__file__).resolve().parents[3]
    folder = repo.parent / "shared" / "data"
    if (repo / "setup.cfg").is_file() and folder.is_dir():
        return folder
    return None


def data_folder(data_dir: str | Path | None = None) -> Path:
    """Where named sets are read and fetched: ``data_dir``, else ``$GEC_DATA``, else
    :func:`user_data_dir`."""
    if data_dir is not None and str(data_dir) != "":
        return Path(data_dir).expanduser()
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV]).expanduser()
    return user_data_dir()


def candidate_folders(data_dir: str | Path | None = None) -> tuple[Path, ...]:
    """The folders a named set is looked for in, in order: :func:`data_folder`, then (only when
    neither ``data_dir`` nor ``$GEC_DATA`` chose the folder) :func:`checkout_data_dir`."""
    primary = data_folder(data_dir)
    chosen = (data_dir is not None and str(data_dir) != "") or bool(os.environ.get(DATA_ENV))
    checkout = None if chosen else checkout_data_dir()
    return (primary,) if checkout is None or checkout.resolve() == primary.resolve() else (primary, checkout)


def offline() -> bool:
    """Downloads are off: ``GECSCORE_OFFLINE`` or ``HF_HUB_OFFLINE`` is set to a true value."""
    return any(os.environ.get(name, "").strip().lower() in _TRUE for name in OFFLINE_ENVS)


def offline_variable() -> str:
    return next(name for name in OFFLINE_ENVS if os.environ.get(name, "").strip().lower() in _TRUE)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class FileState:
    """A data file as found: ``missing``, ``ok`` or ``mismatch`` (``found``: its size and hash)."""

    file: DataFile
    path: Path
    state: str
    found_size: int | None = None
    found_sha256: str | None = None

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    def describe(self) -> str:
        if self.state == "missing":
            return "missing"
        return (f"{self.found_size} bytes, sha256 {self.found_sha256}; the catalogue has {self.file.size} bytes, "
                f"sha256 {self.file.sha256}")


def _stat_key(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]


class Verifier:
    """Checks the files of a data folder against the catalogue, remembering what it verified
    (``.gecscore/verified.json`` where the folder has the marker, this object otherwise)."""

    def __init__(self, root: Path):
        self.root = root
        self.stamp_path = root / MARKER_DIR / STAMPS
        self.stamps: dict[str, list] = self._read_stamps()
        self.changed = False

    def _read_stamps(self) -> dict[str, list]:
        try:
            stamps = json.loads(self.stamp_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return stamps if isinstance(stamps, dict) else {}

    def check(self, file: DataFile) -> FileState:
        path = self.root / file.path
        try:
            stat = path.stat()
        except OSError:
            return FileState(file, path, "missing")
        if not path.is_file():
            return FileState(file, path, "missing")
        key = _stat_key(stat)
        if self.stamps.get(file.path) == [*key, file.sha256]:
            return FileState(file, path, "ok")
        if stat.st_size != file.size:
            return FileState(file, path, "mismatch", stat.st_size, sha256_of(path))
        found = sha256_of(path)
        if found != file.sha256:
            return FileState(file, path, "mismatch", stat.st_size, found)
        self.remember(file, path)
        return FileState(file, path, "ok")

    def remember(self, file: DataFile, path: Path) -> None:
        try:
            self.stamps[file.path] = [*_stat_key(path.stat()), file.sha256]
            self.changed = True
        except OSError:
            pass

    def check_set(self, dataset: DataSet) -> list[FileState]:
        return [self.check(f) for f in dataset.files]

    def save(self) -> None:
        """Write the stamps where the folder carries gecscore's marker (it fetched there); a
        failed write only costs a re-hash next time."""
        if not self.changed or not self.stamp_path.parent.is_dir():
            return
        tmp = self.stamp_path.with_name(f".{STAMPS}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(self.stamps, sort_keys=True), encoding="utf-8")
            tmp.replace(self.stamp_path)
            self.changed = False
        except OSError:
            tmp.unlink(missing_ok=True)
