"""Issue 49, item 2: no input can hang a command.

A leaderboard whose systems folder held a named pipe (FIFO) beside the system files waited for
ever: ``open()`` of a FIFO waits for a writer. Every path a user names now goes through one
checked reader (:mod:`gecscore.io.user_files`): looked at with ``os.stat`` before it is opened,
anything but a regular file refused with one line naming it and what it is (inside a systems
folder: skipped, named in one warning), and text decoded as strict UTF-8, a file that is not
text refused at its first bad line.

Each kind of path (a FIFO, a socket, a device, a folder, a symbolic link loop, a broken link, an
unreadable file, a binary file, bytes that are not UTF-8, UTF-16 text) is given to every command
that reads files (a score command, compare, errant, the leaderboard, m2-to-ixml, para-to-m2,
errant --lang zh), each run in a subprocess with a timeout: a regression fails the test, it does
not hang it. The library's loaders get the same kinds in-process, under an alarm.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gecscore.errors import GecInputError
from gecscore.io import user_files
from gecscore.io.user_files import FolderFiles, check_file, folder_files, kind_of, read_bytes, read_text

GOLD = "S a b c d\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n\nS e f g\nA 0 1|||R:X|||E|||REQUIRED|||-NONE-|||0\n"
SOURCE = "a b c d\ne f g\n"
HYPOTHESIS = "a B c d\nE f g\n"
ZH_GOLD = "1\t我 在 家 。\t我 在 家 里 。\n"
#: each kind of path: the words its one-line refusal holds (the path is named before them)
REFUSED = {
    "fifo": "is a named pipe (FIFO), not a regular file",
    "socket": "is a socket, not a regular file",
    "device": "is a character device, not a regular file",
    "folder": "is a folder, not a regular file",
    "symlink-loop": "is a symbolic link loop",
    "broken-link": "is a broken symbolic link",
}
#: files that are there but are not text: (bytes, what the refusal says after ``path:``)
NOT_TEXT = {
    "binary": (b"\x7fELF\x02\x01\x01\x00\x00\x00\n", "1: not text: a NUL byte"),
    "not-utf8": (b"a b c d\ne f g\nh \xff i\n", "3: not UTF-8 text (byte 0xff)"),
    "utf16": ("a b c d\n".encode("utf-16"), "1: not UTF-8 text (byte 0xff; it is UTF-16"),
}
KINDS = [*REFUSED, *NOT_TEXT]
#: a hung command is stopped after this long (each case; the subprocess as a whole gets more)
CASE_SECONDS = 20


def make_kind(folder: Path, kind: str, name: str = "") -> Path:
    """A path of ``kind`` in ``folder`` (the device is ``/dev/null`` itself, or a link to it
    when ``name`` asks for a name inside the folder)."""
    path = folder / (name or f"{kind}.txt")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        with contextlib.chdir(folder), socket.socket(socket.AF_UNIX) as server:
            server.bind(path.name)   # relative: a socket's path is limited to ~100 bytes
    elif kind == "device":
        if not name:
            return Path(os.devnull)
        path.symlink_to(os.devnull)
    elif kind == "folder":
        path.mkdir()
    elif kind == "symlink-loop":
        path.symlink_to(path.name)
    elif kind == "broken-link":
        path.symlink_to("nowhere")
    else:
        path.write_bytes(NOT_TEXT[kind][0])
    return path


def refusal(path: Path, kind: str) -> str:
    """The one line's ``path: what`` for ``kind``."""
    return f"{path}: {REFUSED[kind]}" if kind in REFUSED else f"{path}:{NOT_TEXT[kind][1]}"


# ------------------------------------------------------------------ the command line

