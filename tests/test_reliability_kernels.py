"""Issue 49, item 4: compiled kernels anywhere. With an unwritable numba cache folder, no home
folder (``HOME`` unset and no passwd entry) or an unwritable one, or the package installed
read-only (where numba's ``cache=True`` refused to define a kernel: "cannot cache function ...:
no locator available"), every metric scores the same numbers as a normal run, with at most one
line of notice (:mod:`gecscore.compiled`, :mod:`gecscore.user_folders`).

Two kinds of test: in this process, the decision of :func:`gecscore.compiled.kernel_cache` on a
one-line kernel in a folder of its own (its ``__pycache__`` made a regular file, which no one,
root included, can write into); and the command line in a subprocess on the bundled example,
read-only package and missing passwd entry simulated where they cannot be made (numba's cache
locator refusing the package's folders; ``pwd.getpwuid`` finding no entry), and a real read-only
bind mount where ``unshare`` allows one. The subprocesses that compile every kernel of a metric
take seconds each (marked slow).
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gecscore import compiled, user_folders
from gecscore.errors import GecInputError

from datapaths import EXAMPLES

pytestmark = pytest.mark.skipif(not compiled.HAVE_NUMBA, reason="numba is not installed")

PACKAGE = Path(compiled.__file__).resolve().parent
NOTICE = "gecscore: compiled kernels are not cached"
IMEASURE = ["imeasure", "--m2", str(EXAMPLES / "gold.m2"), "--hyp", str(EXAMPLES / "hypothesis.txt")]
PT_M2 = ["pt_m2", "--scorer", "none", "--m2", str(EXAMPLES / "gold.m2"), "--hyp", str(EXAMPLES / "hypothesis.txt")]

# the command line, after simulating what the flags (argv[1], comma-separated) name:
# no-passwd: no passwd entry for the user (with HOME unset: no home folder at all);
# read-only-package: numba cannot make or write its cache folder beside the package's modules
CHILD = r'''
import importlib.util, os, sys
flags = set(filter(None, sys.argv[1].split(",")))
if "no-passwd" in flags:
    import pwd
    def no_entry(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")
    pwd.getpwuid = no_entry
if "read-only-package" in flags:
    from numba.core import caching
    package = os.path.realpath(importlib.util.find_spec("gecscore").submodule_search_locations[0])
    ensure = caching._CacheLocator.ensure_cache_path
    def read_only(self):
        if os.path.realpath(self.get_cache_path()).startswith(package + os.sep):
            raise PermissionError(30, "Read-only file system", self.get_cache_path())
        return ensure(self)
    caching._CacheLocator.ensure_cache_path = read_only
from gecscore.cli import main
sys.exit(main(sys.argv[2:]))
'''


def child_env(**settings: str | None) -> dict[str, str]:
    """This process's environment without the numba and cache settings the cases choose,
    then ``settings`` (None: unset)."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "GECSCORE_NO_CACHE", compiled.NOTICE_SAID_ENV}}
    for key, value in settings.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_cli(argv: list[str], env: dict[str, str], cwd: Path, flags: str = "",
            wrapper: list[str] = ()) -> subprocess.CompletedProcess:
    result = subprocess.run([*wrapper, sys.executable, "-c", CHILD, flags, *argv], capture_output=True, text=True,
                            env=env, cwd=cwd, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result


@pytest.fixture(scope="module")
def normal(tmp_path_factory) -> dict[str, str]:
    """What a normal run prints for each command (a fresh persistent cache: the kernels run)."""
    folder = tmp_path_factory.mktemp("normal")
    env = child_env(GECSCORE_CACHE_DIR=str(folder / "store"))
    outputs = {}
    for argv in (IMEASURE, PT_M2):
        result = run_cli(argv, env, folder)
        assert result.stderr == ""
        outputs[argv[0]] = result.stdout
    assert "detection" in outputs["imeasure"] and "score" in outputs["pt_m2"]
    return outputs


@pytest.fixture
def blocker(tmp_path) -> Path:
    """A regular file: no folder can be made under it, whoever asks."""
    path = tmp_path / "a_file"
    path.write_text("x", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def kernel_store(tmp_path_factory) -> Path:
    """gecscore's cache folder of the read-only cases: the kernels compiled by one are loaded
    by the next."""
    return tmp_path_factory.mktemp("kernels") / "store"


# ---------------------------------------------------------------- the command line

def test_unwritable_numba_cache_dir_changes_nothing(normal, tmp_path, blocker):
    """$NUMBA_CACHE_DIR under a regular file: numba's next place (beside the module) is used."""
    env = child_env(NUMBA_CACHE_DIR=str(blocker / "numba"), GECSCORE_CACHE_DIR=str(tmp_path / "store"))
    result = run_cli(IMEASURE, env, tmp_path)
    assert (result.stdout, result.stderr) == (normal["imeasure"], "")


def test_unwritable_home_changes_nothing(normal, tmp_path, blocker):
    """HOME is a regular file: the persistent cache cannot be written, silently."""
    env = child_env(HOME=str(blocker), GECSCORE_CACHE_DIR=None)
    result = run_cli(IMEASURE, env, tmp_path)
    assert (result.stdout, result.stderr) == (normal["imeasure"], "")


def test_no_home_folder_at_all(normal, tmp_path):
    """HOME unset and no passwd entry: ``Path.home()`` raises, which failed the I-measure
    (the persistent cache asked for its folder); now the store is off and the numbers are the
    same, with no word said and nothing written under the current folder."""
    env = child_env(HOME=None, GECSCORE_CACHE_DIR=None)
    result = run_cli(IMEASURE, env, tmp_path, "no-passwd")
    assert (result.stdout, result.stderr) == (normal["imeasure"], "")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_read_only_package_keeps_kernels_in_gecscores_cache(normal, tmp_path, blocker, kernel_store):
    """numba can write neither beside the package nor in a user cache folder (HOME is a
    file): the kernels go to numba/ in gecscore's cache folder, silently."""
    env = child_env(HOME=str(blocker), GECSCORE_CACHE_DIR=str(kernel_store))
    result = run_cli(PT_M2, env, tmp_path, "read-only-package")
    assert (result.stdout, result.stderr) == (normal["pt_m2"], "")
    indexes = list((kernel_store / compiled.KERNEL_FOLDER).rglob("maxmatch._moves_kernel-*.nbi"))
    assert len(indexes) == 1


@pytest.mark.slow
def test_read_only_package_and_no_home_compiles_with_one_line(normal, tmp_path):
    """Nowhere to keep kernels (read-only package, no home folder, no $GECSCORE_CACHE_DIR):
    they compile in the process, one notice line says so, and numba's user-wide folder
    (``~/.cache/numba``, relative without a home) is not made under the current folder."""
    env = child_env(HOME=None, GECSCORE_CACHE_DIR=None)
    result = run_cli(IMEASURE, env, tmp_path, "no-passwd,read-only-package")
    assert result.stdout == normal["imeasure"]
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(NOTICE) and "no home folder" in lines[0], lines
    assert list(tmp_path.iterdir()) == []


def read_only_mount() -> list[str] | None:
    """A command prefix running its command with the package folder mounted read-only (in a
    private user and mount namespace), or None where ``unshare`` cannot make one."""
    if shutil.which("unshare") is None:
        return None
    script = 'mount --bind -o ro "$0" "$0" && exec "$@"'
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", script, str(PACKAGE), "sh", "-c", '! test -w "$0"',
                            str(PACKAGE)], capture_output=True, timeout=30)
    return ["unshare", "-rm", "sh", "-c", script, str(PACKAGE)] if probe.returncode == 0 else None


