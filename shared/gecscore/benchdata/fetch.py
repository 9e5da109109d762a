"""Fetching the catalogue's sets into the data folder, and finding them there.

:func:`fetch_set` downloads each missing (or, with ``force``, each unverified) file of a set
from ``<base>/<owner>/<name>/<commit>/<path>``, ``<base>`` being
``https://raw.githubusercontent.com`` or ``$GECSCORE_DATA_BASE_URL`` (a mirror, for users behind
a firewall, and the tests: it must serve the same bytes, which are verified anyway). A download
is read into memory, never more than the catalogue's size of the file (a server that sends more
is serving another file: an error, at once); the file is derived if the catalogue says so, its
size and SHA-256 are checked, and only then is it written beside its target
(``.<name>.<pid>.part``) and renamed into place. A target is therefore never half-written: a
run killed at any point leaves the file absent or whole, and two runs fetching one set at once
each rename a verified copy over the other's (atomic renames, no lock). A mismatch is an error
naming the file and nothing of it is left behind.

Every download has deadlines (:class:`DownloadPolicy`): connecting, no byte for
``stall_s`` seconds (``$GECSCORE_DATA_TIMEOUT``, default 30), and the whole file within
``stall_s + size / min_rate_bps`` seconds, so a server that trickles cannot hold a run
either. A stall, a dropped connection and HTTP 408/409/425/429/5xx are retried with exponential
backoff, ``attempts`` tries in all (``$GECSCORE_DATA_ATTEMPTS``, default 3). A refused
connection, a name that does not resolve or an unreachable host is final at once (no network or
a firewall: the message names the mirror variable), and so are the other HTTP errors (4xx) and a
redirect loop. Each failure is one line naming the URL and what to do.

:func:`require` is what a reader of named data calls: it returns the folder that holds the
sets of the given paths, verified, fetching them on first use (with a message on stderr, as
sacreBLEU does) unless downloads are off (``GECSCORE_OFFLINE`` / ``HF_HUB_OFFLINE``) or the
network is unreachable; then it raises one line naming the missing file and the
``gecscore data get NAME`` command that fetches it.
"""
from __future__ import annotations

import hashlib
import math
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
from gecscore.network import (Deadline, DeadlineExceeded, backoff_s, retry_after_s, retryable_status,
                              run_with_deadline, unreachable, unreachable_reason)
from gecscore.outputs import remove_stale_staging

BASE_URL_ENV = "GECSCORE_DATA_BASE_URL"
TIMEOUT_ENV = "GECSCORE_DATA_TIMEOUT"
ATTEMPTS_ENV = "GECSCORE_DATA_ATTEMPTS"
DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
#: tries of one file in all (the first and the retries), for failures worth retrying
ATTEMPTS = 3
#: the wait before the first retry, doubled for each next one, at most MAX_RETRY_DELAY_S
RETRY_DELAY_S = 1.0
MAX_RETRY_DELAY_S = 30.0
#: no byte for this long (connecting included) is a stalled download
STALL_S = 30.0
#: connecting may take at most this long (or STALL_S when that is shorter)
CONNECT_TIMEOUT_S = 15.0
#: the whole file must come at this rate at least (bytes a second), on top of STALL_S
MIN_RATE_BPS = 8192.0
MAX_REDIRECTS = 5


class DataUnavailable(GecInputError):
    """A named set is not in the data folder and cannot be fetched now (offline, no network)."""


def _env_number(name: str, default: float, minimum: float, what: str) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < minimum:
        raise GecInputError(f"${name} must be {what}, got {raw!r}")
    return value


@dataclass(frozen=True, slots=True)
class DownloadPolicy:
    """The deadlines and retries of a download (see the module's docstring).

    ``stall_s``: longest wait for a byte (httpx's read timeout); ``connect_s``: for the
    connection; ``min_rate_bps``: the slowest whole-file rate accepted (the file's deadline is
    :meth:`deadline_s`); ``attempts``: tries in all for a failure worth retrying, with waits of
    ``retry_delay_s * 2**k`` (at most ``max_retry_delay_s``, or the server's Retry-After)."""

    stall_s: float = STALL_S
    connect_s: float = CONNECT_TIMEOUT_S
    min_rate_bps: float = MIN_RATE_BPS
    attempts: int = ATTEMPTS
    retry_delay_s: float = RETRY_DELAY_S
    max_retry_delay_s: float = MAX_RETRY_DELAY_S
    max_redirects: int = MAX_REDIRECTS

    @classmethod
    def current(cls) -> "DownloadPolicy":
        """The module's settings, with ``$GECSCORE_DATA_TIMEOUT`` (seconds without a byte) and
        ``$GECSCORE_DATA_ATTEMPTS`` (tries in all) when set."""
        stall = _env_number(TIMEOUT_ENV, STALL_S, 0.001, "a number of seconds above 0")
        attempts = int(_env_number(ATTEMPTS_ENV, ATTEMPTS, 1, "a whole number of tries, at least 1"))
        return cls(stall, min(CONNECT_TIMEOUT_S, stall), MIN_RATE_BPS, attempts, RETRY_DELAY_S, MAX_RETRY_DELAY_S,
                   MAX_REDIRECTS)

    def deadline_s(self, size: int) -> float:
        """Seconds one try of a ``size``-byte file may take: ``stall_s + size / min_rate_bps``."""
        return self.stall_s + size / self.min_rate_bps


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


