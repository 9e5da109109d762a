"""Fetching the catalogue's sets into the data folder, and finding them there.

:func:`fetch_set` downloads each missing (or, with ``force``, each unverified) file of a set
from ``<base>/<owner>/<name>/<commit>/<path>``, ``<base>`` being
``https://raw.githubusercontent.com`` or ``$GECSCORE_DATA_BASE_URL`` (for tests and mirrors
only: a mirror must serve the same bytes, which are verified anyway). A download streams into a
temporary file beside its target (``.<name>.<pid>.part``); the file is derived if the catalogue
says so, its size and SHA-256 are checked, and only then is it renamed into place. A mismatch
is an error naming the file and nothing of it is left behind. Transport failures (a dropped
connection, a truncated body) are retried :data:`ATTEMPTS` times; an HTTP error status is not.

:func:`require` is what a reader of named data calls: it returns the folder that holds the
sets of the given paths, verified, fetching them on first use (with a message on stderr, as
sacreBLEU does) unless downloads are off (``GECSCORE_OFFLINE`` / ``HF_HUB_OFFLINE``) or the
network is unreachable; then it raises one line naming the missing file and the
``gecscore data get NAME`` command that fetches it.
"""
from __future__ import annotations

import hashlib
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from gecscore.benchdata.catalogue import (CATALOGUE, COPY, EMBEDDED, SEEDA_SYSTEMS, STRIP_TRAILING_BLANKS,
                                          DataFile, DataSet, owner_of)
from gecscore.benchdata.layout import (MARKER_DIR, FileState, Verifier, candidate_folders, data_folder, offline,
                                       offline_variable)
from gecscore.errors import GecInputError
from gecscore.outputs import remove_stale_staging

BASE_URL_ENV = "GECSCORE_DATA_BASE_URL"
DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
ATTEMPTS = 3
RETRY_DELAY_S = 1.0
TIMEOUT_S = 60.0


class DataUnavailable(GecInputError):
    """A named set is not in the data folder and cannot be fetched now (offline, no network)."""


