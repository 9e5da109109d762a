"""The command-line pieces for ``gecscore para-to-m2 --lang zh`` and ``gecscore errant --lang zh``
(modules to be listed in the CLI; exercised here through their own parsers)."""
from __future__ import annotations

import argparse
import json

import pytest

pytest.importorskip("pypinyin")
pytest.importorskip("opencc")

from gecscore.cli import errant as errant_cli  # noqa: E402
from gecscore.cli import para_to_m2 as para_cli  # noqa: E402
from gecscore.cli.errant_zh import run_zh  # noqa: E402
from gecscore.errors import GecInputError, GecOptionError  # noqa: E402

REF = "1\t他到家就被天黑了。\t他到家天就黑了。\t无法标注\n2\t我去学校。\t我去了学校。\n"
HYP = "1\t他到家就被天黑了。\t他到家天就黑了。\n2\t我去学校。\t我去过学校。\n"


def parse(register, argv):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(argv)


def test_para_to_m2_command(tmp_path):
    (tmp_path / "ref.para").write_text(REF, encoding="utf-8")
    args = parse(para_cli.register, ["para-to-m2", "--lang", "zh", "-f", str(tmp_path / "ref.para"),
                                     "-o", str(tmp_path / "ref.m2")])
    assert args.run(args) == 0
    text = (tmp_path / "ref.m2").read_text(encoding="utf-8")
    # sentence 1: alignments A0 and A1 of target 0, then the NA target; sentence 2: A0
    assert text.count("\nT0-A") == 3 and "\nT0-A1 " in text and "\nT1 无法标注\n" in text
    assert text.endswith("\n\n")
    word = parse(para_cli.register, ["para-to-m2", "--lang", "zh", "-g", "word", "-f", "x", "-o", "y"])
    with pytest.raises(GecOptionError, match="LTP"):
        word.run(word)


def test_errant_zh_on_parallel_and_m2_files(tmp_path, capsys):
    (tmp_path / "ref.para").write_text(REF, encoding="utf-8")
    (tmp_path / "hyp.para").write_text(HYP, encoding="utf-8")
    args = parse(errant_cli.register, ["errant", "-hyp", str(tmp_path / "hyp.para"), "-ref", str(tmp_path / "ref.para"),
                                       "--json"])
    assert run_zh(args) == 0
    from_para = json.loads(capsys.readouterr().out)
    # sentence 1: four pooled keys matched; sentence 2: 过 is an FP and 了 an FN
    assert (from_para["tp"], from_para["fp"], from_para["fn"]) == (4, 1, 1)
    for name in ("ref", "hyp"):
        m2 = parse(para_cli.register, ["para-to-m2", "--lang", "zh", "-f", str(tmp_path / f"{name}.para"),
                                       "-o", str(tmp_path / f"{name}.m2")])
        m2.run(m2)
    capsys.readouterr()
    args.hyp, args.ref = str(tmp_path / "hyp.m2"), [str(tmp_path / "ref.m2")]
    run_zh(args)
    assert json.loads(capsys.readouterr().out) == from_para


def test_errant_zh_refuses_src(tmp_path):
    args = parse(errant_cli.register, ["errant", "-hyp", "h", "-ref", "r", "--src", "s"])
    with pytest.raises(GecInputError, match="--src"):
        run_zh(args)