@pytest.mark.slow
def test_really_read_only_package(normal, tmp_path, blocker, kernel_store):
    """The package folder mounted read-only for real (root cannot write there either)."""
    wrapper = read_only_mount()
    if wrapper is None:
        pytest.skip("no read-only bind mount here (unshare -rm is not allowed)")
    env = child_env(HOME=str(blocker), GECSCORE_CACHE_DIR=str(kernel_store))
    result = run_cli(PT_M2, env, tmp_path, wrapper=wrapper)
    assert (result.stdout, result.stderr) == (normal["pt_m2"], "")
    assert list((kernel_store / compiled.KERNEL_FOLDER).rglob("maxmatch._moves_kernel-*.nbi"))


# ---------------------------------------------------------------- the decision, in this process

KERNEL = "def add_one(x):\n    return x + 1\n"


@pytest.fixture
def fresh(monkeypatch):
    """No decision taken, no notice said (the marker is unset again after the test), numba's
    CACHE_DIR unset."""
    monkeypatch.setattr(compiled, "_PLANS", {})
    monkeypatch.setenv(compiled.NOTICE_SAID_ENV, "")
    monkeypatch.setattr(compiled.numba_config, "CACHE_DIR", "")


def kernel_in(folder: Path, read_only: bool = False):
    """``add_one`` from a module of its own in ``folder``; ``read_only``: its ``__pycache__``
    is a regular file, so nothing can be cached beside it."""
    folder.mkdir(parents=True)
    (folder / "kernel_module.py").write_text(KERNEL, encoding="utf-8")
    if read_only:
        (folder / "__pycache__").write_text("", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"kernel_module_{abs(hash(folder))}", folder / "kernel_module.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.add_one


def test_a_writable_source_folder_is_numbas_own_place(fresh, tmp_path, capsys):
    func = kernel_in(tmp_path / "src")
    assert compiled.kernel_cache(func) == compiled.KernelCache("numba")
    assert compiled.njit(cache=True)(func)(41) == 42
    assert list((tmp_path / "src" / "__pycache__").glob("kernel_module.add_one-*.nbi"))
    assert capsys.readouterr().err == ""


def test_numbas_own_cache_dir_comes_first(fresh, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(compiled.numba_config, "CACHE_DIR", str(tmp_path / "numba_dir"))
    func = kernel_in(tmp_path / "src", read_only=True)
    assert compiled.kernel_cache(func).mode == "numba"
    assert compiled.njit(cache=True)(func)(1) == 2
    assert list((tmp_path / "numba_dir").rglob("kernel_module.add_one-*.nbi"))
    assert capsys.readouterr().err == ""


def test_nowhere_for_numba_goes_to_gecscores_folder(fresh, tmp_path, monkeypatch, blocker, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(tmp_path / "store"))
    func = kernel_in(tmp_path / "src", read_only=True)
    plan = compiled.kernel_cache(func)
    assert (plan.mode, plan.folder) == ("folder", tmp_path / "store" / "numba")
    assert compiled.njit(cache=True)(func)(41) == 42
    assert compiled.numba_config.CACHE_DIR == ""   # numba's setting is given back
    assert list(plan.folder.rglob("kernel_module.add_one-*.nbi"))
    assert (tmp_path / "store").stat().st_mode & 0o077 == 0
    assert capsys.readouterr().err == ""


def test_nowhere_at_all_compiles_and_says_so_once(fresh, tmp_path, monkeypatch, blocker, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(blocker / "store"))
    first, second = kernel_in(tmp_path / "a", read_only=True), kernel_in(tmp_path / "b", read_only=True)
    assert compiled.njit(cache=True)(first)(1) == 2 and compiled.njit(first)(2) == 3
    assert compiled.njit(cache=True)(second)(3) == 4
    assert compiled.kernel_cache(first).mode == compiled.kernel_cache(second).mode == "off"
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(NOTICE) and str(blocker / "store" / "numba") in lines[0]
    assert os.environ[compiled.NOTICE_SAID_ENV] == "1"   # a worker this process starts says nothing


def test_a_worker_does_not_say_it_again(fresh, tmp_path, monkeypatch, blocker, capsys):
    monkeypatch.setenv(compiled.NOTICE_SAID_ENV, "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(blocker / "store"))
    func = kernel_in(tmp_path / "src", read_only=True)
    assert compiled.njit(cache=True)(func)(1) == 2
    assert compiled.kernel_cache(func).mode == "off" and capsys.readouterr().err == ""


def test_a_folder_others_can_write_is_not_used(fresh, tmp_path, monkeypatch, blocker, capsys):
    """numba unpickles its cache files: a folder others can write to could plant code."""
    store = tmp_path / "store"
    store.mkdir()
    store.chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(store))
    func = kernel_in(tmp_path / "src", read_only=True)
    assert compiled.kernel_cache(func).mode == "off"
    assert "writable by group or others" in capsys.readouterr().err


def no_home(monkeypatch) -> None:
    """HOME unset and no passwd entry for the user."""
    import pwd

    def no_entry(uid):
        raise KeyError(uid)

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("GECSCORE_CACHE_DIR", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", no_entry)


def test_no_home_never_makes_a_tilde_folder(fresh, tmp_path, monkeypatch, capsys):
    """numba's user-wide folder is then ``~/.cache/numba``, relative: not used."""
    no_home(monkeypatch)
    monkeypatch.chdir(tmp_path)
    func = kernel_in(tmp_path / "src", read_only=True)
    assert compiled.njit(cache=True)(func)(1) == 2
    assert compiled.kernel_cache(func).mode == "off"
    assert not (tmp_path / "~").exists()
    assert "no home folder" in capsys.readouterr().err


# ---------------------------------------------------------------- the default folders

def test_the_folders_without_a_home(monkeypatch, tmp_path):
    no_home(monkeypatch)
    with pytest.raises(RuntimeError):
        pathlib.Path.home()
    assert user_folders.home() is None and user_folders.cache_home() is None
    assert user_folders.store_folder() is None
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")   # the XDG specification: ignored
    assert user_folders.cache_home() is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_folders.store_folder() == tmp_path / "xdg" / "gecscore" / "store"
    monkeypatch.setenv("GECSCORE_CACHE_DIR", str(tmp_path / "mine"))
    assert user_folders.store_folder() == tmp_path / "mine"
    monkeypatch.setenv("HOME", "relative")
    assert user_folders.home() is None


def test_the_stores_and_the_judges_default_without_a_home(monkeypatch):
    """Scoring goes on without the persistent cache; what needs a folder says so in one line."""
    from gecscore.cache.store import default_dir, default_store, remembered
    from gecscore.judge.factory import default_cache_path

    no_home(monkeypatch)
    assert default_store() is None
    assert remembered("test", "k", lambda: 7) == 7
    with pytest.raises(GecInputError, match=r"set \$GECSCORE_CACHE_DIR$"):
        default_dir()
    with pytest.raises(GecInputError, match=r"set \$GECSCORE_JUDGE_CACHE"):
        default_cache_path()


def test_the_named_data_folder_without_a_home(monkeypatch, tmp_path):
    """``gecscore data`` and every named set: one line saying to set GEC_DATA, not a traceback;
    an absolute $XDG_DATA_HOME or GEC_DATA still serve."""
    from gecscore.benchdata.layout import data_folder, user_data_dir

    no_home(monkeypatch)
    monkeypatch.delenv("GEC_DATA", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    with pytest.raises(GecInputError, match=r"set GEC_DATA"):
        user_data_dir()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")        # the XDG specification: ignored
    assert user_folders.data_home() is None
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_data_dir() == tmp_path / "xdg" / "gecscore"
    monkeypatch.setenv("GEC_DATA", str(tmp_path / "data"))
    assert data_folder() == tmp_path / "data"
