"""The recorded-session format (docs/session-format.md): reader, writer, error messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from station.engine.cards import Card
from station.engine.events import Draw, Key, KeyPress, Puck, SeatSensor, Setup, VerbalAction, Zone
from station.formats.session import (
    SessionFormatError,
    format_session,
    parse_session,
    read_session,
)

SETUP = (
    '{"type":"setup","game":"nlhe","profile":"RR11","stakes":{"sb":1,"bb":2},'
    '"seats":{"1":200,"2":200},"button":1}'
)

EXAMPLE = "\n".join(
    [
        SETUP,
        '{"type":"seat","seat":4,"occupied":false}',
        '{"type":"puck","seat":3}',
        '{"type":"key","key":"NEW_HAND"}',
        '{"type":"draw","card":"7h","face_up":false}',
        '{"type":"draw","tag":"04A1B2C3"}',
        '{"type":"zone","seat":6,"amount":6}',
        '{"type":"key","key":"FOLD","seat":7}',
        '{"type":"key","key":"VERBAL","seat":6,"action":"raise","amount":20}',
        '{"type":"zone","seat":2,"amount":25,"chips":[25]}',
        '{"type":"key","key":"DRAW","seat":3,"count":2,"cards":["Qd","Jc"]}',
    ]
)


def test_the_documented_example_parses() -> None:
    session = parse_session(EXAMPLE, "ex.jsonl")
    events = [line.event for line in session.lines]
    assert [line.line for line in session.lines] == list(range(1, 12))
    setup = events[0]
    assert isinstance(setup, Setup)
    assert (setup.game, setup.profile, setup.button) == ("nlhe", "RR11", 1)
    assert setup.stakes.sb == 1 and setup.stakes.bb == 2
    assert dict(setup.seats) == {1: 200, 2: 200}
    assert events[1:] == [
        SeatSensor(4, False),
        Puck(3),
        KeyPress(Key.NEW_HAND),
        Draw(Card.parse("7h"), face_up=False),
        Draw(None, tag="04A1B2C3"),
        Zone(6, 6),
        KeyPress(Key.FOLD, seat=7),
        KeyPress(Key.VERBAL, seat=6, action=VerbalAction.RAISE, amount=20),
        Zone(2, 25, (25,)),
        KeyPress(Key.DRAW, seat=3, count=2, cards=(Card.parse("Qd"), Card.parse("Jc"))),
    ]


def test_write_then_read_gives_the_same_events() -> None:
    session = parse_session(EXAMPLE)
    again = parse_session(format_session(session.lines))
    assert [line.event for line in again.lines] == [line.event for line in session.lines]


def test_time_is_kept_and_must_not_go_backwards() -> None:
    text = SETUP + '\n{"type":"puck","seat":1,"t":2.5}\n{"type":"puck","seat":2,"t":1.0}\n'
    with pytest.raises(SessionFormatError) as err:
        parse_session(text, "s.jsonl")
    assert err.value.problems == ["s.jsonl:3: time goes backwards: t=1.0 after t=2.5"]


def test_comments_and_blank_lines_are_skipped_but_counted() -> None:
    text = "# scenario: 001-RR11 §5 r7\n\n" + SETUP + "\n"
    session = parse_session(text)
    assert [line.line for line in session.lines] == [3]


@pytest.mark.parametrize(
    ("second_line", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "each line must be a JSON object"),
        ('{"seat": 1}', "missing 'type'"),
        ('{"type":"dance"}', "unknown line type 'dance'"),
        ('{"type":"draw","card":"Zz"}', "not a card: 'Zz'"),
        ('{"type":"draw"}', "exactly one of 'card' or 'tag'"),
        ('{"type":"draw","card":"Ah","tag":"01"}', "exactly one of 'card' or 'tag'"),
        ('{"type":"draw","card":"Ah","face_up":"yes"}', "'face_up' must be true or false"),
        ('{"type":"zone","seat":11,"amount":5}', "'seat' must be a seat number 1-10"),
        ('{"type":"zone","seat":1,"amount":-5}', "'amount' must be a whole number"),
        ('{"type":"zone","seat":1,"amount":2.5}', "'amount' must be a whole number"),
        ('{"type":"zone","seat":1}', "missing 'amount'"),
        ('{"type":"zone","seat":1,"amount":30,"chips":[25]}', "'chips' add up to 25"),
        ('{"type":"key","key":"SHUFFLE"}', "unknown key 'SHUFFLE'"),
        ('{"type":"key","key":"VERBAL","seat":1}', "needs an 'action'"),
        ('{"type":"key","key":"VERBAL","seat":1,"action":"shove"}', "unknown action 'shove'"),
        ('{"type":"key","key":"DRAW","seat":1}', "needs a 'count'"),
        ('{"type":"seat","seat":1,"occupied":1}', "'occupied' must be true or false"),
        ('{"type":"key","key":"DRAW","seat":1,"count":1,"cards":["Ah","Kd"]}', "lists 2 cards"),
        ('{"type":"key","key":"FOLD","seat":1,"cards":["Ah"]}', "or DISCARD key may carry"),
        ('{"type":"zone","seat":1,"amount":5,"amonut":5}', "unknown key 'amonut'"),
        ('{"type":"setup","game":"canasta","seats":{"1":1,"2":1}}', "unknown game 'canasta'"),
        (
            '{"type":"setup","game":"nlhe","profile":"WSOP","stakes":{"bb":2},"seats":{"1":1,"2":1}}',
            "unknown profile 'WSOP'",
        ),
        (  # found by the fuzz campaign: a list profile crashed the membership test
            '{"type":"setup","game":"nlhe","profile":["RR11"],"stakes":{"bb":2},"seats":{"1":1,"2":1}}',
            "unknown profile ['RR11']",
        ),
        ('{"type":"setup","game":"nlhe","stakes":{"bb":2},"seats":{"1":1}}', "at least two seats"),
        ('{"type":"setup","game":"stud","stakes":{"ante":1},"seats":{"1":1,"2":1}}', "small_bet"),
        (
            '{"type":"setup","game":"nlhe","stakes":{"bb":2},"seats":{"1":1,"2":1},'
            '"rules":{"no_such_switch":true}}',
            "unknown rule switch 'no_such_switch'",
        ),
        (
            '{"type":"setup","game":"nlhe","stakes":{"bb":2},"seats":{"1":1,"2":1},'
            '"rules":{"misdeal_cutoff":"never"}}',
            "must be one of two_actions, substantial",
        ),
        (  # a tournament's levels name its games: a rotation beside them would be a second say
            '{"type":"setup","game":"flhe","seats":{"1":1,"2":1},"tournament":{"levels":'
            '[{"small_bet":20,"big_bet":40,"sb":10,"bb":20,"minutes":20}],"level":1},'
            '"rotation":{"games":["flhe","razz"]}}',
            "takes its games from its levels: remove 'rotation'",
        ),
    ],
)
def test_a_bad_second_line_is_reported_with_file_and_line(second_line: str, message: str) -> None:
    with pytest.raises(SessionFormatError) as err:
        parse_session(SETUP + "\n" + second_line + "\n", "bad.jsonl")
    assert len(err.value.problems) == 1
    problem = err.value.problems[0]
    assert problem.startswith("bad.jsonl:2: ")
    assert message in problem


def test_a_unicode_line_separator_inside_a_string_does_not_split_the_line() -> None:
    # Found by the fuzz campaign: str.splitlines also breaks at U+2028, U+0085 and the like,
    # which JSON allows raw inside a string. JSON Lines ends a line at LF only (CRLF tolerated).
    text = (
        SETUP + '\r\n{"type":"puck","seat":2,"note":"a\u2028b\u0085c"}\n{"type":"puck","seat":3}\n'
    )
    session = parse_session(text, "sep.jsonl")
    assert [line.line for line in session.lines] == [1, 2, 3]
    assert [line.event for line in session.lines[1:]] == [Puck(2), Puck(3)]


def test_events_before_setup_are_refused() -> None:
    with pytest.raises(SessionFormatError) as err:
        parse_session('{"type":"key","key":"NEW_HAND"}\n' + SETUP, "x.jsonl")
    assert err.value.problems == ["x.jsonl:1: a setup line must come before the first 'key' line"]


def test_every_problem_is_reported_not_only_the_first() -> None:
    text = SETUP + '\n{"type":"zone"}\n{"type":"draw","card":"Zz"}\n'
    with pytest.raises(SessionFormatError) as err:
        parse_session(text, "m.jsonl")
    assert [p.split(": ")[0] for p in err.value.problems] == ["m.jsonl:2", "m.jsonl:3"]


def test_empty_file() -> None:
    with pytest.raises(SessionFormatError, match="empty"):
        parse_session("\n\n", "e.jsonl")


def test_unreadable_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(SessionFormatError, match="cannot read"):
        read_session(tmp_path / "missing.jsonl")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SessionFormatError, match="not UTF-8"):
        read_session(binary)


def test_limit_games_get_the_usual_big_bet() -> None:
    text = '{"type":"setup","game":"flhe","stakes":{"sb":1,"bb":2},"seats":{"1":50,"2":50}}'
    setup = parse_session(text).lines[0].event
    assert isinstance(setup, Setup)
    assert (setup.stakes.small_bet, setup.stakes.big_bet) == (2, 4)


@given(st.text(max_size=300))
def test_the_reader_never_crashes_on_arbitrary_text(text: str) -> None:
    try:
        parse_session(text, "fuzz")
    except SessionFormatError as exc:
        assert exc.problems
        assert all(p.startswith("fuzz") for p in exc.problems)


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["type", "seat", "amount", "card", "key", "occupied", "tag", "t"]),
            st.one_of(
                st.integers(-3, 30),
                st.sampled_from(["zone", "draw", "key", "seat", "Ah", "FOLD", "x"]),
                st.booleans(),
                st.none(),
            ),
        ),
        max_size=8,
    )
)
def test_the_reader_never_crashes_on_arbitrary_objects(objs: list[dict[str, object]]) -> None:
    text = SETUP + "\n" + "\n".join(json.dumps(o) for o in objs)
    try:
        parse_session(text, "fuzz")
    except SessionFormatError as exc:
        assert all(p.startswith("fuzz:") for p in exc.problems)