RUNNER = textwrap.dedent("""
    import contextlib, io, json, signal, sys
    from gecscore.cli import main

    class Hung(BaseException):
        pass

    def stop(signum, frame):
        raise Hung()

    signal.signal(signal.SIGALRM, stop)
    for argv in json.load(sys.stdin):
        out, err = io.StringIO(), io.StringIO()
        signal.alarm({seconds})
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(argv)
        except Hung:
            status = "hung"
        finally:
            signal.alarm(0)
        print(json.dumps({{"argv": argv, "status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}}),
              flush=True)
""").format(seconds=CASE_SECONDS)


def run_commands(cases: list[list[str]], cwd: Path) -> list[dict]:
    """Each argv run by ``gecscore.cli.main`` in one subprocess (each case stopped after
    CASE_SECONDS; the whole process after a margin more): its status, stdout and stderr."""
    try:
        done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(cases), capture_output=True,
                              text=True, cwd=cwd, timeout=CASE_SECONDS * 2 + 4 * len(cases))
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"the commands hung; finished: {expired.stdout!r}")
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(results) == len(cases), done.stderr[-3000:]
    return results


def assert_one_line_refusal(result: dict, expected: str) -> None:
    assert result["status"] == 2, result
    lines = result["stderr"].splitlines()
    assert len(lines) == 1 and expected in lines[0], result


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """A folder with good inputs (gold.m2, source.txt, hypothesis.txt, zh.txt, systems/GOOD.txt)
    and one path of each kind (``<kind>.txt``)."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "systems").mkdir()
    (folder / "systems" / "GOOD.txt").write_text(HYPOTHESIS)
    (folder / "gold.m2").write_text(GOLD)
    (folder / "source.txt").write_text(SOURCE)
    (folder / "hypothesis.txt").write_text(HYPOTHESIS)
    (folder / "zh.txt").write_text(ZH_GOLD, encoding="utf-8")
    for kind in KINDS:
        make_kind(folder, kind)
    return folder


def kind_path(folder: Path, kind: str) -> Path:
    return Path(os.devnull) if kind == "device" else folder / f"{kind}.txt"


#: (label, argv with {x} for the inputs folder and {k} for the path of the kind, expected words
#: for text kinds when they differ from NOT_TEXT's: XML is parsed, not decoded)
SCORE = ["pt_m2", "--scorer", "none", "--quiet"]
COMMANDS = [
    ("score --hyp", [*SCORE, "--m2", "{x}/gold.m2", "--hyp", "{k}"]),
    ("score --m2", [*SCORE, "--m2", "{k}", "--hyp", "{x}/hypothesis.txt"]),
    ("score --src", [*SCORE, "--src", "{k}", "--ref", "{x}/hypothesis.txt", "--hyp", "{x}/hypothesis.txt"]),
    ("score --ref", [*SCORE, "--src", "{x}/source.txt", "--ref", "{k}", "--hyp", "{x}/hypothesis.txt"]),
    ("score --xml", [*SCORE, "--xml", "{k}", "--hyp", "{x}/hypothesis.txt"]),
    ("score --para", [*SCORE, "--para", "{k}", "--hyp", "{x}/hypothesis.txt"]),
    ("score --hyp-m2", [*SCORE, "--m2", "{x}/gold.m2", "--hyp-m2", "{k}"]),
    ("compare --hyp", ["compare", "--metric", "pt_m2", "--set", "scorer=none", "--m2", "{x}/gold.m2", "--hyp",
                       "{x}/hypothesis.txt", "{k}", "--quiet"]),
    ("errant -hyp", ["errant", "-hyp", "{k}", "-ref", "{x}/gold.m2", "--quiet"]),
    ("errant -ref", ["errant", "-hyp", "{x}/gold.m2", "-ref", "{k}", "--quiet"]),
    ("errant --src", ["errant", "--src", "{k}", "--hyp", "{x}/hypothesis.txt", "--ref", "{x}/hypothesis.txt",
                      "--quiet"]),
    ("errant --lang zh -hyp", ["errant", "--lang", "zh", "-hyp", "{k}", "-ref", "{x}/zh.txt", "--quiet"]),
    ("leaderboard --m2", ["leaderboard", "--m2", "{k}", "--systems", "{x}/systems", "--metrics", "m2-corpus", "--quiet"]),
    ("leaderboard --subset-source", ["leaderboard", "--m2", "{x}/gold.m2", "--systems", "{x}/systems", "--subset-source",
                                     "{k}", "--metrics", "m2-corpus", "--quiet"]),
    ("leaderboard --human", ["leaderboard", "--m2", "{x}/gold.m2", "--systems", "{x}/systems", "--human", "{k}",
                             "--metrics", "m2-corpus", "--quiet"]),
    ("m2-to-ixml", ["m2-to-ixml", "{k}", "{x}/out.xml", "--quiet"]),
]
XML_COMMANDS = {"score --xml"}


@pytest.fixture(scope="module")
def command_results(inputs) -> dict[tuple[str, str], dict]:
    cases = {(label, kind): [a.format(x=inputs, k=kind_path(inputs, kind)) for a in argv]
             for label, argv in COMMANDS for kind in KINDS}
    results = run_commands(list(cases.values()), inputs)
    return dict(zip(cases, results))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("label", [label for label, _ in COMMANDS])
def test_every_command_refuses_every_kind_of_path_in_one_line(command_results, inputs, label, kind):
    result = command_results[label, kind]
    assert result["status"] != "hung", f"{label} hung on a {kind}"
    path = kind_path(inputs, kind)
    if label in XML_COMMANDS and kind in NOT_TEXT:   # XML is parsed (it declares its own encoding)
        assert_one_line_refusal(result, f"{path}:1:")
        assert "not well-formed XML" in result["stderr"]
    else:
        assert_one_line_refusal(result, refusal(path, kind))


@pytest.fixture(scope="module")
def systems_results(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    """The leaderboard on systems folders: one with a good system beside every kind of entry
    that is not a regular file, one holding a system file that is not text per text kind, and
    ``--systems`` naming a path of each kind."""
    root = tmp_path_factory.mktemp("systems")
    (root / "gold.m2").write_text(GOLD)
    beside = root / "beside"
    beside.mkdir()
    (beside / "GOOD.txt").write_text(HYPOTHESIS)
    for kind in REFUSED:
        make_kind(beside, kind, f"{kind.upper()}.txt")
    m2_beside = root / "m2-beside"
    m2_beside.mkdir()
    (m2_beside / "GOOD.errant.m2").write_text(GOLD)
    make_kind(m2_beside, "fifo", "PIPE.errant.m2")
    runs = {"beside": (beside, ["--systems", str(beside)]), "m2-beside": (m2_beside, ["--hyp-m2-dir", str(m2_beside)])}
    for kind in NOT_TEXT:
        folder = root / kind
        folder.mkdir()
        (folder / "GOOD.txt").write_text(HYPOTHESIS)
        runs[f"holds {kind}"] = (make_kind(folder, kind, "BAD.txt"), ["--systems", str(folder)])
    for kind in KINDS:
        path = kind_path(root, kind) if kind == "device" else make_kind(root, kind)
        runs[f"is {kind}"] = (path, ["--systems", str(path)])
    cases = [["leaderboard", "--m2", str(root / "gold.m2"), *argv, "--metrics", "m2-corpus", "--quiet"]
             for _, argv in runs.values()]
    results = run_commands(cases, root)
    return {name: (path, result) for (name, (path, _)), result in zip(runs.items(), results)}


def test_entries_that_are_not_files_are_skipped_by_name_and_the_board_is_scored(systems_results):
    folder, result = systems_results["beside"]
    assert result["status"] == 0, result
    warning, = [line for line in result["stderr"].splitlines() if "warning" in line]
    assert warning.startswith(f"gecscore leaderboard: warning: {folder}: skipped 6 entries that are not regular "
                              "files (not opened): ")
    for kind in REFUSED:
        assert f"{kind.upper()}.txt {REFUSED[kind].split(', not')[0]}" in warning
    assert "| GOOD | 1.0000 |" in result["stdout"]


def test_a_fifo_in_a_hypothesis_m2_folder_is_skipped(systems_results):
    folder, result = systems_results["m2-beside"]
    assert result["status"] == 0, result
    assert (f"{folder}: skipped 1 entry that is not a regular file (not opened): PIPE.errant.m2 is a named pipe "
            "(FIFO)") in result["stderr"]
    assert "| GOOD | 1.0000 |" in result["stdout"]


@pytest.mark.parametrize("kind", NOT_TEXT)
def test_a_system_file_that_is_not_text_is_refused_naming_its_line(systems_results, kind):
    path, result = systems_results[f"holds {kind}"]
    assert_one_line_refusal(result, refusal(path, kind))


@pytest.mark.parametrize("kind", KINDS)
def test_a_systems_folder_that_is_not_a_folder_is_refused(systems_results, kind):
    path, result = systems_results[f"is {kind}"]
    what = {"symlink-loop": "is a symbolic link loop", "broken-link": "is a broken symbolic link",
            "folder": "no *.txt files"}.get(kind)   # an empty folder has no systems
    if what is None:
        what = "is a regular file, not a folder" if kind in NOT_TEXT else REFUSED[kind].replace("regular file", "folder")
    assert_one_line_refusal(result, f"{path}: {what}")


def test_the_reported_leaderboard_ends_at_once_from_the_console(tmp_path):
    """The issue's own command, through ``python -m gecscore``: it hung until killed at 60 s."""
    (tmp_path / "gold.m2").write_text(GOLD)
    systems = tmp_path / "systems"
    systems.mkdir()
    (systems / "GOOD.txt").write_text(HYPOTHESIS)
    os.mkfifo(systems / "PIPE.txt")
    done = subprocess.run([sys.executable, "-m", "gecscore", "leaderboard", "--m2", str(tmp_path / "gold.m2"),
                           "--systems", str(systems), "--metrics", "m2-corpus", "--quiet"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "PIPE.txt is a named pipe (FIFO)" in done.stderr and "| GOOD | 1.0000 |" in done.stdout


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root reads a file whatever its mode: the mocked test below stands in")
def test_an_unreadable_file_is_refused_before_any_work(inputs, tmp_path):
    locked = tmp_path / "locked.txt"
    locked.write_text(HYPOTHESIS)
    locked.chmod(0)
    systems = tmp_path / "systems"
    systems.mkdir()
    (systems / "LOCKED.txt").write_text(HYPOTHESIS)
    (systems / "LOCKED.txt").chmod(0)
    hyp, board = run_commands([[*SCORE, "--m2", str(inputs / "gold.m2"), "--hyp", str(locked)],
                               ["leaderboard", "--m2", str(inputs / "gold.m2"), "--systems", str(systems),
                                "--metrics", "m2-corpus", "--quiet"]], tmp_path)
    assert_one_line_refusal(hyp, f"{locked}: cannot read: permission denied")
    assert_one_line_refusal(board, f"{systems / 'LOCKED.txt'}: cannot read: permission denied")


def test_names_that_are_not_paths_are_left_to_the_command(tmp_path, monkeypatch):
    """The pre-check refuses paths that are there; ``--human gjg15`` or a missing file is the
    command's to answer (a named ranking, or "no such file" from the reader)."""
    import argparse

    from gecscore.cli.inputs import check_inputs

    monkeypatch.chdir(tmp_path)
    check_inputs(argparse.Namespace(human="gjg15", m2="conll14", hyp=["-", "absent.txt"], systems="absent"))
    os.mkfifo(tmp_path / "gjg15")
    with pytest.raises(GecInputError, match="gjg15: is a named pipe"):
        check_inputs(argparse.Namespace(human="gjg15"))
    with pytest.raises(GecInputError, match="gjg15: is a named pipe"):
        check_inputs(argparse.Namespace(sentence_judgments=["seeda", "mine=gjg15"]))


# ------------------------------------------------------------------ the library's loaders

class Hung(BaseException):
    """Raised by the alarm: a loader waited (it must never)."""


@contextlib.contextmanager
def must_not_wait(seconds: int = CASE_SECONDS):
    """Fail, not hang, when the block waits (``open()`` of a FIFO returns to Python on a signal
    whose handler raises)."""
    def stop(signum, frame):
        raise Hung(f"waited {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _loaders():
    from gecscore.benchdata.refsets import load_refset, read_m2_lenient
    from gecscore.integrations.lighteval.data import from_files
    from gecscore.io.hypotheses import ExpectedLines, read_hypotheses
    from gecscore.io.ixml import read_ixml
    from gecscore.io.m2 import read_m2
    from gecscore.io.para import read_para
    from gecscore.io.text import read_lines
    from gecscore.m2.errant_compare import read_edits
    from gecscore.metaeval.human import read_human_tsv
    from gecscore.metaeval.human_segments import read_segment_scores
    from gecscore.metaeval.sentence_level import read_judgments
    from gecscore.metaeval.trueskill_human import read_ranked_items

    return {
        "read_lines": read_lines, "read_m2": read_m2, "read_m2_lenient": read_m2_lenient, "read_para": read_para,
        "read_hypotheses": lambda p: read_hypotheses(p, ExpectedLines(("a b c d", "e f g"))),
        "load_refset": lambda p: load_refset(str(p)), "read_edits": read_edits,
        "read_human_tsv": read_human_tsv, "read_segment_scores": read_segment_scores,
        "lighteval from_files": lambda p: from_files(p, [p]),
        "read_ixml": read_ixml, "read_judgments": read_judgments, "read_ranked_items": read_ranked_items,
    }


LOADERS = list(_loaders())
XML_LOADERS = {"read_ixml", "read_judgments", "read_ranked_items"}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("loader", LOADERS)
def test_every_loader_refuses_every_kind_of_path(tmp_path, loader, kind):
    path = make_kind(tmp_path, kind)
    with must_not_wait(), pytest.raises(GecInputError) as raised:
        _loaders()[loader](path)
    if loader in XML_LOADERS and kind in NOT_TEXT:   # parsed as XML (which declares its own encoding)
        assert re.match(rf"{re.escape(str(path))}(:1:\d+: not well-formed XML|: cannot read the judgments: .* line 1\b)",
                        str(raised.value)), raised.value
    else:
        assert str(raised.value).startswith(refusal(path, kind))


@pytest.mark.parametrize("kind", KINDS)
def test_a_space_upload_of_every_kind_is_refused_naming_the_box(tmp_path, kind):
    from gecscore.spaces.inputs import read_upload

    path = make_kind(tmp_path, kind)
    with must_not_wait(), pytest.raises(GecInputError) as raised:
        read_upload(str(path), "hypothesis")
    expected = f": {REFUSED[kind]}" if kind in REFUSED else f":{NOT_TEXT[kind][1]}"
    assert str(raised.value).startswith(f"hypothesis ({path.name}){expected}")


def test_discover_systems_skips_what_is_not_a_file_with_one_warning(tmp_path):
    from gecscore.leaderboard.systems import discover_systems

    (tmp_path / "GOOD.txt").write_text(HYPOTHESIS)
    for kind in REFUSED:
        make_kind(tmp_path, kind, f"{kind.upper()}.txt")
    (tmp_path / "README.md").write_text("not a system")
    with must_not_wait(), pytest.warns(UserWarning) as caught:
        systems = discover_systems(tmp_path)
    assert [(s.name, s.text_path) for s in systems] == [("GOOD", tmp_path / "GOOD.txt")]
    assert len(caught) == 1 and "skipped 6 entries" in str(caught[0].message)


def test_a_folder_of_nothing_but_pipes_has_no_systems(tmp_path):
    from gecscore.leaderboard.systems import discover_systems

    os.mkfifo(tmp_path / "PIPE.txt")
    with must_not_wait(), pytest.warns(UserWarning, match="PIPE.txt is a named pipe"), \
            pytest.raises(GecInputError, match=r"no \*\.txt files that can be read"):
        discover_systems(tmp_path)


# ------------------------------------------------------------------ the checked reader itself

def test_the_skipped_line_names_each_entry_once(tmp_path):
    os.mkfifo(tmp_path / "PIPE.txt")
    (tmp_path / "SUB.txt").mkdir()
    (tmp_path / "A.txt").write_text("a\n")
    (tmp_path / "b.TXT").write_text("not matched: the pattern is case-sensitive\n")
    listed = folder_files(tmp_path, "*.txt")
    assert listed.files == (tmp_path / "A.txt",)
    assert listed.skipped_line() == ("skipped 2 entries that are not regular files (not opened): "
                                     "PIPE.txt is a named pipe (FIFO); SUB.txt is a folder")
    assert FolderFiles((), ((tmp_path / "X.txt", "is a socket"),)).skipped_line() == (
        "skipped 1 entry that is not a regular file (not opened): X.txt is a socket")
    assert FolderFiles((), ()).skipped_line() == ""


def test_kind_of_names_every_file_type():
    assert [kind_of(mode) for mode in (stat.S_IFREG, stat.S_IFDIR, stat.S_IFIFO, stat.S_IFSOCK, stat.S_IFCHR,
                                       stat.S_IFBLK)] == [
        "a regular file", "a folder", "a named pipe (FIFO)", "a socket", "a character device", "a block device"]


def test_a_path_swapped_for_a_fifo_after_the_look_is_refused_without_waiting(tmp_path, monkeypatch):
    """The stat-then-open gap: with the look passed (as if the path had been a file then), the
    open neither waits (O_NONBLOCK) nor reads (fstat of what was opened)."""
    fifo = make_kind(tmp_path, "fifo")
    monkeypatch.setattr(user_files, "check_file", lambda path, name=None: None)
    for path, words in ((fifo, "is a named pipe (FIFO)"), (Path(os.devnull), "is a character device")):
        with must_not_wait(), pytest.raises(GecInputError, match=re.escape(f"{path}: {words}, not a regular file")):
            read_bytes(path)


def test_an_unreadable_file_is_refused_in_one_line(tmp_path, monkeypatch):
    """Root reads any file, so the refusal of the open is simulated for one path."""
    locked = tmp_path / "locked.txt"
    locked.write_text("a\n")
    real_open = os.open

    def refuse(path, flags, *args, **kwargs):
        if os.fspath(path) == str(locked):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(user_files.os, "open", refuse)
    with pytest.raises(GecInputError, match=f"^{locked}: cannot read: permission denied$"):
        read_text(locked)
    from gecscore.leaderboard.systems import discover_systems

    with pytest.raises(GecInputError, match=f"^{locked}: cannot read: permission denied$"):
        discover_systems(tmp_path)


def test_text_is_strict_utf8_with_the_bom_dropped_and_line_ends_kept(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"\xef\xbb\xbfa\r\nb\n")
    assert read_text(path) == "a\r\nb\n"
    path.write_bytes(b"a\nb\n\nc\x00d\n")
    with pytest.raises(GecInputError, match=rf"^{path}:4: not text: a NUL byte"):
        read_text(path)
    path.write_bytes(b"a\n\xc3\n\x00")   # the first fault is named: the bad byte on line 2
    with pytest.raises(GecInputError, match=rf"^{path}:2: not UTF-8 text \(byte 0xc3\)$"):
        read_text(path)
    check_file(path)   # a regular file passes the look
