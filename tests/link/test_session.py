"""The host session against the real firmware over an in-memory line, on a fake clock:
handshake, liveness, refusal, exactly-once delivery under line faults, reboots and losses."""

from __future__ import annotations

import itertools

import pytest

from firmware_bridge import (
    BetZoneTotals,
    CardDrawn,
    DeckScan,
    DeviceKind,
    DeviceRebooted,
    EventsLost,
    LinkState,
    LinkStateChange,
    LossReason,
    SensorFault,
    ShoeStatus,
    Snapshot,
    wire,
)
from firmware_bridge.messages import Capability, Sensor
from firmware_bridge.session import HEARTBEAT_S, LIVENESS_S

from .harness import all_line_faults, shoe_link, tag, tag_hex, zones_link


def test_the_handshake_identifies_snapshots_replays_then_links_up() -> None:
    link, _ = shoe_link()
    assert link.run_until(lambda: link.up, 0.5)
    link.run(0.05)
    identity = link.session.identity
    assert identity is not None
    assert (identity.kind, identity.serial, identity.protocol_version) == (
        DeviceKind.SHOE,
        "SHOE-0001",
        1,
    )
    assert Capability.DECK_SCAN in identity.capabilities
    kinds = [type(m).__name__ for m in link.delivered]
    # The snapshot comes first, then link up, then the events of this boot in order.
    assert kinds[:4] == ["Snapshot", "LinkStateChange", "DeviceRebooted", "ShoeStatus"]
    snap = link.messages(Snapshot)[0]
    assert isinstance(snap, Snapshot)
    assert (snap.deck_present, snap.lid_closed, snap.reader_fault) == (True, True, False)


def test_draws_arrive_once_in_order_with_tag_face_and_ids() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    for i in range(5):
        mouth.draw(tag(i), face_up=i == 2)
    link.run(0.1)
    cards = link.cards()
    assert [c.tag for c in cards] == [tag_hex(i) for i in range(5)]
    assert [c.face_up for c in cards] == [False, False, True, False, False]
    assert [c.event_id for c in cards] == [3, 4, 5, 6, 7]
    assert {c.boot_id for c in cards} == {1}
    # Clock sync: the draw's host time is within a few ms of when the firmware saw it.
    assert all(abs(c.at - link.t) < 0.2 for c in cards)


def test_a_silent_device_is_declared_down_within_two_seconds() -> None:
    link, _ = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    link.run(1.0)
    assert link.up  # heartbeats keep a quiet link alive
    link.firmware = None  # the device stops answering (wire intact)
    went_silent = link.t
    assert link.run_until(lambda: not link.up, 2.0, dt=0.01)
    down = [m for m in link.delivered if isinstance(m, LinkStateChange)][-1]
    assert down.state == LinkState.DOWN
    assert "no frame from the device for 1.5 s" in down.reason
    # Counted from the last frame heard, which came at most one heartbeat before the silence.
    assert LIVENESS_S - HEARTBEAT_S <= down.at - went_silent <= LIVENESS_S + 0.011
    assert down.at - went_silent <= 2.0


def test_a_device_of_another_protocol_version_is_refused_naming_the_versions() -> None:
    link, _ = shoe_link(version=2)
    link.run(0.5)
    assert link.session.state == LinkState.REFUSED
    (refusal,) = [m for m in link.delivered if isinstance(m, LinkStateChange)]
    assert refusal.state == LinkState.REFUSED
    assert refusal.reason.startswith("refused shoe SHOE-0001 (firmware 1.0.0): ")
    assert "speaks protocol version 2; this station speaks version 1" in refusal.reason
    assert "(protocol versions seen on the line: 2)" in refusal.reason
    assert link.cards() == [] and link.messages(Snapshot) == []


def test_a_bet_zone_board_on_the_shoe_port_is_refused() -> None:
    link, _ = zones_link()
    link.session = type(link.session)(port="memory", expect=DeviceKind.SHOE)
    link.session.connected(link.t)
    link.run(0.3)
    assert link.session.state == LinkState.REFUSED
    assert "expects a shoe but a bet_zones answered" in link.session.reason


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_line_faults_never_lose_duplicate_or_reorder_a_draw(seed: int) -> None:
    link, mouth = shoe_link(plan=all_line_faults(rate=0.05), seed=seed)
    assert link.run_until(lambda: link.up, 5.0)
    n = 300
    for i in range(n):
        mouth.draw(tag(i), face_up=False)
        link.run(0.004)
    assert link.run_until(lambda: len(link.cards()) >= n, 20.0)
    link.run(0.5)
    assert [c.tag for c in link.cards()] == [tag_hex(i) for i in range(n)]
    counts = link.injector.counts
    assert counts.drop and counts.bitflip and counts.garbage and counts.duplicate
    stats = link.session.stats()
    assert stats.crc_errors > 0 and stats.resyncs > 0 and stats.duplicates > 0
    assert stats.naks_tx > 0