class _Retry(Exception):
    """A failed try worth another: ``reason`` for the message, ``retry_after`` the server's hint."""

    def __init__(self, reason: str, retry_after: float | None = None):
        self.reason = reason
        self.retry_after = retry_after
        super().__init__(reason)


def _mirror_hint() -> str:
    if os.environ.get(BASE_URL_ENV):
        return f"check ${BASE_URL_ENV} (the mirror in use)"
    return f"behind a firewall, set ${BASE_URL_ENV} to a mirror of {DEFAULT_BASE_URL}"


def _refused_hint() -> str:
    if os.environ.get(BASE_URL_ENV):
        return f"check that ${BASE_URL_ENV} (the mirror in use) serves the file"
    return f"the pinned upstream file is gone or refused; please report it (a mirror can stand in: ${BASE_URL_ENV})"


class _Downloader:
    """One HTTP client for a set's files, with the deadlines and retries of ``policy``; counts
    bytes into ``bar``; ``notify``: say each retry on stderr (a stalled download is not silent)."""

    def __init__(self, bar, policy: DownloadPolicy, notify: bool = False):
        import httpx

        self.httpx = httpx
        self.policy = policy
        self.client = httpx.Client(timeout=httpx.Timeout(policy.stall_s, connect=policy.connect_s),
                                   follow_redirects=True, max_redirects=policy.max_redirects)
        self.bar = bar
        self.notify = notify

    def close(self) -> None:
        self.client.close()

    def download(self, url: str, size: int, dataset: DataSet, where: str) -> bytes:
        """The body of ``url``, at most ``size`` bytes (the catalogue's), within the policy's
        deadlines; failures worth it are retried (``policy.attempts`` tries in all)."""
        policy = self.policy
        command = get_command(dataset.name)
        for attempt in range(1, policy.attempts + 1):
            try:
                return run_with_deadline(policy.deadline_s(size), lambda deadline: self._get(url, size, deadline,
                                                                                            dataset, where),
                                         name="gecscore-download")
            except DeadlineExceeded as error:
                failure = _Retry(f"not complete within {_seconds(error.seconds)} s")
            except _Retry as error:
                failure = error
            if attempt == policy.attempts:
                tries = "once" if attempt == 1 else f"{attempt} times"
                raise GecInputError(f"download of {url} interrupted {tries} ({failure.reason}); nothing was kept; "
                                    f"`{command}` retries (a slow link: ${TIMEOUT_ENV}=120 allows 120 s without "
                                    f"data; {_mirror_hint()})", dataset.name)
            wait = backoff_s(attempt - 1, policy.retry_delay_s, policy.max_retry_delay_s,
                             retry_after=failure.retry_after)
            if self.notify:
                print(f"gecscore: fetching {dataset.name}: {url}: {failure.reason}; try {attempt + 1} of "
                      f"{policy.attempts} in {_seconds(wait)} s", file=sys.stderr, flush=True)
            time.sleep(wait)
        raise AssertionError("unreachable")

    def _get(self, url: str, size: int, deadline: Deadline, dataset: DataSet, where: str) -> bytes:
        """One try: the body, or :class:`_Retry`, or a final :class:`GecInputError`. Runs in a
        helper thread that may be abandoned at ``deadline``: it keeps the bytes to itself."""
        httpx = self.httpx
        command = get_command(dataset.name)
        counted = 0
        try:
            with self.client.stream("GET", url) as response:
                status = response.status_code
                if status != 200:
                    if retryable_status(status):
                        raise _Retry(f"HTTP {status}", retry_after_s(response.headers.get("retry-after")))
                    raise GecInputError(f"HTTP {status} fetching {url} (not retried): {_refused_hint()}",
                                        dataset.name)
                announced = response.headers.get("content-length", "")
                encoded = response.headers.get("content-encoding", "identity").lower() not in ("", "identity")
                if not encoded and announced.isdigit() and int(announced) > size:
                    raise _too_long(url, size, where, f"announces {int(announced)} bytes, more")
                body = bytearray()
                for chunk in response.iter_bytes():
                    if deadline.expired():
                        raise _Retry(f"not complete within {_seconds(self.policy.deadline_s(size))} s")
                    if len(body) + len(chunk) > size:
                        raise _too_long(url, size, where, "sent more")
                    body += chunk
                    counted += len(chunk)
                    self.bar.update(len(chunk))
            counted = 0
            return bytes(body)
        except httpx.TooManyRedirects:
            raise GecInputError(f"{url} redirects more than {self.policy.max_redirects} times (a redirect loop; "
                                f"not retried): {_mirror_hint()}", dataset.name) from None
        except httpx.HTTPError as error:
            if unreachable(error):
                host = url.split("/")[2]
                raise DataUnavailable(f"cannot reach {host} ({unreachable_reason(error)}) "
                                      f"fetching {url}: no network? `{command}` fetches it when online; "
                                      f"{_mirror_hint()}", dataset.name) from None
            if isinstance(error, httpx.TimeoutException):
                raise _Retry(f"{type(error).__name__}: no data for {_seconds(self.policy.stall_s)} s") from None
            if isinstance(error, httpx.TransportError):   # dropped, reset, a body cut short
                raise _Retry(type(error).__name__) from None
            raise GecInputError(f"fetching {url} failed ({type(error).__name__}: {error}): `{command}` retries",
                                dataset.name) from None
        finally:
            if counted:
                self.bar.update(-counted)


