"""The one way a file the user named is opened: looked at before it is opened, read whole, and
(for text) decoded as strict UTF-8.

A path on a command line, in a systems folder, in a Space upload or in a LightEval task can name
something that is not a file, and reading it blindly goes wrong in ways no later check catches:

- a named pipe (FIFO): ``open()`` waits for a writer, for ever (a leaderboard hung on one
  ``PIPE.txt`` beside the system outputs);
- a device: ``/dev/zero`` never ends, ``/dev/tty`` waits for typing, ``/dev/null`` reads as an
  empty file (a system with no lines), and opening some (a tape, a watchdog, a serial line)
  has effects of its own;
- a socket cannot be opened at all; a folder, a symbolic link loop or a broken link give an
  ``OSError`` whose text does not say what the path is.

So :func:`check_file` looks first with ``os.stat``, which opens nothing, and refuses anything
that is not a regular file with a :class:`~gecscore.errors.GecInputError` naming the path and
what it is. :func:`read_bytes` then opens with ``O_NONBLOCK`` and checks the opened file again
with ``fstat``: a path swapped for a FIFO between the look and the open is refused too, and
opening it cannot wait (``O_NONBLOCK`` makes opening a FIFO return at once). The stat comes
first anyway because only a stat looks at a device without opening it. Nothing here opens a
path without both checks.

:func:`decode_text` is the text rule of every reader (:func:`gecscore.io.text.read_lines`, the
M2, parallel, hypothesis and human-score readers): UTF-8, a leading byte-order mark dropped,
and a file that is not text refused at its first bad line: bytes that are not UTF-8, or a NUL
byte (binary data; no text format gecscore reads has one).
:func:`folder_files` lists the files of a folder (a leaderboard's systems) the same way,
setting aside, by name, every entry that is not a regular file.
"""
from __future__ import annotations

import errno
import fnmatch
import os
import stat as stat_module
import sys
from dataclasses import dataclass
from pathlib import Path

from gecscore.errors import GecInputError

STDIN = "-"
#: opened read-only, without waiting (a FIFO), without becoming the controlling terminal (a
#: tty), and not inherited by child processes (where the system has the flags)
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words (``a named pipe (FIFO)``)."""
    if stat_module.S_ISREG(mode):
        return "a regular file"
    if stat_module.S_ISDIR(mode):
        return "a folder"
    if stat_module.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat_module.S_ISSOCK(mode):
        return "a socket"
    if stat_module.S_ISCHR(mode):
        return "a character device"
    if stat_module.S_ISBLK(mode):
        return "a block device"
    return "an unknown kind of file"


def _refusal(mode: int) -> str:
    """Why a path of ``mode`` (not a regular file) is not read."""
    why = (": reading it would wait for a writer (to stream text, pipe it to standard input and give '-')"
           if stat_module.S_ISFIFO(mode) else "")
    return f"is {kind_of(mode)}, not a regular file{why}"


def _stat_problem(path: str, error: OSError) -> str:
    """What a failed ``os.stat`` of ``path`` says about it."""
    if error.errno == errno.ELOOP:
        return "is a symbolic link loop (too many levels of symbolic links)"
    if error.errno == errno.ENOENT:
        if os.path.islink(path):
            return f"is a broken symbolic link (to {os.readlink(path)!r}, which does not exist)"
        return "no such file"
    if error.errno == errno.ENOTDIR:
        return "no such file (a part of the path is a file, not a folder)"
    if error.errno == errno.EACCES:
        return "cannot read: permission denied"
    return f"cannot read: {error.strerror or error}"


def file_problem(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a file (``no such file``, ``is a named pipe (FIFO), not a
    regular file ...``), or None for a regular file. Looks with ``os.stat`` only: nothing is
    opened."""
    try:
        found = os.stat(path)
    except OSError as error:
        return _stat_problem(os.fspath(path), error)
    except ValueError as error:   # a NUL character in the path
        return f"not a usable path ({error})"
    return None if stat_module.S_ISREG(found.st_mode) else _refusal(found.st_mode)


def check_file(path: str | Path, name: str | None = None) -> None:
    """Refuse ``path`` unless it is a regular file (:func:`file_problem`), naming it as ``name``
    (default: the path) in a one-line :class:`GecInputError`."""
    problem = file_problem(path)
    if problem is not None:
        raise GecInputError(problem, name or str(path))


