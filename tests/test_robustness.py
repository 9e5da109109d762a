"""Metrics under attack: the attack generators (exact outputs), the ranks, ``gecscore robustness``
end to end on the tiny board, and SEEDA's subset with the published attacks when data is present."""
from __future__ import annotations

import json
import math

import pytest

from gecscore.cli import main
from gecscore.errors import GecInputError
from gecscore.robustness import attacks
from gecscore.robustness.attacks import (FIXED_SENTENCES, GENERATORS, INJECTION, PUBLISHED, published_attacks,
                                       write_attacks)
from gecscore.leaderboard.systems import SystemSource, discover_systems
from gecscore.robustness.measure import markdown, rank_attackers, run_robustness

from datapaths import GEC_DATA, require
from tiny_board import write_tiny_board

SOURCES = ["The cat sit on mat .", "He go home ."]


# ---------------------------------------------------------------- generators


def test_copy_source_normalises_spaces_only():
    assert attacks.copy_source(["The  cat sit .", "He go home ."]) == ["The cat sit .", "He go home ."]


def test_fixed_sentence_is_one_sentence_for_every_line_chosen_by_seed():
    assert attacks.fixed_sentence(SOURCES) == [FIXED_SENTENCES[0]] * 2
    assert attacks.fixed_sentence(SOURCES, seed=1) == [FIXED_SENTENCES[1]] * 2
    assert attacks.fixed_sentence([]) == []


def test_frequent_correction_inserts_the_before_the_first_content_word():
    assert attacks.frequent_correction(["He go to school .", "The cat sit on mat .", "He go home .", "a b"]) == [
        "He go to the school .",      # 'to' is a function word; 'school' follows it, not a determiner
        "The cat the sit on mat .",   # 'cat' follows 'The': the next content word gets it
        "He go the home .",           # 'go' has two letters only
        "a b",                        # no content word: unchanged
    ]


def test_delete_punctuation_removes_punctuation_only_tokens():
    assert attacks.delete_punctuation(["He said , \" go \" .", "e.g. it -- works !", ". ,"]) == [
        "He said go", "e.g. it works", ""]


def test_repeat_ngrams_repeats_one_seeded_trigram():
    # random.Random(0): randrange(4) -> 3, then randrange(2) -> 1; short lines are repeated whole
    assert attacks.repeat_ngrams([*SOURCES, "Hi .", ""]) == [
        "The cat sit on mat . on mat .", "He go home . go home .", "Hi . Hi .", ""]
    assert attacks.repeat_ngrams(SOURCES, seed=1) == ["The cat sit on cat sit on mat .", "He go home He go home ."]


def test_prompt_injection_is_one_line_for_every_source():
    assert attacks.prompt_injection(SOURCES) == [INJECTION, INJECTION]
    assert "score" in INJECTION and "\n" not in INJECTION


@pytest.mark.parametrize("name", list(GENERATORS))
def test_generators_are_deterministic_and_pure(name):
    sources = ["The cat sit on mat .", "He go home .", "I has a apple , and a orange ."]
    kept = list(sources)
    first = GENERATORS[name](sources, 7)
    assert GENERATORS[name](sources, 7) == first
    assert sources == kept
    assert len(first) == len(sources) and all("\n" not in line for line in first)


def test_write_attacks_writes_one_system_file_each(tmp_path):
    paths = write_attacks(SOURCES, tmp_path / "attacks", ["copy-source", "prompt-injection"])
    assert [p.name for p in paths] == ["copy-source.txt", "prompt-injection.txt"]
    assert paths[1].read_text() == f"{INJECTION}\n{INJECTION}\n"
    assert [s.name for s in discover_systems(tmp_path / "attacks")] == ["copy-source", "prompt-injection"]


def test_unknown_attack_and_misaligned_published_attack_are_input_errors():
    with pytest.raises(GecInputError, match="unknown generated attack"):
        attacks.generate(["nope"], SOURCES)
    require(GEC_DATA / "attacks")
    with pytest.raises(GecInputError, match="aligned with CoNLL-2014"):
        published_attacks(["published-some"], SOURCES, None, GEC_DATA)


# ---------------------------------------------------------------- ranks


def test_rank_attackers_ties_share_the_better_rank_and_nan_is_last():
    real = {"A": 0.9, "B": 0.5, "C": 0.1}
    ranks = {r.attacker: r for r in rank_attackers(real, {"x": 0.5, "y": 0.95, "z": math.nan}, human_best="A")}
    cell = {name: (r.rank_alone, r.rank_all, r.beats, r.beats_human_best) for name, r in ranks.items()}
    assert cell == {"x": (2, 3, 1, False), "y": (1, 1, 3, True), "z": (4, 6, 0, False)}
    assert rank_attackers(real, {"x": 0.5})[0].beats_human_best is None


def test_run_robustness_refuses_clashing_names(tmp_path):
    refset, systems = write_tiny_board(tmp_path)
    with pytest.raises(GecInputError, match="already name real systems"):
        run_robustness(refset, systems, [systems[0]], ["gleu"], progress=False)
    with pytest.raises(GecInputError, match="human-best"):
        run_robustness(refset, systems, [SystemSource("x", systems[0].text_path)], ["gleu"], human_best="NOPE",
                       progress=False)


