"""The per-user folders the library keeps files in when the user names none, and whether a
folder is the user's alone.

A home folder is not a given: a container run under an arbitrary uid has ``HOME`` unset and no
passwd entry (``Path.home()`` raises ``RuntimeError`` there), and ``HOME`` can be relative. So
every default folder is found through here, and "there is none" is an answer (None), which each
caller turns into what it needs: the persistent cache is off, numba's kernels are kept
elsewhere, a judge cache asks for a path in one line.

- :func:`home`: the user's home folder (absolute), else None;
- :func:`cache_home`: ``$XDG_CACHE_HOME`` when it is absolute (the XDG base directory
  specification says a relative one is invalid and to be ignored), else ``<home>/.cache``,
  else None;
- :func:`store_folder`: the persistent cache's folder (:mod:`gecscore.cache.store`):
  ``$GECSCORE_CACHE_DIR``, else ``<cache home>/gecscore/store``, else None;
- :func:`unsafe_reason`: why a folder must not be read from (another user owns it, or group or
  others can write to it: anybody who can write there could plant a file that gets unpickled).
"""
from __future__ import annotations

import os
import stat as stat_module
from pathlib import Path

CACHE_DIR_ENV = "GECSCORE_CACHE_DIR"


def home() -> Path | None:
    """The user's home folder (``Path.home()``: ``$HOME``, else the passwd entry), or None where
    it cannot be found or is not an absolute path."""
    try:
        found = Path.home()
    except (RuntimeError, KeyError, OSError):
        return None
    return found if found.is_absolute() else None


def cache_home() -> Path | None:
    """``$XDG_CACHE_HOME`` when absolute, else ``<home>/.cache``, else None."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg)
    found = home()
    return None if found is None else found / ".cache"


def data_home() -> Path | None:
    """``$XDG_DATA_HOME`` when absolute, else ``<home>/.local/share``, else None."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg)
    found = home()
    return None if found is None else found / ".local" / "share"


def store_folder() -> Path | None:
    """The persistent cache's folder: ``$GECSCORE_CACHE_DIR``, else
    ``<cache home>/gecscore/store``, else None (no home folder and no absolute
    ``$XDG_CACHE_HOME``)."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = cache_home()
    return None if base is None else base / "gecscore" / "store"


def unsafe_reason(path: Path, stat: os.stat_result | None = None) -> str | None:
    """Why files under ``path`` (a folder or a file) must not be read, or None: another user
    owns it, or group or others can write it (then anybody who can write there could plant an
    entry). Not checked where the system has no owners (Windows)."""
    if not hasattr(os, "geteuid"):
        return None
    try:
        stat = stat or path.stat()
    except OSError:
        return None
    if stat.st_uid != os.geteuid():
        return f"{path} is owned by another user (uid {stat.st_uid})"
    if stat.st_mode & (stat_module.S_IWGRP | stat_module.S_IWOTH):
        return f"{path} is writable by group or others (mode {stat.st_mode & 0o7777:o})"
    return None
