"""The one place output paths are checked and opened.

Every file gecscore writes (per-sentence records, a converted XML gold, judge transcripts and
Batch API files, the judge cache, leaderboard and publish folders) goes through here, so a path
that is a folder, lies under a regular file or cannot be created is one clear
:class:`OutputPathError` naming the path (the CLI prints it on one line and exits with 2)
instead of an ``IsADirectoryError`` traceback after minutes of scoring. Checking is cheap and
creates only the missing parent folders, so a command can check its outputs before it starts
the work whose result they hold.

JSON output (``--json``, ``leaderboard.json``, per-sentence records, Space downloads) is
written by :func:`json_text` only: strict JSON, where a number that is undefined (NaN, an
infinity: no data, a failed judge) is ``null``, because ``NaN`` is not JSON and a strict
reader (``jq``, JavaScript, most JSON libraries) refuses the whole document.
"""
from __future__ import annotations

import json
import math
import numbers
import os
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Mapping

from gecscore.errors import GecInputError


class OutputPathError(GecInputError):
    """An output path that cannot be written; ``where`` is the path (and what it is for)."""


def json_ready(value: Any) -> Any:
    """``value`` with every non-finite float (NaN, +-inf: an undefined number) made ``None``,
    numpy floats made Python floats, and tuples made lists, at any depth."""
    if isinstance(value, Mapping):
        return {key: json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(item) for item in value]
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        number = float(value)
        return number if math.isfinite(number) else None
    return value


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)`` as strict JSON: undefined numbers are ``null``
    (:func:`json_ready`), and ``allow_nan=False`` makes any that slipped through an error
    instead of a document no strict reader accepts."""
    return json.dumps(json_ready(value), allow_nan=False, **options)


def _where(path: Path, what: str | None) -> str:
    return f"{path} ({what})" if what else str(path)


def _blocking_file(path: Path) -> Path | None:
    """The first ancestor of ``path`` that exists but is not a folder (a file in the way)."""
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            return parent
    return None


def check_output_folder_parent(path: Path, what: str | None = None) -> None:
    """The folder that will hold ``path`` exists or can be created, and is writable."""
    blocking = _blocking_file(path)
    if blocking is not None:
        raise OutputPathError(f"cannot write here: {blocking} is a file, not a folder", _where(path, what))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputPathError(f"cannot create its folder: {error.strerror or error}", _where(path, what)) from None
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"cannot write in the folder {path.parent} (permission denied)", _where(path, what))


def check_output_file(path: str | os.PathLike, what: str | None = None) -> Path:
    """``path`` as a Path, after checking that a file can be written there: it is not a folder,
    no parent is a file, the parent folder exists (created if missing) and is writable, and an
    existing file is writable. ``what`` says what the file is for (e.g. ``per-sentence
    records``), shown in the error."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise OutputPathError("is a folder; give a file path", _where(path, what))
    check_output_folder_parent(path, what)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputPathError("cannot overwrite the file (permission denied)", _where(path, what))
    return path


def check_output_folder(path: str | os.PathLike, what: str | None = None) -> Path:
    """``path`` as a Path, after checking that a folder can be written there: it is not a file
    and no parent is a file; its parent exists (created if missing) and is writable."""
    path = Path(path).expanduser()
    if path.exists() and not path.is_dir():
        raise OutputPathError("is a file, not a folder", _where(path, what))
    check_output_folder_parent(path, what)
    return path


def open_output(path: str | os.PathLike, mode: str = "w", what: str | None = None, **options: Any) -> IO:
    """``open(path, mode)`` for writing, after :func:`check_output_file`; an ``OSError`` the
    check could not foresee (a full disk, a race) is an :class:`OutputPathError` too."""
    path = check_output_file(path, what)
    if "b" not in mode:
        options.setdefault("encoding", "utf-8")
    try:
        return open(path, mode, **options)
    except OSError as error:
        raise OutputPathError(f"cannot open for writing: {error.strerror or error}", _where(path, what)) from None