def _seconds(value: float) -> str:
    return f"{round(value, 1):g}"


def _too_long(url: str, size: int, where: str, what: str) -> GecInputError:
    return GecInputError(f"{url} {what} than the catalogue's {size} bytes (stopped there; nothing was written). "
                         "The upstream file changed or the mirror serves another file", where)


def _mismatch(file: DataFile, what: str, size: int, sha: str, expected_size: int, expected_sha: str,
              url: str | None) -> GecInputError:
    truncated = " (truncated download?)" if size < expected_size else ""
    origin = f" (from {url})" if url else ""
    return GecInputError(f"checksum mismatch for {what}{origin}: got {size} bytes, sha256 {sha}; expected "
                         f"{expected_size} bytes, sha256 {expected_sha}{truncated}. The upstream file changed or "
                         "the download was corrupted; nothing was written", file.path)


def _fetch_file(file: DataFile, root: Path, dataset: DataSet, downloader: _Downloader | None) -> int:
    """Make ``root/file.path`` (download, derive, verify, write beside it, rename); returns
    bytes downloaded. Nothing reaches the disk before the bytes are verified."""
    target = root / file.path
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _fail_write(root, error) from None
    remove_stale_staging(target, ("part", "derived"))   # what a killed run left
    url = url_of(file)
    downloaded = 0
    sha_of_download = ""
    if file.derivation in (COPY, STRIP_TRAILING_BLANKS):
        assert downloader is not None and url is not None
        data = downloader.download(url, file.download_size, dataset, file.path)
        downloaded = len(data)
        sha_of_download = hashlib.sha256(data).hexdigest()
        if file.derivation == STRIP_TRAILING_BLANKS:
            # the derived file is what is verified: blanks the derivation removes may vary upstream
            data = strip_trailing_blanks(data)
    else:
        data = file.content.encode("utf-8") if file.derivation == EMBEDDED else seeda_systems_text()
    sha = hashlib.sha256(data).hexdigest()
    if (len(data), sha) != (file.size, file.sha256):
        what = file.path if file.derivation == COPY else f"{file.path} as derived ({file.derivation})"
        upstream = (file.upstream_size, file.upstream_sha256)
        if file.derivation == STRIP_TRAILING_BLANKS and (downloaded, sha_of_download) != upstream:
            what += (f"; the upstream file is {downloaded} bytes, sha256 {sha_of_download}, not the pinned "
                     f"{upstream[0]} bytes, sha256 {upstream[1]}")
        raise _mismatch(file, what, len(data), sha, file.size, file.sha256, url)
    _write_atomically(target, data, root)
    return downloaded


def _write_atomically(target: Path, data: bytes, root: Path) -> None:
    """``data`` into a new file beside ``target`` (``.<name>.<random>.part``, unique to this
    call, so two runs or threads fetching one set never share one), then renamed over it: a
    reader, or a second run, sees the old file or the whole new one, never a part."""
    import uuid

    part = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    try:
        descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)   # the umask applies
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        part.replace(target)
    except OSError as error:   # the folder is read-only, full, ...
        raise _fail_write(root, error) from None
    finally:
        part.unlink(missing_ok=True)


def fetch_set(dataset: DataSet | str, data_dir: str | Path | None = None, *, force: bool = False,
              progress: bool = True, policy: DownloadPolicy | None = None) -> FetchReport:
    """Fetch ``dataset`` into :func:`~gecscore.benchdata.layout.data_folder` (``data_dir``):
    every file not already there and verified (``force``: also every file that is there but
    differs, which is replaced). Raises :class:`DataUnavailable` when downloads are off or the
    server cannot be reached. ``policy``: deadlines and retries (default
    :meth:`DownloadPolicy.current`)."""
    from gecscore.progress import bar, silenced

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
    policy = policy or DownloadPolicy.current()
    with bar(desc=f"fetching {dataset.name}", total=total, unit="B", unit_scale=True,
             requested=progress) as progress_bar:
        downloads = any(f.repository is not None for f in todo)
        downloader = _Downloader(progress_bar, policy, progress and not silenced()) if downloads else None
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