def test_draws_made_while_unplugged_arrive_after_replug_exactly_once() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    mouth.draw(tag(0), False)
    link.run(0.05)
    link.unplug()
    assert link.states()[-1] == LinkState.DOWN
    for i in range(1, 6):
        mouth.draw(tag(i), False)
    link.run(0.5)
    assert len(link.cards()) == 1
    link.replug()
    assert link.run_until(lambda: len(link.cards()) == 6, 2.0)
    link.run(0.3)
    assert [c.tag for c in link.cards()] == [tag_hex(i) for i in range(6)]
    assert link.session.stats().reconnects == 1


def test_a_reboot_mid_hand_replays_unacknowledged_draws_from_flash_in_order() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    mouth.draw(tag(0), False)
    link.run(0.05)
    # The cable is out while two more cards are drawn: they are in the shoe's flash only.
    link.plugged = False
    mouth.draw(tag(1), False)
    mouth.draw(tag(2), False)
    link.run(0.05)
    link.reboot()
    link.plugged = True
    mouth.draw(tag(3), False)
    assert link.run_until(lambda: len(link.cards()) == 4, 3.0)
    link.run(0.3)
    cards = link.cards()
    assert [c.tag for c in cards] == [tag_hex(i) for i in range(4)]
    assert [c.boot_id for c in cards] == [1, 1, 1, 2]  # drawn before / after the reboot
    order = [m for m in link.messages() if isinstance(m, CardDrawn | DeviceRebooted)]
    assert [type(m).__name__ for m in order] == [
        "DeviceRebooted",
        "CardDrawn",
        "CardDrawn",
        "CardDrawn",
        "DeviceRebooted",
        "CardDrawn",
    ]
    assert ids_increase([m.event_id for m in order])


def ids_increase(ids: list[int]) -> bool:
    return all(b > a for a, b in itertools.pairwise(ids))


def test_a_card_at_the_mouth_during_a_reboot_is_not_counted_twice() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    mouth._dwell = 50  # the card sits in the reader's field through the reboot
    mouth.draw(tag(7), False)
    link.run(0.01)
    link.reboot(dark_s=0.01)
    link.run(0.5)
    assert [c.tag for c in link.cards()] == [tag_hex(7)]


def test_a_reset_host_resumes_from_the_journal_cursor_without_repeats() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    for i in range(6):
        mouth.draw(tag(i), False)
    link.run(0.1)
    journaled = link.cards()[3].event_id  # the daemon had recorded up to the 4th draw
    # A new daemon process: a new session, told where its journal ends.
    fresh = type(link.session)(port="memory", resume={"SHOE-0001": journaled}, nonce=777)
    link.session = fresh
    link.delivered.clear()
    fresh.connected(link.t)
    link.run(0.3)
    assert [c.tag for c in link.cards()] == [tag_hex(4), tag_hex(5)]


def test_an_overflowing_device_log_reports_the_loss_in_order() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    link.unplug()
    for i in range(300):  # more than the 256 events the log holds
        mouth.draw(tag(i), False)
        link.run(0.004)
    link.replug()
    link.run(1.0)
    lost = link.messages(EventsLost)
    assert len(lost) == 1
    assert isinstance(lost[0], EventsLost)
    assert lost[0].reason == LossReason.OVERWRITTEN
    cards = link.cards()
    # Nothing duplicated or reordered; the loss is reported where it happened.
    tags = [c.tag for c in cards]
    assert tags == sorted(tags) and len(set(tags)) == len(tags)
    assert tags[-1] == tag_hex(299)
    assert lost[0].last_event_id is not None
    assert lost[0].last_event_id - lost[0].first_event_id + 1 + len(cards) == 300


def test_a_wiped_device_log_is_reported_and_replayed_from_its_start() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    for i in range(3):
        mouth.draw(tag(i), False)
    link.run(0.1)
    link.store.data[:] = b"\xff" * len(link.store.data)  # new flash: ids restart at 1
    link.reboot()
    mouth.draw(tag(9), False)
    link.run(1.0)
    (lost,) = link.messages(EventsLost)
    assert isinstance(lost, EventsLost)
    assert (lost.reason, lost.first_event_id, lost.last_event_id) == (LossReason.LOG_RESET, 6, None)
    assert link.cards()[-1].tag == tag_hex(9)