def write_output_text(path: str | os.PathLike, text: str, what: str | None = None) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`open_output`."""
    with open_output(path, "w", what) as handle:
        try:
            handle.write(text)
        except OSError as error:
            raise OutputPathError(f"cannot write: {error.strerror or error}", _where(Path(path), what)) from None
    return Path(path)


# ---------------------------------------------------------------- staging folders of killed runs

#: a staging folder older than this (seconds) belongs to a run that died: a live one renames or
#: deletes its own within the run
STALE_STAGING_S = 3600.0


def remove_stale_staging(folder: Path, suffixes: Iterable[str]) -> list[Path]:
    """Delete what a killed run left beside ``folder`` (a folder or file): its staging folders
    or partial files ``.<name>.<random>.<suffix>`` (``suffix`` among ``suffixes``: made by
    :func:`tempfile.mkdtemp` for a whole-folder write, or a download's ``.part``) once older than
    :data:`STALE_STAGING_S`; the paths deleted. A run that is still writing keeps its own (it is
    younger), and nothing else is touched."""
    import shutil
    import time

    removed = []
    parent = folder.parent
    if not parent.is_dir():
        return removed
    now = time.time()
    for suffix in suffixes:
        for candidate in parent.glob(f".{folder.name}.*.{suffix}"):
            try:
                stat = candidate.lstat()
            except OSError:
                continue
            if now - stat.st_mtime <= STALE_STAGING_S or candidate.is_symlink():
                continue
            if candidate.is_dir():
                shutil.rmtree(candidate, ignore_errors=True)
            else:
                candidate.unlink(missing_ok=True)
            removed.append(candidate)
    return removed


# ---------------------------------------------------------------- folders gecscore owns
#
# A command that replaces a whole folder (``leaderboard --out``, ``publish``) owns only the files
# it wrote there: a stamp file in the folder lists them, and a rerun deletes those and nothing
# else, at any depth. A folder holding anything else is refused before any work, naming it.

MANIFEST_HEAD = "files written:"


def manifest_text(header: str, folder: Path) -> str:
    """A stamp's text: ``header`` (who wrote the folder), then every file now under ``folder``."""
    return listed_text(header, (p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()))


def listed_text(header: str, files: Iterable[str]) -> str:
    """A stamp's text listing ``files`` (relative, POSIX), for a command that owns only those
    files of a folder (:func:`read_manifest` reads it back)."""
    return f"{header}\n{MANIFEST_HEAD}\n" + "".join(f"{f}\n" for f in sorted(files))


def read_manifest(stamp: Path) -> set[str] | None:
    """The files (relative, POSIX) a stamp lists; None without a stamp or a list in it (a folder
    written by an older gecscore: the caller decides what such a folder may hold)."""
    if not stamp.is_file():
        return None
    lines = stamp.read_text(encoding="utf-8", errors="replace").splitlines()
    if MANIFEST_HEAD not in lines:
        return None
    return set(lines[lines.index(MANIFEST_HEAD) + 1:]) - {""}


def _never(relative: Path) -> bool:
    return False


def foreign_entries(folder: Path, written: set[str], removable: Callable[[Path], bool] = _never) -> list[str]:
    """Everything under ``folder``, at any depth, that replacing it must not delete: files not
    in ``written`` (relative, POSIX) for which ``removable`` (a cache, say) is false, links, and
    anything that is neither a plain file nor a folder."""
    foreign = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            foreign.append(f"{relative.as_posix()} (a link or special file)")
        elif path.is_file() and relative.as_posix() not in written and not removable(relative):
            foreign.append(relative.as_posix())
    return foreign


def remove_written(folder: Path, written: set[str], removable: Callable[[Path], bool] = _never) -> None:
    """Delete ``folder``: the files in ``written`` and the ``removable`` ones, one by one and
    nothing else, then its emptied folders, deepest first, then itself. Whatever else is found
    (it appeared after the check) is kept, with its folder, and named in an
    :class:`OutputPathError`."""
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        relative = path.relative_to(folder)
        if path.is_file() and not path.is_symlink() and (relative.as_posix() in written or removable(relative)):
            path.unlink()
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
            path.rmdir()
    left = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if not p.is_dir() or p.is_symlink())
    if left:
        raise OutputPathError(f"kept, holding files gecscore did not write ({', '.join(left[:5])})", str(folder))
    folder.rmdir()
