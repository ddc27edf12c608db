"""One decoder of event dictionaries (`station.formats.events`), two modes: a session file's line
(strict, `event_from_dict`/`parse_session`) and a journal's payload (lenient, `input_from_dict`)
are read by the same code, so whatever both accept they read alike; the strict mode alone refuses
what the public session format forbids, and both refuse a dictionary of the wrong shape."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from station.engine.cards import STANDARD_DECK, Card
from station.engine.events import (
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Stakes,
    VerbalAction,
    Zone,
)
from station.engine.rake import schedule_from_dict
from station.formats.payload import END_PAYLOAD, PayloadError, input_from_dict
from station.formats.session import (
    MAX_AMOUNT,
    SessionFormatError,
    event_from_dict,
    event_to_dict,
    parse_session,
)

seats = st.integers(1, 10)
chips = st.integers(0, 10_000)
cards = st.sampled_from(STANDARD_DECK)
times = st.none() | st.floats(0, 1e6, allow_nan=False)


@st.composite
def valid_setups(draw: st.DrawFn) -> Setup:
    """Setups the session format admits: the game's stakes complete, 2..max players."""
    sb, bb = draw(st.integers(1, 50)), draw(st.integers(2, 100))
    game, stakes = draw(
        st.sampled_from(
            [
                ("nlhe", Stakes(sb=sb, bb=bb)),
                ("plo", Stakes(sb=sb, bb=bb, ante=1)),
                ("flhe", Stakes(sb=sb, bb=bb, small_bet=bb, big_bet=2 * bb)),
                ("stud", Stakes(ante=1, bring_in=sb, small_bet=bb, big_bet=2 * bb)),
            ]
        )
    )
    table = draw(st.dictionaries(seats, st.none() | chips, min_size=2, max_size=8))
    return Setup(
        game=game,
        profile=draw(st.sampled_from(["RR11", "GN", "USPA"])),
        stakes=stakes,
        seats=table,
        button=draw(st.none() | seats),
        deck=draw(st.none() | st.sampled_from(["blue", "red"])),
        rules=draw(st.sampled_from([{}, {"button_method": "dead"}])),
        rake=draw(st.none() | st.just(schedule_from_dict({"percent": 10, "cap": 6}))),
    )


@st.composite
def valid_keys(draw: st.DrawFn) -> KeyPress:
    """Key presses the session format admits: each key with the fields it needs."""
    key = draw(st.sampled_from(list(Key)))
    count = draw(st.none() | st.integers(0, 7))
    if key in (Key.DRAW, Key.DISCARD) and count is None:
        count = draw(st.integers(0, 7))
    if key is Key.RUN_IT:
        count = draw(st.integers(1, 3))
    action = draw(st.none() | st.sampled_from(list(VerbalAction)))
    if key is Key.VERBAL and action is None:
        action = VerbalAction.BET
    seat = draw(seats) if key is Key.FORFEIT else draw(st.none() | seats)
    to_seat = draw(seats) if key is Key.SEAT_CHANGE else draw(st.none() | seats)
    discarded: tuple[Card, ...] = ()
    if key is Key.DRAW and count is not None and draw(st.booleans()):
        discarded = tuple(draw(st.lists(cards, min_size=count, max_size=count)))
    return KeyPress(
        key,
        seat,
        count,
        action,
        draw(st.none() | chips),
        draw(st.none() | cards),
        to_seat,
        discarded,
    )


chip_lists = st.lists(st.integers(1, 500), min_size=1, max_size=5).map(tuple)
valid_events = st.one_of(
    valid_setups(),
    st.builds(SeatSensor, seats, st.booleans()),
    st.builds(Puck, seats),
    valid_keys(),
    st.builds(Draw, card=cards, face_up=st.booleans(), back=st.none() | st.just("red")),
    st.builds(Draw, card=st.none(), tag=st.text("0123456789ABCDEF", min_size=8, max_size=14)),
    st.builds(Zone, seats, chips),
    chip_lists.map(lambda c: Zone(3, sum(c), c)),
    st.builds(RakeZone, chips),
    chip_lists.map(lambda c: RakeZone(sum(c), c)),
)


@given(valid_events, times)
def test_strict_and_lenient_decode_a_valid_event_to_the_same_event(
    event: InputEvent, t: float | None
) -> None:
    payload = event_to_dict(event, t)
    at = None if t is None else round(t, 3)
    assert event_from_dict(payload) == (at, event)
    assert input_from_dict(payload) == (event, at)


# Anything an event can hold, including what the session format forbids (seat 0 or 11, negative
# chips, a VERBAL key without an action, a draw with neither card nor tag).
any_seat = st.integers(-1, 12)
any_amount = st.integers(-5, MAX_AMOUNT + 5)
any_events = st.one_of(
    st.builds(
        Setup,
        game=st.sampled_from(["nlhe", "stud", "no-such-game"]),
        profile=st.sampled_from(["RR11", "XX"]),
        stakes=st.builds(Stakes, sb=st.none() | any_amount, bring_in=st.none() | any_amount),
        seats=st.dictionaries(any_seat, st.none() | any_amount, max_size=3),
        button=st.none() | any_seat,
        rules=st.just({}) | st.just({"no_such_switch": 1}),
    ),
    st.builds(SeatSensor, any_seat, st.booleans()),
    st.builds(Puck, any_seat),
    st.builds(
        KeyPress,
        key=st.sampled_from(list(Key)),
        seat=st.none() | any_seat,
        count=st.none() | st.integers(-2, 9),
        action=st.none() | st.sampled_from(list(VerbalAction)),
        amount=st.none() | any_amount,
        card=st.none() | cards,
        to_seat=st.none() | any_seat,
        cards=st.lists(cards, max_size=3).map(tuple),
    ),
    # A card or else a tag: the encoder writes a Draw holding both as the card alone.
    st.builds(Draw, card=cards, face_up=st.booleans()),
    st.builds(Draw, card=st.none(), tag=st.none() | st.sampled_from(["", " ", "04A1"])),
    st.builds(Zone, any_seat, any_amount, st.none() | st.lists(any_amount, max_size=3).map(tuple)),
    st.builds(RakeZone, any_amount, st.none() | st.lists(any_amount, max_size=3).map(tuple)),
)