def test_a_deck_scan_arrives_as_one_message() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    mouth.deck = [tag(i) for i in range(52)]
    link.deck.closed = False  # type: ignore[attr-defined]
    link.run(0.05)
    link.deck.closed = True  # type: ignore[attr-defined]
    link.run(0.2)
    (scan,) = link.messages(DeckScan)
    assert isinstance(scan, DeckScan)
    assert scan.complete and scan.tags == tuple(tag_hex(i) for i in range(52))
    assert scan.event_id > scan.first_event_id
    statuses = link.messages(ShoeStatus)
    assert [s.deck_present for s in statuses if isinstance(s, ShoeStatus)][-2:] == [False, True]


def test_reader_and_face_sensor_faults_are_events() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    mouth.reader_failing = True
    link.run(0.05)
    mouth.reader_failing = False
    mouth.face_failing = True
    mouth.draw(tag(1), True)
    link.run(0.1)
    faults = [m for m in link.messages(SensorFault) if isinstance(m, SensorFault)]
    assert [(f.sensor, f.active) for f in faults] == [
        (Sensor.RFID_READER, True),
        (Sensor.RFID_READER, False),
        (Sensor.FACE_SENSOR, True),
    ]


def test_bet_zone_totals_with_chip_lists() -> None:
    link, zones = zones_link(seats=4)
    link.run_until(lambda: link.up, 0.5)
    link.run(0.3)
    zones[2].chips = [25, 5, 5]
    link.run(0.05)
    zones[2].chips = [25, 5, 5, 1]  # still being placed: only the settled stack counts
    link.run(0.4)
    totals = [m for m in link.messages(BetZoneTotals) if isinstance(m, BetZoneTotals)]
    seat3 = [(t.amount, t.chips) for t in totals if t.seat == 3]
    assert seat3 == [(0, ()), (36, (25, 5, 5, 1))]
    snap = link.messages(Snapshot)[0]
    assert isinstance(snap, Snapshot) and len(snap.zones) == 4


def test_the_frame_ring_never_shows_a_card_tag() -> None:
    link, mouth = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    mouth.draw(bytes.fromhex("04A1B2C3D4E5F6"), True)
    link.run(0.05)
    ring = link.session.stats().last_frames
    assert any(f.type_name == "CARD_DRAWN" for f in ring)
    assert not any("a1b2c3" in f.detail.lower() for f in ring)


def test_garbage_before_the_link_is_up_is_counted_never_raised() -> None:
    link, _ = shoe_link()
    link.session.receive(bytes(range(256)) * 4, link.t)
    assert link.run_until(lambda: link.up, 1.0)
    assert link.session.stats().resyncs > 0


def test_an_unexpected_version_frame_is_remembered_in_the_stats() -> None:
    link, _ = shoe_link()
    link.run_until(lambda: link.up, 0.5)
    link.session.receive(wire.encode_frame(3, 0, wire.T_ACK), link.t)
    assert link.session.stats().versions_seen == (1, 3)
    assert link.up


def test_the_station_can_ask_for_a_deck_scan_and_a_snapshot() -> None:
    link, mouth = shoe_link()
    assert not link.session.request_deck_scan(link.t)  # not linked yet: refused, not queued
    link.run_until(lambda: link.up, 0.5)
    mouth.deck = [tag(i) for i in range(3)]
    assert link.session.request_deck_scan(link.t)
    assert link.session.request_snapshot(link.t)
    link.run(0.1)
    (scan,) = link.messages(DeckScan)
    assert isinstance(scan, DeckScan) and scan.tags == tuple(tag_hex(i) for i in range(3))
    assert len(link.messages(Snapshot)) == 2


def test_device_ticks_map_to_host_time_across_a_32_bit_wrap() -> None:
    from firmware_bridge.clocksync import ClockSync

    sync = ClockSync()
    sync.reset(boot_id=4, tick_hz=1000)
    near_wrap = 2**32 - 500
    sync.sample(sent_at=10.0, received_at=10.002, ticks=near_wrap)  # device clock at 10.001
    assert sync.host_at(4, near_wrap) == pytest.approx(10.001)
    assert sync.host_at(4, 1500) == pytest.approx(12.001)  # 2 s later, after the wrap
    assert sync.host_at(3, near_wrap) is None  # another boot's ticks mean nothing now


def test_a_failing_zone_sensor_is_a_fault_for_its_seat_and_clears() -> None:
    link, zones = zones_link(seats=3)
    link.run_until(lambda: link.up, 0.5)
    zones[1].failing = True
    link.run(0.05)
    zones[1].failing = False
    link.run(0.05)
    faults = [m for m in link.messages(SensorFault) if isinstance(m, SensorFault)]
    assert [(f.sensor, f.index, f.active) for f in faults] == [
        (Sensor.BET_ZONE, 2, True),
        (Sensor.BET_ZONE, 2, False),
    ]
