"""Payloads decode back to the very records that were journaled (the recorder relies on it)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from station.engine.cards import STANDARD_DECK, Card
from station.engine.decisions import (
    Action,
    ActionKind,
    DealSlot,
    DrawRole,
    HandEnd,
    Incident,
    PotResult,
    Prompt,
    PromptCode,
    Ruling,
)
from station.engine.events import (
    Draw,
    Key,
    KeyPress,
    Puck,
    SeatSensor,
    Setup,
    Stakes,
    VerbalAction,
    Zone,
)
from station.formats.decisions import decision_to_dict
from station.formats.payload import decision_from_dict, input_from_dict
from station.formats.session import event_to_dict

seats = st.integers(1, 10)
chips = st.integers(0, 10_000)
cards = st.sampled_from(STANDARD_DECK)
card_codes = cards.map(lambda c: c.code)
opt = st.none
events = st.one_of(
    st.builds(
        Setup,
        game=st.sampled_from(["nlhe", "plo", "stud"]),
        profile=st.sampled_from(["RR11", "GN"]),
        stakes=st.builds(Stakes, sb=opt() | chips, bb=opt() | chips, ante=opt() | chips),
        seats=st.dictionaries(seats, opt() | chips, min_size=2, max_size=4),
        button=opt() | seats,
        deck=opt() | st.sampled_from(["blue", "red"]),
        rules=st.just({}) | st.just({"button_method": "dead"}),
    ),
    st.builds(SeatSensor, seats, st.booleans()),
    st.builds(Puck, seats),
    st.builds(
        KeyPress,
        key=st.sampled_from(list(Key)),
        seat=opt() | seats,
        count=opt() | st.integers(0, 7),
        action=opt() | st.sampled_from(list(VerbalAction)),
        amount=opt() | chips,
        card=opt() | cards,
        to_seat=opt() | seats,
        cards=st.lists(cards, max_size=3).map(tuple),
    ),
    st.builds(Draw, card=cards, face_up=st.booleans(), back=opt() | st.just("red")),
    st.builds(Draw, card=st.none(), tag=st.text("0123456789ABCDEF", min_size=8, max_size=14)),
    st.builds(Zone, seats, chips, opt() | st.lists(st.integers(1, 100), max_size=4).map(tuple)),
)


@given(events, st.none() | st.floats(0, 1e6, allow_nan=False))
def test_every_input_event_round_trips(event: object, t: float | None) -> None:
    payload = event_to_dict(event, t)  # type: ignore[arg-type]
    decoded, decoded_t = input_from_dict(payload)
    assert decoded == event
    assert decoded_t == (None if t is None else round(t, 3))
    assert event_to_dict(decoded, decoded_t) == payload  # type: ignore[arg-type]


decisions = st.one_of(
    st.builds(
        Incident,
        hand=st.integers(1, 500),
        rule=st.sampled_from(["PREMATURE-FLOP", "DECK-BOXED-SINGLE"]),
        ruling=st.sampled_from(list(Ruling)),
        text=st.text(max_size=40),
        event=st.integers(1, 10**6),
        seat=opt() | seats,
        seats=st.lists(seats, max_size=3).map(tuple),
        citation=st.text(max_size=20),
        events=st.lists(st.integers(1, 10**6), max_size=3).map(tuple),
    ),
    st.builds(
        Prompt,
        st.integers(1, 500),
        st.text(max_size=20),
        st.integers(1, 10**6),
        st.sampled_from(list(PromptCode)),
    ),
    st.builds(
        HandEnd,
        hand=st.integers(1, 500),
        event=st.integers(1, 10**6),
        board=st.lists(card_codes, max_size=5).map(tuple),
        pots=st.lists(
            st.builds(
                PotResult,
                chips,
                st.lists(seats, max_size=3).map(tuple),
                st.dictionaries(seats, chips, max_size=2),
            ),
            max_size=2,
        ).map(tuple),
        payouts=st.dictionaries(seats, chips, max_size=3),
        void=st.booleans(),
        stacks=st.dictionaries(seats, opt() | chips, max_size=3),
        shown=st.dictionaries(seats, st.lists(card_codes, max_size=2).map(tuple), max_size=2),
    ),
    st.builds(
        DrawRole,
        st.integers(1, 500),
        st.integers(1, 10**6),
        card_codes,
        st.sampled_from(list(DealSlot)),
        opt() | seats,
        st.integers(0, 4),
    ),
    st.builds(
        Action,
        st.integers(1, 500),
        st.integers(1, 10**6),
        seats,
        st.sampled_from(list(ActionKind)),
        chips,
        st.booleans(),
    ),
)


@given(decisions)
def test_every_decision_round_trips(decision: object) -> None:
    payload = decision_to_dict(decision)  # type: ignore[arg-type]
    assert decision_to_dict(decision_from_dict(payload)) == payload


def test_a_joker_and_a_tag_draw_decode() -> None:
    joker = Draw(Card.parse("JOKER"), face_up=True)
    assert input_from_dict(event_to_dict(joker, 1.0)) == (joker, 1.0)
    tag = Draw(None, tag="04A1B2C3")
    assert input_from_dict(event_to_dict(tag)) == (tag, None)
