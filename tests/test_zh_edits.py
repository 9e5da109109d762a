"""Chinese char-level edits as ChERRANT (parallel_to_m2.py -g char) finds and writes them.

Expectations were derived by reasoning (comments) and checked against ChERRANT's own
``parallel_to_m2.py -g char`` (MuCGEC commit 3922193, pypinyin 0.55.0, OpenCC 1.4.2), whose
output for these lines is ``EXPECTED_M2`` byte for byte.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pypinyin")
pytest.importorskip("opencc")

from gecscore.errors import GecInputError, GecOptionError  # noqa: E402
from gecscore.lang.zh import check_granularity  # noqa: E402
from gecscore.lang.zh.extractor import ZhCharExtractor  # noqa: E402
from gecscore.lang.zh.m2 import para_to_m2, read_gold  # noqa: E402
from gecscore.lang.zh.tokenize import tokenize  # noqa: E402

CASES = (
    "1\t因为下雨我没去。\t因为下雨，我没去。\t没有错误\n"
    "2\t我很喜欢吃苹果果。\t我很喜欢吃苹果。\n"
    "3\t他到家就被天黑了。\t他到家天就黑了。\t无法标注\n"
    "4\t学生对老师很尊敬。\t老师对学生很尊敬。\n"
    "5\t我们学习中文。\t我們學習中文。\t我們學習漢語。\n"
    "6\t我有3个apple 。\t我有三个苹果。\n"
    "7\t我是学生。\t我[缺失成分]是学生。\n"
    "8\t我 喜欢 猫\t我喜欢猫。\t我喜欢猫\n"
    "9\t无法标注\t无法标注\n"
)

EXPECTED_M2 = """S 因 为 下 雨 我 没 去 。
T0-A0 因 为 下 雨 ， 我 没 去 。
A 4 4|||M|||，|||REQUIRED|||-NONE-|||0
T1 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S 我 很 喜 欢 吃 苹 果 果 。
T0-A0 我 很 喜 欢 吃 苹 果 。
A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||0

S 他 到 家 就 被 天 黑 了 。
T0-A0 他 到 家 天 就 黑 了 。
A 3 5|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 6 6|||M|||就|||REQUIRED|||-NONE-|||0
T0-A1 他 到 家 天 就 黑 了 。
A 3 3|||M|||天|||REQUIRED|||-NONE-|||0
A 4 6|||R|||-NONE-|||REQUIRED|||-NONE-|||0
T1 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||1

S 学 生 对 老 师 很 尊 敬 。
T0-A0 老 师 对 学 生 很 尊 敬 。
A 0 5|||W|||老 师 对 学 生|||REQUIRED|||-NONE-|||0

S 我 们 学 习 中 文 。
T0 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
T1-A0 我 们 学 习 汉 语 。
A 4 6|||S|||汉 语|||REQUIRED|||-NONE-|||1

S 我 有 3 个 a p p l e 。
T0-A0 我 有 三 个 苹 果 。
A 2 3|||S|||三|||REQUIRED|||-NONE-|||0
A 4 9|||S|||苹 果|||REQUIRED|||-NONE-|||0

S 我 是 学 生 。
T0-A0 我 [缺失成分] 是 学 生 。
A 1 1|||M|||[缺失成分]|||REQUIRED|||-NONE-|||0

S 我 喜 欢 猫
T0-A0 我 喜 欢 猫 。
A 4 4|||M|||。|||REQUIRED|||-NONE-|||0
T1 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S 无 法 标 注
T0 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""


@pytest.fixture(scope="module")
def zh():
    return ZhCharExtractor(progress=False)


def spans(edits):
    return [(e.start, e.end, "".join(e.correction), e.type) for e in edits]


def test_tokenize_chars_spaces_latin_and_missing_placeholder(zh):
    # every whitespace character goes; Latin letters and digits are one token each
    assert zh.tokenize(["我 有 3个\u3000apple 。"]) == ["我 有 3 个 a p p l e 。"]
    # the placeholder of a missing constituent is one token
    assert tokenize("我[缺失成分]是") == ("我", "[缺失成分]", "是")
    # sources are never converted; targets are simplified (OpenCC t2s)
    assert zh.tokenize(["我們"]) == ["我 們"]
    assert zh.tokenize_targets(["我們"]) == ["我 们"]
    assert ZhCharExtractor(simplified=False).tokenize_targets(["我們"]) == ["我 們"]


def test_substitution_of_a_two_character_word_and_an_insertion(zh):
    # 因为 -> 即使: two adjacent substitutions merge into one S; 能 is inserted before 做 (index 12)
    src, tgt = zh.tokenize(["因为在冰箱里没什么东西也做很好吃的菜。"])[0], \
        zh.tokenize_targets(["即使在冰箱里没什么东西也能做很好吃的菜。"])[0]
    assert spans(zh.edits(src, tgt)) == [(0, 2, "即使", "S"), (12, 12, "能", "M")]
    edit = zh.edits(src, tgt)[1]
    assert (edit.tgt_start, edit.tgt_end) == (12, 13)


