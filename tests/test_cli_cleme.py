"""`gecscore cleme` / `gecscore cleme2`: the JSON contract, per-sentence output, bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gecscore.cli import main

from datapaths import REPO, example_corpus

EX = REPO / "examples"
TEXT_INPUTS = ["--src", str(EX / "source.txt"), "--hyp", str(EX / "hypothesis.txt"),
               "--ref", str(EX / "reference0.txt"), "--ref", str(EX / "reference1.txt")]


def run_json(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1          # exactly one JSON object on stdout
    return json.loads(out)


def test_cleme2_json_contract_from_text(capsys, tmp_path):
    per_sentence = tmp_path / "sentences.jsonl"
    result = run_json(capsys, "cleme2", *TEXT_INPUTS, "--per-sentence", str(per_sentence))
    assert result["metric"] == "cleme2"
    assert result["signature"].startswith("cleme2|level:corpus|assumption:dep|weighting:none|alpha:0.45,0.35,0.15,0.05|"
                                          "tok:no|refs:2|gold:errant|errant:3.0.2|spacy:")
    for key in ("score", "hit", "wrong", "under", "over", "tp", "fp_ne", "fp_un", "fn"):
        assert isinstance(result[key], float)
    records = [json.loads(line) for line in per_sentence.read_text().splitlines()]
    assert len(records) == 4
    labels = {chunk["label"] for record in records for chunk in record["chunks"]}
    assert labels <= {"TP", "FP_ne", "FP_un", "FN", "TN"} and {"TP", "FN", "TN"} <= labels
    # the per-sentence counts add up to the corpus totals
    for key in ("tp", "fp_ne", "fp_un", "fn"):
        assert sum(r[key] for r in records) == pytest.approx(result[key])
    # sentence 3 is unchanged everywhere: one TN chunk
    assert [c["label"] for c in records[2]["chunks"]] == ["TN"]


def test_cleme_json_contract_and_m2_inputs(capsys, tmp_path):
    from gecscore.io.m2 import format_m2
    import gecscore

    sources, hyps, refs = example_corpus()
    metric = gecscore.load("cleme")
    prepared = metric.prepare_text(sources, refs)
    samples = metric.samples(prepared, metric.hypotheses(prepared, hyps, {})[0])
    gold, hyp = tmp_path / "gold.m2", tmp_path / "hyp.m2"
    gold.write_text("\n".join(format_m2(s.source, s.references) for s in samples))
    hyp.write_text("\n".join(format_m2(s.source, [s.hypothesis]) for s in samples))
    from_m2 = run_json(capsys, "cleme", "--m2", str(gold), "--hyp-m2", str(hyp))
    from_text = run_json(capsys, "cleme", *TEXT_INPUTS)
    assert set(from_m2) == {"metric", "signature", "score", "p", "r", "f", "tp", "fp", "fn", "tn"}
    # the same numbers; the signatures say where the gold and hypothesis edits came from
    assert from_m2["signature"] == f"cleme|level:corpus|assumption:dep|weighting:length|beta:0.5|tok:no|refs:2|gold:m2|v:{gecscore.__version__}"
    assert "|gold:errant|errant:" in from_text["signature"]
    without_signature = lambda result: {k: v for k, v in result.items() if k != "signature"}
    assert without_signature(from_m2) == without_signature(from_text)
    mixed = run_json(capsys, "cleme", "--m2", str(gold), "--hyp", str(EX / "hypothesis.txt"))
    assert without_signature(mixed) == without_signature(from_text)
    assert "|gold:m2|errant:" in mixed["signature"]


def test_readable_table_without_json(capsys):
    assert main(["cleme2", *TEXT_INPUTS, "--level", "sentence", "--assumption", "ind"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("cleme2|level:sentence|assumption:ind")
    assert "hit" in out and "over" in out


@pytest.mark.parametrize("files, argv_tail, message", [
    # mismatched lengths
    ({"src": "a b .\nc d .\n", "hyp": "a b .\n", "ref": "a b .\nc d .\n"}, [], "hyp.txt: 1 lines but the source has 2"),
    # an empty source line
    ({"src": "a b .\n\n", "hyp": "a b .\nx\n", "ref": "a b .\nx\n"}, [], "src.txt:2: empty line"),
])
def test_bad_text_input(tmp_path, capsys, files, argv_tail, message):
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text)
    code = main(["cleme2", "--src", str(tmp_path / "src.txt"), "--hyp", str(tmp_path / "hyp.txt"),
                 "--ref", str(tmp_path / "ref.txt"), *argv_tail])
    assert code == 2
    assert message in capsys.readouterr().err


def test_malformed_m2_names_file_and_line(tmp_path, capsys):
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b .\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\n\nS c d .\nA 0 9|||R:X|||e|||REQUIRED|||-NONE-|||0\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b .\nc d .\n")
    assert main(["cleme2", "--m2", str(gold), "--hyp", str(hyp)]) == 2
    assert f"{gold}:5: edit span [0, 9) is outside" in capsys.readouterr().err


def test_missing_inputs_and_unknown_option(capsys):
    assert main(["cleme2", "--hyp", "x.txt"]) == 2
    assert "give exactly one gold: --m2 GOLD.m2, --xml GOLD.xml, --para GOLD.txt or --src SRC.txt --ref REF.txt" in capsys.readouterr().err
    assert main(["cleme2", *TEXT_INPUTS, "--weighting", "magic"]) == 2   # refused while parsing
    assert "argument --weighting: invalid choice: 'magic'" in capsys.readouterr().err


def test_console_script_and_module_run():
    script = Path(sys.executable).with_name("gecscore")
    for command in ([str(script)], [sys.executable, "-m", "gecscore"]):
        done = subprocess.run([*command, "cleme2", *TEXT_INPUTS, "--json"],
                              capture_output=True, text=True, check=True)
        assert json.loads(done.stdout)["metric"] == "cleme2"
        assert done.stdout.count("\n") == 1