def base_url() -> str:
    """``$GECSCORE_DATA_BASE_URL`` (tests and mirrors) or raw.githubusercontent.com."""
    return (os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")


def url_of(file: DataFile) -> str | None:
    return None if file.url_path is None else f"{base_url()}/{file.url_path}"


def get_command(name: str) -> str:
    return f"gecscore data get {name}"


def strip_trailing_blanks(data: bytes) -> bytes:
    """Every line without its trailing spaces and tabs (line ends and everything else kept)."""
    return b"\n".join(line.rstrip(b" \t") for line in data.split(b"\n"))


def seeda_systems_text() -> bytes:
    """SEEDA's system names, one a line: the stems of its ``outputs/all/*.txt`` sorted by code point."""
    names = sorted(Path(f.path).stem for f in CATALOGUE["seeda"].files if f.path.startswith("seeda/outputs/all/"))
    return "".join(f"{name}\n" for name in names).encode("utf-8")


@dataclass
class FetchReport:
    """What :func:`fetch_set` did: files already there, fetched, and bytes downloaded."""

    dataset: DataSet
    root: Path
    present: list[str] = field(default_factory=list)
    fetched: list[str] = field(default_factory=list)
    downloaded_bytes: int = 0


def _fail_write(root: Path, error: OSError) -> GecInputError:
    reason = error.strerror or type(error).__name__
    return GecInputError(f"cannot write into the data folder ({reason}): set GEC_DATA (or --data-dir) to a "
                         "writable folder", str(error.filename or root))


class _Downloader:
    """One HTTP client for a set's files, with the retry policy; counts bytes into ``bar``."""

    def __init__(self, bar):
        import httpx

        self.httpx = httpx
        self.client = httpx.Client(timeout=TIMEOUT_S, follow_redirects=True)
        self.bar = bar

    def close(self) -> None:
        self.client.close()

    def download(self, url: str, target: Path, dataset: DataSet) -> tuple[int, str]:
        """Stream ``url`` into ``target``; returns (size, sha256). Retries transport errors."""
        httpx = self.httpx
        for attempt in range(1, ATTEMPTS + 1):
            counted = 0
            try:
                digest, size = hashlib.sha256(), 0
                with self.client.stream("GET", url) as response:
                    if response.status_code != 200:
                        raise GecInputError(f"HTTP {response.status_code} fetching {url}; "
                                            f"`{get_command(dataset.name)}` to retry", dataset.name)
                    with target.open("wb") as out:
                        for chunk in response.iter_bytes():
                            out.write(chunk)
                            digest.update(chunk)
                            size += len(chunk)
                            counted += len(chunk)
                            self.bar.update(len(chunk))
                return size, digest.hexdigest()
            except httpx.ConnectError as error:
                target.unlink(missing_ok=True)
                raise DataUnavailable(f"cannot reach {url.split('/')[2]} ({type(error).__name__}): no network? "
                                      f"`{get_command(dataset.name)}` fetches it when online", dataset.name) from None
            except (httpx.TransportError, httpx.StreamError) as error:
                target.unlink(missing_ok=True)
                self.bar.update(-counted)
                if attempt == ATTEMPTS:
                    raise GecInputError(f"download of {url} interrupted {ATTEMPTS} times ({type(error).__name__}); "
                                        f"nothing was kept; `{get_command(dataset.name)}` retries",
                                        dataset.name) from None
                time.sleep(RETRY_DELAY_S * attempt)
        raise AssertionError("unreachable")


def _part(target: Path, tag: str = "part") -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{tag}")


def _mismatch(file: DataFile, what: str, size: int, sha: str, expected_size: int, expected_sha: str,
              url: str | None) -> GecInputError:
    truncated = " (truncated download?)" if size < expected_size else ""
    origin = f" (from {url})" if url else ""
    return GecInputError(f"checksum mismatch for {what}{origin}: got {size} bytes, sha256 {sha}; expected "
                         f"{expected_size} bytes, sha256 {expected_sha}{truncated}. The upstream file changed or "
                         "the download was corrupted; nothing was written", file.path)


def _fetch_file(file: DataFile, root: Path, dataset: DataSet, downloader: _Downloader | None) -> int:
    """Make ``root/file.path`` (download, derive, verify, rename); returns bytes downloaded."""
    target = root / file.path
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _fail_write(root, error) from None
    remove_stale_staging(target, ("part", "derived"))   # what a killed download left
    part = _part(target)
    derived = _part(target, "derived")
    url = url_of(file)
    downloaded = size = 0
    sha_of_download = ""
    try:
        try:
            if file.derivation in (COPY, STRIP_TRAILING_BLANKS):
                assert downloader is not None and url is not None
                size, sha_of_download = downloader.download(url, part, dataset)
                downloaded = size
                if file.derivation == STRIP_TRAILING_BLANKS:
                    # the derived file is what is verified: blanks the derivation removes may vary upstream
                    derived.write_bytes(strip_trailing_blanks(part.read_bytes()))
                    derived.replace(part)
            else:
                data = file.content.encode("utf-8") if file.derivation == EMBEDDED else seeda_systems_text()
                part.write_bytes(data)
            data = part.read_bytes()
            sha = hashlib.sha256(data).hexdigest()
            if (len(data), sha) != (file.size, file.sha256):
                what = file.path if file.derivation == COPY else f"{file.path} as derived ({file.derivation})"
                upstream = (file.upstream_size, file.upstream_sha256)
                if file.derivation == STRIP_TRAILING_BLANKS and (size, sha_of_download) != upstream:
                    what += (f"; the upstream file is {size} bytes, sha256 {sha_of_download}, not the pinned "
                             f"{upstream[0]} bytes, sha256 {upstream[1]}")
                raise _mismatch(file, what, len(data), sha, file.size, file.sha256, url)
            part.replace(target)
        except OSError as error:   # the folder is read-only, full, ...
            raise _fail_write(root, error) from None
    finally:
        part.unlink(missing_ok=True)
        derived.unlink(missing_ok=True)
    return downloaded


def fetch_set(dataset: DataSet | str, data_dir: str | Path | None = None, *, force: bool = False,
              progress: bool = True) -> FetchReport:
    """Fetch ``dataset`` into :func:`~gecscore.benchdata.layout.data_folder` (``data_dir``):
    every file not already there and verified (``force``: also every file that is there but
    differs, which is replaced). Raises :class:`DataUnavailable` when downloads are off."""
    from gecscore.progress import bar

    dataset = CATALOGUE[dataset] if isinstance(dataset, str) else dataset
    root = data_folder(data_dir)
    verifier = Verifier(root)
    report = FetchReport(dataset, root)
    todo: list[DataFile] = []
    for state in verifier.check_set(dataset):
        if state.ok:
            report.present.append(state.file.path)
        elif state.state == "mismatch" and not force:
            raise GecInputError(f"differs from the catalogue's copy ({state.describe()}); remove it or run "
                                f"`{get_command(dataset.name)} --force` to replace it", str(state.path))
        else:
            todo.append(state.file)
    if not todo:
        verifier.save()
        return report
    if any(f.repository is not None for f in todo) and offline():
        raise DataUnavailable(f"{todo[0].path} is not in {root} and downloads are off ({offline_variable()}): "
                              f"`{get_command(dataset.name)}` fetches it when online", dataset.name)
    try:
        (root / MARKER_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _fail_write(root, error) from None
    total = sum(f.download_size for f in todo)
    with bar(desc=f"fetching {dataset.name}", total=total, unit="B", unit_scale=True,
             requested=progress) as progress_bar:
        downloader = _Downloader(progress_bar) if any(f.repository is not None for f in todo) else None
        try:
            for file in todo:
                report.downloaded_bytes += _fetch_file(file, root, dataset, downloader)
                verifier.remember(file, root / file.path)
                report.fetched.append(file.path)
        finally:
            if downloader is not None:
                downloader.close()
            verifier.save()
    return report


def fetch_message(dataset: DataSet, root: Path) -> str:
    return (f"{dataset.name} ({dataset.title}, {len(dataset.files)} files, {dataset.size / 1e6:.1f} MB) is not in "
            f"{root}: fetching it from {base_url()} (first use; `{get_command(dataset.name)}` does the same)")


def credits(dataset: DataSet) -> str:
    """Two lines: the licence and the citation of ``dataset``."""
    return f"{dataset.name}: licence: {dataset.licence}\n{dataset.name}: please cite: {dataset.citation}"


def _holds(root: Path, datasets: Iterable[DataSet]) -> tuple[bool, list[FileState]]:
    verifier = Verifier(root)
    states = [s for d in datasets for s in verifier.check_set(d)]
    verifier.save()
    return all(s.ok for s in states), states


def require(paths: Iterable[str], data_dir: str | Path | None = None, *, fetch: bool = True) -> Path:
    """The data folder holding the sets that own ``paths`` (data-folder paths such as
    ``conll14/official-2014.combined.m2``), verified; sets not there are fetched on first use.

    Looked for in :func:`~gecscore.benchdata.layout.candidate_folders` (the data folder, then a
    source checkout's ``shared/data``); fetched into the data folder. A file there that differs
    from the catalogue is an error naming it (it is never overwritten behind the user's back)."""
    paths = [p for p in paths if p is not None]
    datasets: list[DataSet] = []
    for path in paths:
        dataset = owner_of(path)
        if dataset not in datasets:
            datasets.append(dataset)
    folders = candidate_folders(data_dir)
    states_by_folder = {}
    for folder in folders:
        holds, states = _holds(folder, datasets)
        if holds:
            return folder
        states_by_folder[folder] = states
    primary = folders[0]
    mismatched = [s for s in states_by_folder[primary] if s.state == "mismatch"]
    if mismatched:
        state = mismatched[0]
        owner = owner_of(state.file.path).name
        raise GecInputError(f"differs from the catalogue's copy ({state.describe()}); remove it or run "
                            f"`{get_command(owner)} --force` to replace it", str(state.path))
    # the files asked for first: the message names one of them
    missing = sorted((s for s in states_by_folder[primary] if s.state == "missing"),
                     key=lambda s: s.file.path not in paths)
    if not fetch or (offline() and any(s.file.repository is not None for s in missing)):
        first = missing[0]
        owner = owner_of(first.file.path).name
        why = f"downloads are off ({offline_variable()})" if offline() else "fetching was not asked for"
        raise DataUnavailable(f"not in the data folder and {why}: `{get_command(owner)}` fetches it "
                              f"(or set GEC_DATA to a folder holding it)", str(first.path))
    for dataset in datasets:
        if any(s.file in dataset.files for s in missing):
            print(f"gecscore: {fetch_message(dataset, primary)}", file=sys.stderr, flush=True)
            fetch_set(dataset, primary)
            print(f"gecscore: {credits(dataset)}", file=sys.stderr, flush=True)
    return primary


def named_file(path: str, data_dir: str | Path | None = None) -> Path:
    """``require([path])`` joined with ``path``: the verified file."""
    return require([path], data_dir) / path