def test_duplicate_character_the_earlier_copy_is_deleted(zh):
    # the back-trace matches from the end, so the second 果 is kept and the first deleted
    assert spans(zh.edits("我 很 喜 欢 吃 苹 果 果 。", "我 很 喜 欢 吃 苹 果 。")) == [(6, 7, "", "R")]


def test_word_swap_around_one_kept_character_is_a_transposition(zh):
    # S(学生->老师) M(对) S(老师->学生) with w1 == w4 and w2 == w3: one W edit over all three
    assert spans(zh.edits("学 生 对 老 师 很 尊 敬 。", "老 师 对 学 生 很 尊 敬 。")) == [(0, 5, "老师对学生", "W")]


def test_equally_cheap_alignments_are_all_kept_in_order(zh):
    annotation = zh.annotate("他 到 家 就 被 天 黑 了 。", "他 到 家 天 就 黑 了 。")
    assert [spans(a) for a in annotation.alignments] == [
        [(3, 5, "", "R"), (6, 6, "就", "M")],
        [(3, 3, "天", "M"), (4, 6, "", "R")]]
    assert zh.edits("他 到 家 就 被 天 黑 了 。", "他 到 家 天 就 黑 了 。") == annotation.alignments[0]
    first = ZhCharExtractor(strategy="first").annotate("他 到 家 就 被 天 黑 了 。", "他 到 家 天 就 黑 了 。")
    assert first.alignments == annotation.alignments[:1]


def test_special_targets(zh):
    src = "我 喜 欢 猫"
    assert zh.annotate(src, "没 有 错 误").kind == "noop"
    assert zh.annotate(src, "我 喜 欢 猫").kind == "noop"
    na = zh.annotate(src, "无 法 标 注")
    assert na.kind == "NA" and na.edits == ()
    # targets() give the source tokens for both (neither corrects anything)
    assert [t.tokens for t in zh.targets([src, src], ["没 有 错 误", "无 法 标 注"])] == [tuple(src.split())] * 2


def test_para_to_m2_writes_cherrant_char_m2(tmp_path):
    para = tmp_path / "cases.para"
    para.write_text(CASES, encoding="utf-8")
    out = tmp_path / "cases.m2"
    assert para_to_m2(para, out) == 9
    assert out.read_text(encoding="utf-8") == EXPECTED_M2


def test_read_gold_keeps_the_first_alignment_and_drops_not_annotatable(tmp_path):
    m2 = tmp_path / "gold.m2"
    m2.write_text(EXPECTED_M2, encoding="utf-8")
    gold = read_gold(m2)
    assert len(gold) == 9 and gold.origin == "cherrant"
    third = gold.sentences[2]
    assert list(third.annotations) == [0]  # the 无法标注 annotator is left out
    assert spans(third.annotations[0]) == [(3, 5, "", "R"), (6, 6, "就", "M")]
    assert "".join(third.targets()[0].tokens) == "他到家天就黑了。"
    assert gold.sentences[0].annotations[1] == ()  # 没有错误: an annotator without edits


def test_word_level_is_refused_with_the_reason():
    assert check_granularity("char") == "char"
    with pytest.raises(GecOptionError, match="LTP"):
        check_granularity("word")
    with pytest.raises(GecOptionError, match="granularity"):
        para_to_m2("unused.para", "unused.m2", granularity="word")


def test_untokenised_text_is_refused(zh):
    with pytest.raises(GecInputError, match="not tokenised into characters"):
        zh.edits("我去学校。", "我 去 了 学 校 。")
    # the special targets may come whole
    assert zh.annotate("我 去", "没有错误").kind == "noop"


def test_unknown_strategy_is_an_option_error():
    with pytest.raises(GecOptionError, match="strategy"):
        ZhCharExtractor(strategy="best")


def test_too_many_alignments_are_refused():
    from gecscore.lang.zh.extractor import annotate_tokens

    with pytest.raises(GecInputError, match="equally cheap"):
        annotate_tokens(tuple("他到家就被天黑了。"), tuple("他到家天就黑了。"), max_alignments=1)


def test_facts_name_the_extractor_and_versions(zh):
    facts = dict(zh.facts())
    assert facts["extractor"] == "cherrant-char"
    assert facts["alignments"] == "all" and facts["t2s"] == "yes"
    assert facts["pypinyin"] != "none" and facts["opencc"] != "none"
    assert facts["cilin"] == "d4c707f5d895"


def test_missing_extra_names_zh(monkeypatch):
    import sys

    from gecscore.extras import MissingExtraError
    from gecscore.lang.zh import tokenize as tokenize_module

    tokenize_module._t2s.cache_clear()
    monkeypatch.setitem(sys.modules, "opencc", None)  # import opencc -> ImportError
    try:
        with pytest.raises(MissingExtraError, match=r"gecscore\[zh\]"):
            tokenize_module.simplify("我們")
    finally:
        tokenize_module._t2s.cache_clear()
