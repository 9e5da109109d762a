"""Every numeric flag of every command is checked while the arguments are parsed (issue 39): a
negative, a zero where zero is not allowed, a number out of its range and a non-number are
refused with the flag's name and exit status 2, before any work."""
from __future__ import annotations

import argparse

import pytest

from gecscore.cli import build_parser, main
from gecscore.cli.numbers import Number


def numeric_flags() -> list[tuple[str, str, argparse.Action]]:
    """(command, flag, action) of every flag whose value is a number, over every subcommand at
    any depth (``gecscore data get ...``)."""
    found = []

    def walk(parser: argparse.ArgumentParser, command: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, subparser in action.choices.items():
                    walk(subparser, [*command, name])
            elif action.option_strings and action.type not in (None, str):
                found.append((" ".join(command), action.option_strings[0], action))

    walk(build_parser(), [])
    return found


FLAGS = numeric_flags()
PARSER = build_parser()


def test_no_numeric_flag_is_a_bare_int_or_float():
    """A bare ``type=int``/``float`` accepts -5 and passes it on to fail late, unnamed."""
    raw = [(command, flag) for command, flag, action in FLAGS if action.type in (int, float)]
    assert raw == []
    assert sum(isinstance(action.type, Number) for _, _, action in FLAGS) > 40


def _bad_values(number: Number) -> list[str]:
    values = ["abc", "1e", "nan", "inf"]
    if number.kind is int:
        values.append("1.5")
    if number.minimum is not None or number.exclusive_minimum is not None:
        low = number.minimum if number.minimum is not None else number.exclusive_minimum
        below = low - 1 if number.minimum is not None else low
        values.append(str(int(below)) if number.kind is int else repr(float(below)))
        if number.off is None or number.off != -1:
            values.append("-1" if low >= 0 else str(low - 1))
    if number.maximum is not None:
        values.append(str(int(number.maximum) + 1) if number.kind is int else repr(number.maximum + 0.5))
    if number.exclusive_maximum is not None:
        values.append(repr(float(number.exclusive_maximum)))
    return [v for v in values if v != (None if number.off is None else str(number.off))]


@pytest.mark.parametrize("command,flag,action", FLAGS, ids=[f"{c} {f}" for c, f, _ in FLAGS])
def test_a_bad_value_is_refused_at_parse_time_naming_the_flag(command, flag, action, capsys):
    number = action.type
    assert isinstance(number, Number)
    assert number.minimum is not None or number.exclusive_minimum is not None, "every number has a lower bound"
    for value in _bad_values(number):
        with pytest.raises(SystemExit) as stopped:
            PARSER.parse_args([*command.split(), f"{flag}={value}" if flag.startswith("--") else flag, *(
                [] if flag.startswith("--") else [value])])
        assert stopped.value.code == 2, (flag, value)
        err = capsys.readouterr().err
        assert f"argument {'/'.join(action.option_strings)}" in err or flag in err, (flag, value, err)


@pytest.mark.parametrize("argv,message", [
    (["leaderboard", "--refset", "conll14", "--bootstrap", "-5"], "argument --bootstrap: must be at least 0, got -5"),
    (["leaderboard", "--refset", "conll14", "--seed", "-1"], "argument --seed: must be at least 0, got -1"),
    (["compare", "--seed", "-1"], "argument --seed: must be at least 0, got -1"),
    (["leaderboard", "--jobs", "0"], "argument --jobs: must be at least 1, got 0"),
    (["leaderboard", "--window", "1"], "argument --window: must be at least 2 (or 0: off), got 1"),
    (["leaderboard", "--connect-timeout", "0"], "argument --connect-timeout: must be greater than 0, got 0"),
    (["compare", "--confidence", "1"], "argument --confidence: must be less than 1, got 1"),
    (["leaderboard", "--bootstrap", "many"], "argument --bootstrap: expected an integer, got 'many'"),
])
def test_the_issue_examples_fail_before_any_work(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_good_values_still_parse():
    args = build_parser().parse_args(["leaderboard", "--bootstrap", "0", "--window", "0", "--seed", "7",
                                      "--jobs", "2", "--connect-timeout", "2.5"])
    assert (args.bootstrap, args.window, args.seed, args.jobs, args.connect_timeout) == (0, 0, 7, 2, 2.5)


def _described(parser: argparse.ArgumentParser) -> list:
    """A parser's flags, recursively: (flags, dest, default, choices, help) of each action."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            out.append([(name, _described(sub)) for name, sub in action.choices.items()])
        else:
            out.append((tuple(action.option_strings), action.dest, repr(action.default), repr(action.choices),
                        action.help))
    return out


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


@pytest.mark.parametrize("command", sorted(_commands(PARSER)))
def test_a_command_lines_parser_holds_its_command_as_the_whole_parser_does(command):
    """A command line builds only its command's parser (``gecscore.cli.COMMANDS``, the
    registry's metrics): the same command, flags, defaults and help as in the whole parser,
    and no other command."""
    alone = build_parser(command)
    assert list(_commands(alone)) == [command]
    assert _described(_commands(alone)[command]) == _described(_commands(PARSER)[command])


def test_an_unknown_command_gets_the_whole_parsers_error(capsys):
    """A name no module registers builds every command, so argparse names them all."""
    assert sorted(_commands(build_parser("leaderbord"))) == sorted(_commands(PARSER))
    assert main(["leaderbord"]) == 2
    assert "leaderboard" in capsys.readouterr().err