@given(any_events, times)
def test_every_written_event_decodes_leniently_and_strictly_the_same_or_is_refused(
    event: InputEvent, t: float | None
) -> None:
    payload = event_to_dict(event, t)
    at = None if t is None else round(t, 3)
    assert input_from_dict(payload) == (event, at)  # the journal replays what it recorded
    try:
        strict = event_from_dict(payload)
    except SessionFormatError:
        return  # the session format forbids it: refused with a message, never a crash
    assert strict[0] == at
    decoded = strict[1]
    if isinstance(decoded, Setup) and isinstance(event, Setup):
        # Strict alone fills in a limit game's missing small and big bets.
        decoded = dataclasses.replace(decoded, stakes=event.stakes)
    assert decoded == event


SETUP_TEXT = '{"type":"setup","game":"nlhe","stakes":{"sb":1,"bb":2},"seats":{"1":200,"2":200}}'


@pytest.mark.parametrize(
    ("line", "strict_error", "lenient"),
    [
        (
            {"type": "puck", "seat": 3, "colour": "red"},
            "unknown key 'colour' in a puck line",
            Puck(3),
        ),
        (
            {"type": "seat", "seat": 11, "occupied": True},
            "'seat' must be a seat number 1-10, not 11",
            SeatSensor(11, occupied=True),
        ),
        (
            {"type": "zone", "seat": 2, "amount": -4},
            "'amount' must be a whole number of chips >= 0, not -4",
            Zone(2, -4),
        ),
        (
            {"type": "zone", "seat": 2, "amount": MAX_AMOUNT + 1},
            f"'amount' must be at most {MAX_AMOUNT} chips",
            Zone(2, MAX_AMOUNT + 1),
        ),
        (
            {"type": "key", "key": "VERBAL", "seat": 4},
            "a VERBAL key needs an 'action'",
            KeyPress(Key.VERBAL, seat=4),
        ),
        (
            {"type": "draw", "tag": None, "face_up": False},
            "a draw needs exactly one of 'card' or 'tag'",
            Draw(None),
        ),
        (
            {"type": "setup", "game": "stud", "profile": "RR11", "seats": {"1": 5, "2": 5}},
            "stud needs stakes 'small_bet' and 'big_bet'",
            Setup("stud", seats={1: 5, 2: 5}),
        ),
    ],
)
def test_a_strict_only_violation_is_refused_strictly_and_tolerated_leniently(
    line: dict[str, Any], strict_error: str, lenient: InputEvent
) -> None:
    with pytest.raises(SessionFormatError) as refused:
        event_from_dict(line)
    assert refused.value.problems == [strict_error]
    assert input_from_dict(line) == (lenient, None)
    # And in a session file, with its FILE:LINE.
    with pytest.raises(SessionFormatError) as in_file:
        parse_session(SETUP_TEXT + "\n" + json.dumps(line) + "\n", "s.jsonl")
    assert in_file.value.problems == [f"s.jsonl:2: {strict_error}"]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ({"type": "seat", "seat": "3", "occupied": True}, "'seat' must be a seat number 1-10"),
        ({"type": "seat", "seat": 3, "occupied": "yes"}, "'occupied' must be true or false"),
        ({"type": "draw", "card": 5}, "'card' must be text such as 'Ah', not 5"),
        ({"type": "draw", "card": "Zz"}, "not a card: 'Zz'"),
        ({"type": "key", "key": "NO_SUCH_KEY"}, "unknown key 'NO_SUCH_KEY'"),
        ({"type": "key", "key": "FOLD", "amount": 2.5}, "'amount' must be a whole number"),
        ({"type": "zone", "seat": 1}, "missing 'amount'"),
        ({"type": "flop"}, "unknown line type 'flop'"),
        ({"seat": 1}, "missing 'type'"),
        ({"type": "puck", "seat": 1, "t": "soon"}, "'t' must be seconds >= 0"),
    ],
)
def test_a_shape_violation_is_refused_in_both_modes(line: dict[str, Any], error: str) -> None:
    with pytest.raises(SessionFormatError) as strict:
        event_from_dict(line)
    assert strict.value.problems[0].startswith(error)
    with pytest.raises(PayloadError) as lenient:
        input_from_dict(line)
    assert error in str(lenient.value)


def test_the_end_marker_is_a_journal_payload_only() -> None:
    assert input_from_dict(END_PAYLOAD) == (None, None)
    with pytest.raises(SessionFormatError, match="unknown line type 'end'"):
        event_from_dict(dict(END_PAYLOAD))


def test_a_seat_key_of_non_decimal_digits_is_a_problem_not_a_crash() -> None:
    # "²".isdigit() is true but int("²") raises: the reader used to let that ValueError escape.
    text = '{"type":"setup","game":"nlhe","stakes":{"bb":2},"seats":{"²":100,"2":100}}\n'
    with pytest.raises(SessionFormatError) as refused:
        parse_session(text, "s.jsonl")
    assert refused.value.problems == ["s.jsonl:1: seat '²' is not a seat number 1-10"]
