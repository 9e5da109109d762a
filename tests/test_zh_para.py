"""ChERRANT's parallel format reader: ids, sources, any number of targets, errors naming file:line."""
from __future__ import annotations

import pytest

from gecscore.errors import GecInputError
from gecscore.io.para import parse_para, read_para


def test_ids_sources_and_variable_targets(tmp_path):
    path = tmp_path / "dev.para"
    path.write_bytes("\ufeff\n1\t我去学校。\t我去了学校。\t没有错误\r\n2\t他很高。\t无法标注\n\n\n".encode("utf-8"))
    para = read_para(path)
    assert para.ids == ("1", "2")
    assert para.sources == ("我去学校。", "他很高。")
    assert para.targets == (("我去了学校。", "没有错误"), ("无法标注",))
    assert para.lines == (2, 3)  # a leading blank line is skipped, as ChERRANT strips the text
    assert para.where(1) == f"{path}:3"


@pytest.mark.parametrize("text, line, message", [
    ("1\t我去。\t我去了。\n\n2\t他。\t他们。\n", 2, "blank line"),
    ("1\t我去。\n", 1, "tab-separated field"),
    ("1\t我去。\t我去了。\n2\t \t他们。\n", 2, "empty source"),
    ("1\t我去。\t\n", 1, "target 1 is empty"),
])
def test_malformed_lines_name_file_and_line(text, line, message):
    with pytest.raises(GecInputError, match=message) as caught:
        parse_para(text.split("\n"), "x.para")
    assert caught.value.where == f"x.para:{line}"


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(GecInputError, match="no such file"):
        read_para(tmp_path / "absent.para")
