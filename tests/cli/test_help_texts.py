"""Every command, sub-command and argument of `station` says what it is for: a technician reading
`station X --help` finds a one-line description of each, never a bare option name."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from station.cli import build_parser


def _walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str | None]]:
    """(the command's words, its parser, the help it is listed with in its parent)."""
    yield path, parser, None
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            listed = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                for found in _walk(sub, (*path, name)):
                    words, p, h = found
                    yield words, p, listed.get(name) if words == (*path, name) else h


def _commands() -> list[tuple[tuple[str, ...], argparse.ArgumentParser, str | None]]:
    return list(_walk(build_parser()))


def test_the_walk_reaches_every_command() -> None:
    names = {" ".join(words) for words, _, _ in _commands()}
    for expected in ("run", "journal init", "journal users add", "central console", "bench soak"):
        assert expected in names


def test_every_command_has_a_one_line_help_and_a_description() -> None:
    missing = []
    for words, parser, listed in _commands():
        if not words:
            continue
        name = " ".join(words)
        if not (listed or "").strip():
            missing.append(f"station {name}: no help line in `station {' '.join(words[:-1])} -h`")
        if not (parser.description or "").strip():
            missing.append(f"station {name}: no description in its --help")
    assert missing == []


def test_every_argument_has_a_help_line() -> None:
    missing = []
    for words, parser, _ in _commands():
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            text = action.help
            if text == argparse.SUPPRESS:
                continue  # hidden on purpose (a bench's internal knob): not in --help at all
            if text is None or not str(text).strip():
                shown = "/".join(action.option_strings) or action.dest
                missing.append(f"station {' '.join(words)}: {shown}")
    assert missing == []


def test_help_lines_are_one_line() -> None:
    long = []
    for words, parser, listed in _commands():
        texts = [listed or ""] + [str(a.help or "") for a in parser._actions]
        long += [f"station {' '.join(words)}: {t!r}" for t in texts if "\n" in t]
    assert long == []
