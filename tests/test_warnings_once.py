"""A repeated warning is said once, with a count (gecscore.warnings_once): its kind, the tally,
the command line (first line, count line, --verbose, --json's "warnings") and the warnings of
the leaderboard's worker processes, counted in the main process."""
from __future__ import annotations

import dataclasses
import json
import pickle
import warnings

import pytest

from gecscore.cli import main
from gecscore.warnings_once import (SEE_VERBOSE_AND_JSON, WarningTally, kind_of, recorded, relay, said_once,
                                    with_warnings)

NOT_MAXIMUM = ("sentence 333 (#333): 3.52e+13 reference combinations; searched by independent segments, "
               "1 of 12 segment(s) with more than 16384 combinations searched locally: may not be the maximum")
# two errors per sentence, each corrected two ways (annotators 0 and 1): 4 reference
# combinations, more than --max-candidates 1, so each sentence's search "may not be the maximum"
SENTENCE = """S He go to school and she like cats number {i} .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 6 7|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1
A 6 7|||R:VERB:TENSE|||liked|||REQUIRED|||-NONE-|||1
"""
N_SENTENCES = 12


def test_a_kind_is_the_text_with_what_varies_masked():
    other_sentence = NOT_MAXIMUM.replace("333 (#333): 3.52e+13", "1243 (#1243): 1.31e+05").replace("1 of 12", "2 of 3")
    assert kind_of(NOT_MAXIMUM) == kind_of(other_sentence)
    assert kind_of(NOT_MAXIMUM) != kind_of(NOT_MAXIMUM.replace("searched locally", "enumerated"))
    assert kind_of(NOT_MAXIMUM) != kind_of(NOT_MAXIMUM, RuntimeWarning)
    assert kind_of("ids 332, 333, 334 ...") == kind_of("ids 7 ...") == "UserWarning: ids # ..."
    assert kind_of("predictions look untokenised (e.g. 'instruction:')") == kind_of(
        "predictions look untokenised (e.g. 'home.')")


def test_the_first_of_a_kind_is_printed_the_others_counted(capsys):
    tally = WarningTally("w: ")
    texts = [NOT_MAXIMUM.replace("333", str(n)) for n in range(330, 335)]
    for text in texts[:3]:
        tally.add(text)
    tally.add("another condition")
    for text in texts[3:]:
        tally.add(text)
    assert capsys.readouterr().err.splitlines() == [f"w: {texts[0]}", "w: another condition"]
    assert tally.messages == [*texts[:3], "another condition", *texts[3:]]
    quoted = texts[0][:77].rstrip() + "..."
    assert tally.summary() == [f'w: 4 more like "{quoted}" (--verbose prints every one)']
    assert len(quoted) == 80


def test_verbose_prints_every_warning_and_no_count(capsys):
    tally = WarningTally("w: ", verbose=True)
    for n in range(3):
        tally.add(f"sentence {n}: may not be the maximum")
    assert capsys.readouterr().err.splitlines() == [f"w: sentence {n}: may not be the maximum" for n in range(3)]
    assert tally.summary() == []


def test_said_once_routes_python_warnings_and_restores_them(capsys):
    before = (warnings.showwarning, list(warnings.filters))
    assert with_warnings({"score": 1}) == {"score": 1}
    with said_once("w: ", see=SEE_VERBOSE_AND_JSON) as tally:
        assert with_warnings({"score": 1}) == {"score": 1}   # none yet: the keys do not change
        for n in range(5):
            warnings.warn(f"sentence {n}: may not be the maximum")   # one place, texts that differ
        assert with_warnings({"score": 1}) == {"score": 1, "warnings": tally.messages}
    err = capsys.readouterr().err.splitlines()
    assert err == ["w: sentence 0: may not be the maximum",
                   'w: 4 more like "sentence 0: may not be the maximum" (--verbose prints every one; the JSON '
                   'result lists them under "warnings")']
    assert (warnings.showwarning, list(warnings.filters)) == before


def test_recorded_warnings_are_relayed_and_counted_once(capsys):
    with recorded() as caught:
        warnings.warn("sentence 1: may not be the maximum")
        warnings.warn("sentence 2: may not be the maximum", RuntimeWarning)
    assert capsys.readouterr().err == ""           # a worker says nothing itself
    assert [(w.category, w.message) for w in caught] == [(UserWarning, "sentence 1: may not be the maximum"),
                                                         (RuntimeWarning, "sentence 2: may not be the maximum")]
    assert pickle.loads(pickle.dumps(caught)) == caught   # sent through a pipe
    with said_once("w: ") as tally:
        relay([caught[0]] * 3)
        relay([dataclasses.replace(caught[0], message="sentence 9: may not be the maximum")])
    assert tally.counts == {kind_of("sentence 1: may not be the maximum"): 4}
    assert len(capsys.readouterr().err.splitlines()) == 2