# ---------------------------------------------------------------- the command, tiny board


def test_cli_tiny_board_end_to_end(tmp_path, capsys):
    write_tiny_board(tmp_path)
    out = tmp_path / "out"
    args = ["robustness", "--m2", str(tmp_path / "gold.m2"), "--systems", str(tmp_path / "systems"),
            "--metrics", "m2-corpus", "gleu", "--human-best", "PERFECT", "--out", str(out), "--quiet"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result["attackers"]) == list(GENERATORS)   # the tiny gold is not CoNLL-2014: no published ones
    assert result["real_systems"] == ["HALF", "INPUT", "PERFECT"]
    m2 = result["configs"]["m2-corpus"]
    assert m2["best_real"] == "PERFECT" and m2["real_scores"]["PERFECT"] == 1.0
    copy = m2["attackers"]["copy-source"]   # scores 0, as INPUT: below PERFECT and HALF, tied with INPUT
    assert (copy["score"], copy["rank_alone"], copy["beats"], copy["beats_human_best"]) == (0.0, 3, 0, False)
    gleu = result["configs"]["gleu"]
    assert gleu["attackers"]["copy-source"]["score"] == gleu["real_scores"]["INPUT"]
    assert all(not a["beats_human_best"] for c in result["configs"].values() for a in c["attackers"].values())
    assert set(result["seconds"]["per_config"]) == {"m2-corpus", "gleu"}
    assert (out / "attacks" / "fixed-sentence.txt").read_text() == f"{FIXED_SENTENCES[0]}\n" * 2
    assert "| copy-source | 3/4 (" in (out / "robustness.md").read_text()

    # a rerun owns only what it wrote: a stale attack file of ours goes, a user's file stays
    (out / "notes.txt").write_text("mine")
    assert main([*args[:-1], "--attacks", "copy-source", "--quiet"]) == 0
    assert not (out / "attacks" / "fixed-sentence.txt").exists()
    assert (out / "attacks" / "copy-source.txt").exists() and (out / "notes.txt").read_text() == "mine"
    assert "| copy-source | 3/4 (" in capsys.readouterr().out


def test_cli_refuses_a_foreign_file_and_published_attacks_off_conll14(tmp_path, capsys):
    write_tiny_board(tmp_path)
    base = ["robustness", "--m2", str(tmp_path / "gold.m2"), "--systems", str(tmp_path / "systems"),
            "--metrics", "gleu", "--quiet"]
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "robustness.md").write_text("someone else's")
    assert main([*base, "--out", str(tmp_path / "out")]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert (tmp_path / "out" / "robustness.md").read_text() == "someone else's"
    assert main([*base, "--attacks", "published-some"]) == 2
    assert "CoNLL-2014" in capsys.readouterr().err
    assert main([*base, "--attacks", "nope"]) == 2
    assert "unknown attack" in capsys.readouterr().err


# ---------------------------------------------------------------- SEEDA's subset, real data


def test_seeda_subset_with_published_attacks(tmp_path):
    """SEEDA's 15 systems on its 391-sentence subset of CoNLL-2014 (official gold) beside three
    attackers, under GLEU and corpus GREEN (cheap, model-free)."""
    from gecscore.io.text import read_lines
    from gecscore.metaeval.human import match_lines
    from gecscore.benchdata.refsets import load_refset

    subset = require(GEC_DATA / "seeda" / "outputs" / "subset")
    require(GEC_DATA / "attacks" / PUBLISHED["published-some"])
    refset = load_refset("conll14", GEC_DATA)
    refset = refset.subset(match_lines(read_lines(subset / "INPUT.txt"), refset.sources))
    real = discover_systems(subset)
    assert len(real) == 15 and len(refset) == 391
    predictions = {**attacks.generate(["copy-source", "fixed-sentence"], refset.sources),
                   **published_attacks(["published-some"], refset.sources, refset.indices, GEC_DATA)}
    full = read_lines(GEC_DATA / "attacks" / PUBLISHED["published-some"])
    assert predictions["published-some"] == [full[i] for i in refset.indices]
    paths = attacks.write_systems(predictions, tmp_path / "attacks")
    result = run_robustness(refset, real, [SystemSource(p.stem, p) for p in paths],
                            ["gleu", "green:level=corpus"], human_best="REF-F", progress=False)
    assert [c.config for c in result.configs] == ["gleu", "green:level=corpus"]
    for config in result.configs:
        scores = dict(config.real_scores)
        copy = result.rank(config.config, "copy-source")
        assert copy.score == pytest.approx(scores["INPUT"])   # copy-source is SEEDA's INPUT
        assert copy.beats == 0 and copy.rank_alone == 15      # only INPUT ties it
        for name in ("fixed-sentence", "published-some"):    # reference-based: last, beats nobody
            rank = result.rank(config.config, name)
            assert (rank.rank_alone, rank.beats, rank.beats_human_best) == (16, 0, False)
    assert "| published-some | 16/16 (" in markdown(result)
