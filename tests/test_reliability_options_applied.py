"""Issue 32, item 2: an option given is an option applied, or refused. A leaderboard spec that
gives a key twice, two specs that would share a configuration name, a region subtag of a
language and a run-wide language for a metric that reads no language: each is refused naming
what is at fault, or applied as the signature then says, never silently dropped."""
from __future__ import annotations

import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError, GecOptionError
from gecscore.lang.profiles import check_lang, profile_for
from gecscore.leaderboard.run_wide import RunWide
from gecscore.leaderboard.specs import parse_spec, resolve
from gecscore.metric import load
from gecscore.signature import signature_of

from test_leaderboard import tiny  # noqa: F401 - the fixture


def test_a_key_given_twice_is_refused_naming_it():
    with pytest.raises(GecInputError, match="beta.*twice"):
        parse_spec("pt_m2:beta=0.3,beta=2")
    with pytest.raises(GecInputError, match="alpha.*twice"):
        parse_spec("cleme2:alpha=0.4,0.3,0.2,0.1,level=sentence,alpha=0.5,0.3,0.1,0.1")


def test_specs_sharing_a_configuration_name_are_refused_naming_both(tmp_path):
    for place in ("a", "b"):
        (tmp_path / place / "models" / "bert").mkdir(parents=True)
    one, two = (f"pt_m2:model={tmp_path / place / 'models' / 'bert'},scorer=bertscore" for place in ("a", "b"))
    assert parse_spec(one).name == parse_spec(two).name   # the tables name a model by its last components
    with pytest.raises(GecInputError) as caught:
        resolve([one, two])
    assert one in str(caught.value) and two in str(caught.value)
    # the same spec twice is one configuration, as before
    assert [c.name for c in resolve(["green:level=sentence", "green:level=sentence"])[0]] == ["green:level=sentence"]


@pytest.mark.parametrize("code,language", [("zh-CN", "zh"), ("en-US", "en"), ("zh-tw", "zh"), ("es-419", "es"),
                                           ("pt-BR", "pt")])
def test_a_region_subtag_means_its_language(code, language):
    assert check_lang(code) == language
    assert profile_for(code) is profile_for(language)


def test_region_subtag_reaches_the_metric_and_its_signature():
    zh = load("cleme2", lang="zh-CN")
    assert zh.config.lang == "zh" and "lang:zh|" in str(signature_of("cleme2", zh.config))
    assert load("cleme2", lang="en-US").config.lang == "en"
    with pytest.raises(GecOptionError, match="lang"):
        load("cleme2", lang="zh-word")   # a profile name, not a region: refused as before


def test_a_run_wide_language_for_a_metric_without_one_is_refused_naming_it():
    run = RunWide(text={"lang": "zh"})
    with pytest.raises(GecOptionError, match="scribendi"):   # an English language model: no lang
        resolve(["scribendi", "cleme2-corpus-dep"], run)
    chosen, unavailable = resolve(None, run)   # every preset reads its text through a language now
    assert "green" in {c.name for c in chosen} and "cleme2-corpus-dep" in {c.name for c in chosen}
    # the default language changes nothing they do: accepted
    assert "scribendi" in {c.name for c in resolve(["scribendi"], RunWide(text={"lang": "en"}))[0]}


def test_cli_run_wide_language_for_a_metric_without_one_is_one_line_exit_2(tiny, capsys):  # noqa: F811
    status = main(["leaderboard", "--m2", str(tiny / "gold.m2"), "--hyp-m2-dir", str(tiny / "hyp"),
                   "--metrics", "scribendi", "--lang", "zh", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and "scribendi" in err and "--lang" in err and err.count("\n") == 1


def test_green_reads_chinese_through_its_profile():
    """Before: GREEN compared raw Chinese lines with character-split references, and a perfect
    system got 0.34 under a run-wide --lang zh. Now GREEN has ``lang``: a perfect system gets 1,
    the source gets less, and English is read as before (gec-metrics' GREEN)."""
    sources = ["我喜欢吃苹果了。", "他去了学校了。", "今天天气很好"]
    references = ["我喜欢吃苹果。", "他去了学校。", "今天天气很好。"]
    zh = load("green", lang="zh-CN")
    prepared = zh.prepare_text(sources, [[r] for r in references])
    assert zh.score(prepared, references).score == pytest.approx(1.0)
    assert zh.score(prepared, sources).score < 0.9
    assert "lang:zh|" in str(zh.score(prepared, references).signature)
    english = load("green")
    assert "lang:" not in str(english.score(english.prepare_text(["a b"], [["a c"]]), ["a c"]).signature)