def test_commands_within_a_script_are_counted_by_the_script(capsys):
    """reproduce.py runs a command per setting under its own said_once: a kind is printed once
    for the whole script (with the command's prefix), counted once at its end; each command's
    JSON keeps its own warnings."""
    with said_once("script: ", see="in the runs' JSON") as script:
        for run in range(3):
            with said_once(f"run {run}: ") as command:
                warnings.warn(f"sentence {run}: may not be the maximum")
                warnings.warn(f"sentence {run + 10}: may not be the maximum")
                assert with_warnings({})["warnings"] == [f"sentence {run}: may not be the maximum",
                                                         f"sentence {run + 10}: may not be the maximum"]
            assert command.summary() == []
        assert capsys.readouterr().err.splitlines() == ["run 0: sentence 0: may not be the maximum"]
    assert capsys.readouterr().err.splitlines() == [
        'script: 5 more like "sentence 0: may not be the maximum" (in the runs\' JSON)']
    assert list(script.counts.values()) == [6]


@pytest.fixture
def not_maximum(tmp_path):
    """A gold of N_SENTENCES sentences, each warned about under --max-candidates 1, and a
    hypothesis."""
    (tmp_path / "gold.m2").write_text("\n".join(SENTENCE.format(i=i) for i in range(N_SENTENCES)))
    (tmp_path / "hyp.txt").write_text("".join(f"He goes to school and she liked cats number {i} .\n"
                                              for i in range(N_SENTENCES)))
    return tmp_path


def test_the_command_line_says_a_repeated_warning_once_with_a_count(not_maximum, capsys):
    command = ["imeasure", "--m2", str(not_maximum / "gold.m2"), "--hyp", str(not_maximum / "hyp.txt"),
               "--max-candidates", "1", "--quiet"]
    assert main(command) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2, err
    assert err[0].startswith("gecscore imeasure: warning: sentence 1 (#1): 4 reference combinations; searched by "
                             "independent segments") and err[0].endswith("may not be the maximum")
    assert err[1].startswith(f"gecscore imeasure: warning: {N_SENTENCES - 1} more like \"sentence 1 (#1): 4 ")
    assert err[1].endswith('(--verbose prints every one; the JSON result lists them under "warnings")')

    assert main([*command, "--verbose"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[1:3] for line in err] == [["warning", f"sentence {i + 1} (#{i + 1})"]
                                                       for i in range(N_SENTENCES)]

    assert main([*command, "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert [w.split(":")[0] for w in result["warnings"]] == [f"sentence {i + 1} (#{i + 1})" for i in range(N_SENTENCES)]
    assert len(captured.err.splitlines()) == 2


def test_warnings_of_worker_processes_are_counted_in_the_main_process(not_maximum, capsys):
    """Three systems over two worker processes: the 3 x 12 warnings of the workers are said
    once, by the main process, with one count."""
    from gecscore.benchdata.refsets import load_refset
    from gecscore.imeasure.gold import m2_to_ixml
    from gecscore.io.ixml import write_ixml
    from gecscore.io.m2 import read_m2
    from gecscore.leaderboard.board import run_leaderboard
    from gecscore.leaderboard.processes import LocalProcesses
    from gecscore.leaderboard.systems import discover_systems

    write_ixml(m2_to_ixml(read_m2(not_maximum / "gold.m2")), not_maximum / "gold.ieval.xml")
    refset = dataclasses.replace(load_refset(not_maximum / "gold.m2"), ixml_path=not_maximum / "gold.ieval.xml")
    (not_maximum / "systems").mkdir()
    for name in ("A", "B", "C"):
        (not_maximum / "systems" / f"{name}.txt").write_text((not_maximum / "hyp.txt").read_text())
    with said_once("w: ") as tally:
        run_leaderboard(refset, discover_systems(not_maximum / "systems"), ["imeasure:max_candidates=1"],
                        executor=LocalProcesses(2), progress=False)
    assert list(tally.counts.values()) == [3 * N_SENTENCES]
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("w: ")]
    assert len(err) == 2 and err[1].startswith(f"w: {3 * N_SENTENCES - 1} more like"), err
