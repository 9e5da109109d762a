"""Compiled kernels: numba's ``njit`` when numba is installed, else a no-op decorator (the kernels
then run as plain Python: correct, slow). Every compiled kernel of the library is decorated
here, ``@njit(cache=True)``, and this module decides where their machine code is kept.

numba's ``cache=True`` keeps it in the first writable place of ``$NUMBA_CACHE_DIR``, the
``__pycache__`` beside the module and numba's user-wide folder (``$XDG_CACHE_HOME/numba``, else
``~/.cache/numba``). Two things went wrong with that alone:

- with none of them writable (a wheel installed read-only, a home that is read-only or absent),
  numba refuses to define the function ("cannot cache function ...: no locator available"):
  importing a metric failed with a 40-line traceback;
- with no home at all (``HOME`` unset and no passwd entry: a container under an arbitrary uid),
  numba's user-wide folder is the relative path ``~/.cache/numba``: numba wrote its cache into a
  folder named ``~`` in the current directory, and would load (unpickle) whatever such a
  folder there holds.

So the first kernel of each source folder decides, once per folder and process, where the
kernels of that folder are kept (:func:`kernel_cache`):

1. ``"numba"``: where numba itself would, when one of its places is writable (its user-wide
   folder only as an absolute path): an ordinary install is unchanged;
2. ``"folder"``: ``numba/`` in gecscore's persistent cache folder
   (:func:`gecscore.user_folders.store_folder`: ``$GECSCORE_CACHE_DIR``, else
   ``~/.cache/gecscore/store``) when it can be made there and only the user can write to it
   (numba loads its cache files with pickle); ``gecscore cache clear`` empties it too;
3. ``"off"``: the kernels compile in every process (seconds), said on stderr in one line, once
   (worker processes started after it do not say it again).

The numbers are the same in every case: only where the compiled code is kept changes.
"""
from __future__ import annotations

import contextlib
import inspect
import os
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from gecscore.user_folders import CACHE_DIR_ENV, store_folder, unsafe_reason

try:  # pragma: no cover - exercised when numba is installed
    import numba
    from numba.core import config as numba_config

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

#: the folder of the persistent cache the kernels are kept in when numba has no place of its own
KERNEL_FOLDER = "numba"
#: set once the notice was said, so that processes this one starts (a leaderboard's --jobs
#: workers) do not say it again
NOTICE_SAID_ENV = "GECSCORE_KERNEL_CACHE_NOTICE_SAID"


@dataclass(frozen=True)
class KernelCache:
    """Where the kernels of one source folder are kept: ``mode`` is ``"numba"`` (numba's own
    place), ``"folder"`` (``folder``, in gecscore's cache) or ``"off"`` (not kept); ``reason``
    says why not numba's own place (empty when it is)."""

    mode: str
    folder: Path | None = None
    reason: str = ""


_PLANS: dict[str, KernelCache] = {}
_LOCK = threading.RLock()


def njit(*args: Any, **options: Any) -> Any:
    """numba's ``njit``, with the same arguments; ``cache=True`` keeps the machine code where
    :func:`kernel_cache` decides. Without numba: the function itself."""
    if args and inspect.isfunction(args[0]):
        return _compiled(args[0], args[1:], options)
    return lambda func: _compiled(func, args, options)


def _compiled(func: Callable, signatures: tuple, options: dict) -> Callable:
    if not HAVE_NUMBA:
        return func
    if not options.get("cache") or numba_config.DISABLE_JIT:
        return numba.njit(*signatures, **options)(func)
    plan = kernel_cache(func)
    while plan.mode != "off":
        try:
            with _numba_cache_dir(plan.folder) if plan.mode == "folder" else contextlib.nullcontext():
                return numba.njit(*signatures, **options)(func)
        except RuntimeError as error:   # numba found no place after all (a folder made read-only since)
            if "cannot cache" not in str(error):
                raise
            reason = f"numba cannot cache {func.__name__} in {plan.folder or 'its own folders'}"
            plan = _decided(func, _elsewhere(reason) if plan.mode == "numba" else KernelCache("off", None, reason))
    return numba.njit(*signatures, **{**options, "cache": False})(func)


