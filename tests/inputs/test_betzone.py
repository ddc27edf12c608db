"""Bet-zone settling (pure): raw chip totals from the board in, settled amounts out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.betzone import (
    GlitchKind,
    ZoneChange,
    ZoneEvent,
    ZoneFault,
    ZoneGlitch,
    ZoneSettled,
    ZoneSettler,
    ZoneUnstable,
)


def settled(events: list[ZoneEvent]) -> list[tuple[int, int, ZoneChange]]:
    return [(e.seat, e.amount, e.change) for e in events if isinstance(e, ZoneSettled)]


def feed(z: ZoneSettler, seat: int, readings: list[tuple[float, int]]) -> list[ZoneEvent]:
    out: list[ZoneEvent] = []
    for at, amount in readings:
        out += z.reading(seat, amount, at)
    return out


def test_five_chips_over_800ms_give_one_settled_amount() -> None:
    z = ZoneSettler(settle_s=0.4)
    out = feed(z, 6, [(0.0, 0)])
    out += z.advance(1.0)
    assert settled(out) == [(6, 0, ZoneChange.FIRST)]
    # One 5-chip at a time at 1.0, 1.2, 1.4, 1.6 and 1.8 s; the board reports every 50 ms.
    readings = [(1.0 + i / 20, 5 * (1 + i // 4)) for i in range(17)]
    assert [amount for _, amount in readings[::4]] == [5, 10, 15, 20, 25]
    out = feed(z, 6, readings)
    out += z.advance(1.8 + 0.39)
    assert settled(out) == []  # still being stacked: no intermediate bet
    out += z.advance(3.0)
    [one] = [e for e in out if isinstance(e, ZoneSettled)]
    assert (one.seat, one.amount, one.previous, one.change) == (6, 25, 0, ZoneChange.ADDED)
    assert one.at == pytest.approx(1.8 + 0.4)  # settle_s after the fifth chip


def test_a_single_sample_spike_is_a_glitch_not_a_bet() -> None:
    z = ZoneSettler(settle_s=0.4)
    feed(z, 2, [(0.0, 10)])
    z.advance(1.0)
    out = feed(z, 2, [(1.00, 10), (1.05, 510), (1.10, 10), (1.15, 10)])
    out += z.advance(5.0)
    assert settled(out) == []
    assert [(e.kind, e.seen, e.samples) for e in out if isinstance(e, ZoneGlitch)] == [
        (GlitchKind.SPIKE, (510,), 1)
    ]
    assert z.settled(2) == 10


def test_a_dropout_to_zero_and_back_is_a_glitch_not_a_collection() -> None:
    z = ZoneSettler(settle_s=0.4)
    feed(z, 3, [(0.0, 40)])
    z.advance(1.0)
    out = feed(z, 3, [(1.0, 0), (1.05, 0), (1.1, 40)])
    out += z.advance(5.0)
    assert settled(out) == []
    assert [(e.kind, e.samples) for e in out if isinstance(e, ZoneGlitch)] == [
        (GlitchKind.DROPOUT, 2)
    ]


def test_a_drop_to_zero_that_stays_is_a_collection_or_withdrawal() -> None:
    z = ZoneSettler(settle_s=0.4)
    feed(z, 3, [(0.0, 40)])
    z.advance(1.0)
    out = feed(z, 3, [(2.0, 0), (2.1, 0), (2.2, 0)])
    out += z.advance(3.0)
    assert [e for e in out if isinstance(e, ZoneSettled)] == [
        ZoneSettled(3, 0, 40, ZoneChange.CLEARED, None, at=2.4)
    ]


def test_taking_some_chips_back_settles_a_reduced_amount() -> None:
    z = ZoneSettler(settle_s=0.4)
    feed(z, 1, [(0.0, 40)])
    z.advance(1.0)
    out = feed(z, 1, [(2.0, 30)]) + z.advance(3.0)
    assert settled(out) == [(1, 30, ZoneChange.REDUCED)]


def test_chips_are_passed_on_with_the_settled_amount() -> None:
    z = ZoneSettler(settle_s=0.4)
    z.reading(4, 30, 0.0, chips=[25, 5])
    out = z.advance(1.0)
    assert [e.chips for e in out if isinstance(e, ZoneSettled)] == [(25, 5)]


def test_a_reading_that_never_settles_is_reported_unstable_once() -> None:
    z = ZoneSettler(settle_s=0.4, unstable_s=3.0)
    feed(z, 5, [(0.0, 10)])
    z.advance(1.0)
    out = feed(z, 5, [(1.0 + i * 0.1, 20 if i % 2 else 25) for i in range(60)])
    unstable = [e for e in out if isinstance(e, ZoneUnstable)]
    assert [(e.seat, e.settled, e.readings) for e in unstable] == [(5, 10, (25, 20))]
    assert settled(out) == []


def test_nonsense_from_the_board_is_a_fault_event_never_an_exception() -> None:
    z = ZoneSettler(seats=10)
    out = z.reading(11, 5, 1.0)
    out += z.reading(3, -5, 1.0)
    out += z.reading(3, 7, 1.0, chips=[5, 5])
    out += z.reading("3", 7, 1.0)
    out += z.reading(3, 2.5, 1.0)
    reasons = [e.reason for e in out if isinstance(e, ZoneFault)]
    assert reasons == [
        "seat is not 1-10 (or 0, the rake zone)",
        "amount is not a whole number of chips >= 0",
        "chips add up to 10, not 7",
        "seat is not 1-10 (or 0, the rake zone)",
        "amount is not a whole number of chips >= 0",
    ]
    assert z.faults == 5
    assert z.advance(10.0) == []


def test_seats_settle_independently() -> None:
    z = ZoneSettler(settle_s=0.4)
    out = z.reading(1, 2, 0.0) + z.reading(2, 1, 0.1) + z.reading(1, 4, 0.3)
    out += z.advance(5.0)
    assert settled(out) == [(2, 1, ZoneChange.FIRST), (1, 4, ZoneChange.FIRST)]


@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=0.5),
            st.one_of(st.integers(-2, 12), st.text(max_size=2), st.none()),
            st.one_of(st.integers(-5, 500), st.floats(allow_nan=True), st.none()),
        ),
        max_size=40,
    )
)
def test_the_settler_never_raises_and_settles_only_after_quiet(
    readings: list[tuple[float, object, object]],
) -> None:
    z = ZoneSettler(seats=10, settle_s=0.4)
    t = 0.0
    out: list[ZoneEvent] = []
    last_seen: dict[int, tuple[float, int]] = {}  # seat -> (time, amount) of its last reading
    for gap, seat, amount in readings:
        t += gap
        events = z.reading(seat, amount, t)
        out += events
        if isinstance(seat, int) and not [e for e in events if isinstance(e, ZoneFault)]:
            assert isinstance(amount, int)
            last_seen[seat] = (t, amount)
    out += z.advance(t + 10.0)
    for e in out:
        if isinstance(e, ZoneSettled):
            assert 0 <= e.seat <= 10  # 0: the rake zone
            assert e.amount >= 0
    for seat, (_, amount) in last_seen.items():
        assert z.settled(seat) == amount  # after enough quiet, every seat shows its last total


def test_zone_0_is_the_rake_zone_and_settles_like_a_seat() -> None:
    """A board with a rake (drop) zone reports it as zone 0 (PROTOCOL.md, CAP_RAKE_ZONE)."""
    from station.daemon.translate import zone_event
    from station.engine.events import RakeZone, Zone

    z = ZoneSettler(seats=10, settle_s=0.4)
    out = z.reading(0, 3, 1.0, chips=[1, 1, 1]) + z.advance(1.5)
    (done,) = [e for e in out if isinstance(e, ZoneSettled)]
    assert (done.seat, done.amount) == (0, 3)
    assert zone_event(done) == RakeZone(3, (1, 1, 1))
    seat = ZoneSettled(4, 6, None, done.change, None, 2.0)
    assert zone_event(seat) == Zone(4, 6, None)