def _open_checked(path: str | Path, name: str) -> int:
    """A read-only descriptor of the regular file ``path``: looked at before the open, and the
    opened file checked again (see the module docstring)."""
    check_file(path, name)
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError as error:   # unreadable, or swapped since the look (a socket, a loop)
        raise GecInputError(_stat_problem(os.fspath(path), error), name) from None
    try:
        opened = os.fstat(descriptor)
        if not stat_module.S_ISREG(opened.st_mode):   # swapped for a FIFO or a device since the look
            raise GecInputError(_refusal(opened.st_mode), name)
        if _OPEN_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(descriptor, True)   # a regular file's reads as usual from here
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def check_readable(path: str | Path, name: str | None = None) -> None:
    """Refuse ``path`` unless it is a regular file this process may read (opened and closed,
    nothing read): the command line's look at its inputs before any work
    (:func:`gecscore.cli.inputs.check_inputs`), where a file may be read only minutes later."""
    os.close(_open_checked(path, name or str(path)))


def read_bytes(path: str | Path, name: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, checked before it is opened and again once it is
    (see the module docstring); errors name ``name`` (default: the path)."""
    name = name or str(path)
    with os.fdopen(_open_checked(path, name), "rb") as handle:
        try:
            return handle.read()
        except OSError as error:
            raise GecInputError(f"cannot read: {error.strerror or error}", name) from None


def decode_text(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text without a leading byte-order mark; bytes that are not UTF-8 or a
    NUL byte (a binary file) raise a :class:`GecInputError` naming ``name`` and the line of the
    first of them."""
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if nul < 0 or error.start < nul:
            line = data[:error.start].count(b"\n") + 1
            hint = "; it is UTF-16 (save it as UTF-8)" if data.startswith(_UTF16_BOMS) else ""
            raise GecInputError(f"not UTF-8 text (byte {data[error.start]:#04x}{hint})", f"{name}:{line}") from None
        text = ""
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise GecInputError("not text: a NUL byte (a binary file?)", f"{name}:{line}")
    return text


def read_text(path: str | Path, name: str | None = None, *, stdin: bool = False) -> str:
    """The text of ``path``: :func:`read_bytes` then :func:`decode_text`; with ``stdin``, the
    path ``-`` is standard input. Line ends are kept (a reader of lines drops a CR before LF:
    :func:`gecscore.io.text.read_lines`)."""
    if stdin and os.fspath(path) == STDIN:
        return decode_text(sys.stdin.buffer.read(), name or STDIN)
    return decode_text(read_bytes(path, name), name or str(path))


def folder_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a folder to list (missing, a file, a FIFO, a loop ...), or None."""
    try:
        found = os.stat(path)
    except OSError as error:
        problem = _stat_problem(os.fspath(path), error)
        return "no such folder" if problem == "no such file" else problem
    if not stat_module.S_ISDIR(found.st_mode):
        return f"is {kind_of(found.st_mode)}, not a folder"
    return None


@dataclass(frozen=True)
class FolderFiles:
    """The entries of a folder matching a pattern: its regular ``files`` (sorted by name), and
    the ``skipped`` ones as ``(path, what it is)`` (``is a named pipe (FIFO)``)."""

    files: tuple[Path, ...]
    skipped: tuple[tuple[Path, str], ...]

    def skipped_line(self) -> str:
        """One line naming every skipped entry and why (empty when none was)."""
        if not self.skipped:
            return ""
        listed = "; ".join(f"{path.name} {why}" for path, why in self.skipped)
        one = len(self.skipped) == 1
        return (f"skipped {len(self.skipped)} entr{'y' if one else 'ies'} that {'is' if one else 'are'} not "
                f"{'a regular file' if one else 'regular files'} (not opened): {listed}")


def folder_files(folder: str | Path, pattern: str) -> FolderFiles:
    """The entries of ``folder`` whose name matches ``pattern`` (``*.txt``; case-sensitive, as
    ``Path.glob``), split into regular files and the rest (a FIFO, a socket, a device, a
    folder, a link loop or a broken link: each looked at with ``os.stat``, none opened). A
    folder that cannot be listed is a :class:`GecInputError` naming it."""
    problem = folder_problem(folder)
    if problem is not None:
        raise GecInputError(problem, str(folder))
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError as error:
        raise GecInputError(f"cannot list: {error.strerror or error}", str(folder)) from None
    files, skipped = [], []
    for entry in names:
        if not fnmatch.fnmatchcase(entry, pattern):
            continue
        path = Path(folder) / entry
        try:
            mode = os.stat(path).st_mode
        except OSError as error:
            skipped.append((path, _stat_problem(str(path), error)))
            continue
        if stat_module.S_ISREG(mode):
            files.append(path)
        else:
            skipped.append((path, f"is {kind_of(mode)}"))
    return FolderFiles(tuple(files), tuple(skipped))