def kernel_cache(func: Callable) -> KernelCache:
    """Where the kernels of ``func``'s source folder are kept (decided on the first kernel of
    the folder, then remembered; see the module docstring)."""
    with _LOCK:
        plan = _PLANS.get(_source_folder(func))
        if plan is None:
            reason = _numba_cannot_cache(func)
            plan = _decided(func, KernelCache("numba") if reason is None else _elsewhere(reason))
        return plan


def _source_folder(func: Callable) -> str:
    return os.path.dirname(os.path.abspath(inspect.getfile(func)))


def _decided(func: Callable, plan: KernelCache) -> KernelCache:
    with _LOCK:
        _PLANS[_source_folder(func)] = plan
    if plan.mode == "off":
        _say_once(f"gecscore: compiled kernels are not cached: {plan.reason}; each run compiles them again "
                  f"(seconds): set NUMBA_CACHE_DIR or {CACHE_DIR_ENV} to a writable folder (docs/install.md)")
    return plan


def _numba_cannot_cache(func: Callable) -> str | None:
    """Why numba has no place to keep ``func``'s machine code, or None when it has one: numba's
    own locators in numba's order (each makes its folder and checks it can write there, as
    numba does), its user-wide folder only when that is an absolute path. With a numba whose
    locators this code does not know, or locators the user chose (``NUMBA_CACHE_LOCATOR_CLASSES``),
    None: numba decides, and its refusal is caught in :func:`njit`."""
    try:
        from numba.core.caching import CacheImpl, UserWideCacheLocator

        locators = list(CacheImpl._locator_classes)
    except (ImportError, AttributeError):
        return None
    if getattr(numba_config, "CACHE_LOCATOR_CLASSES", None):
        return None
    source = inspect.getfile(func)
    for locator_class in locators:
        if issubclass(locator_class, UserWideCacheLocator) and not _user_wide_is_absolute():
            continue
        try:
            if locator_class.from_function(func, source) is not None:
                return None
        except (OSError, ImportError, ValueError):
            continue
    return f"numba can write neither beside {os.path.dirname(source)} nor in a user cache folder"


def _user_wide_is_absolute() -> bool:
    """Whether numba's user-wide cache folder is an absolute path (it is ``~/.cache/numba``,
    relative, where no home folder can be found)."""
    try:
        from numba.misc.appdirs import AppDirs
    except ImportError:
        return True
    return os.path.isabs(AppDirs(appname="numba", appauthor=False).user_cache_dir)


def _elsewhere(reason: str) -> KernelCache:
    """Where kernels go when numba has no place: gecscore's cache folder, else nowhere."""
    store = store_folder()
    if store is None:
        return KernelCache("off", None, f"{reason}, and gecscore has no cache folder (no home folder)")
    folder = store / KERNEL_FOLDER
    try:
        store.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        return KernelCache("off", None, f"{reason}, nor gecscore in {folder} ({error.strerror or error})")
    unsafe = unsafe_reason(store) or unsafe_reason(folder)
    if unsafe is not None:
        return KernelCache("off", None, f"{reason}, and gecscore will not use {folder}: {unsafe}")
    return KernelCache("folder", folder, reason)


@contextlib.contextmanager
def _numba_cache_dir(folder: Path | None) -> Iterator[None]:
    """numba's ``CACHE_DIR`` set to ``folder`` while a kernel is defined (its cache locator
    takes the folder then and keeps it), restored after."""
    with _LOCK:
        saved = numba_config.CACHE_DIR
        numba_config.CACHE_DIR = str(folder)
        try:
            yield
        finally:
            numba_config.CACHE_DIR = saved


def _say_once(line: str) -> None:
    if os.environ.get(NOTICE_SAID_ENV):
        return
    os.environ[NOTICE_SAID_ENV] = "1"
    print(line, file=sys.stderr, flush=True)
