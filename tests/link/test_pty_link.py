"""The link over real pseudo-terminals, opened through pyserial, against the emulated shoe and
bet-zone board running the real firmware logic. Real threads: every wait is on a condition with
a timeout, never a sleep."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge import (
    BetZoneTotals,
    CardDrawn,
    DeckScan,
    DeviceKind,
    DeviceLink,
    DeviceRebooted,
    IncompatibleDeviceError,
    LinkState,
    LinkStateChange,
    Message,
    PortError,
    SensorFault,
    SerialOpener,
    SerialPort,
    ShoeLink,
    ShoeStatus,
    Snapshot,
    probe,
)
from hardware.emulator.faults import ALL_FAULTS, FaultPlan
from hardware.emulator.shoe import EmulatedShoe
from hardware.emulator.zones import EmulatedBetZones

from .harness import tag, tag_hex

WAIT_S = 10.0


class Station:
    """What the daemon would do with the link's callbacks: keep everything, in order."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.items: list[Message | LinkStateChange] = []
        self.cond = threading.Condition()

    def on_message(self, message: Message) -> None:
        with self.cond:
            self.items.append(message)
            self.cond.notify_all()

    def on_link_state(self, change: LinkStateChange) -> None:
        self.on_message(change)  # type: ignore[arg-type]

    def wait(self, done: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
        with self.cond:
            return self.cond.wait_for(done, timeout_s)

    def cards(self) -> list[CardDrawn]:
        return [m for m in self.items if isinstance(m, CardDrawn)]

    def changes(self) -> list[LinkStateChange]:
        return [m for m in self.items if isinstance(m, LinkStateChange)]

    def state_count(self, state: LinkState) -> int:
        return sum(1 for c in self.changes() if c.state == state)


@pytest.fixture
def shoe(tmp_path: Path) -> Iterator[EmulatedShoe]:
    device = EmulatedShoe(tmp_path / "shoe")
    device.start()
    yield device
    device.stop()


def _link(path: Path, station: Station, **kw: object) -> DeviceLink:
    return ShoeLink(
        SerialOpener(str(path)),
        station.on_message,
        station.on_link_state,
        station.clock,
        **kw,  # type: ignore[arg-type]
    )


def test_draws_cross_a_real_pty_in_order(shoe: EmulatedShoe) -> None:
    station = Station()
    with _link(shoe.path, station, expect=DeviceKind.SHOE) as link:
        assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
        for i in range(20):
            shoe.draw(tag(i), face_up=i % 2 == 1)
        assert station.wait(lambda: len(station.cards()) == 20)
        stats = link.stats()
        assert stats.state == LinkState.UP
        assert stats.identity is not None and stats.identity.serial == "SHOE-0001"
        assert stats.bytes_rx > 0 and stats.frames_tx > 0 and stats.last_frames
        # The port is opened exclusively: nobody else can read the shoe meanwhile.
        with pytest.raises(PortError):
            SerialPort(str(shoe.path))
    cards = station.cards()
    assert [c.tag for c in cards] == [tag_hex(i) for i in range(20)]
    assert [c.face_up for c in cards] == [i % 2 == 1 for i in range(20)]


def test_a_shoe_unplugged_mid_hand_is_down_within_2_s_and_loses_nothing(
    shoe: EmulatedShoe,
) -> None:
    station = Station()
    with _link(shoe.path, station) as link:
        assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
        for i in range(3):
            shoe.draw(tag(i), False)
        assert station.wait(lambda: len(station.cards()) == 3)

        unplugged_at = station.clock()
        shoe.unplug()
        assert station.wait(lambda: station.state_count(LinkState.DOWN) == 1, 2.0)
        down = station.changes()[-1]
        assert down.state == LinkState.DOWN
        assert down.at - unplugged_at <= 2.0
        assert "port lost" in down.reason

        # The hand goes on while the cable is out: the shoe keeps the draws in its flash.
        for i in range(3, 8):
            shoe.draw(tag(i), False)
        assert shoe.wait_until(lambda s: s.recorded >= 2 + 8, WAIT_S)
        assert link.alive and len(station.cards()) == 3

        shoe.replug()
        assert station.wait(lambda: len(station.cards()) == 8)
        assert station.state_count(LinkState.UP) == 2
        shoe.draw(tag(8), False)
        assert station.wait(lambda: len(station.cards()) == 9)
        assert link.stats().reconnects >= 1
    assert [c.tag for c in station.cards()] == [tag_hex(i) for i in range(9)]


def test_a_firmware_reboot_mid_hand_delivers_every_draw_once(shoe: EmulatedShoe) -> None:
    station = Station()
    with _link(shoe.path, station):
        assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
        shoe.draw(tag(0), False)
        assert station.wait(lambda: len(station.cards()) == 1)
        # Two draws the host cannot acknowledge, then the shoe reboots (USB bridge stays up).
        shoe.unplug()
        shoe.draw(tag(1), False)
        shoe.draw(tag(2), False)
        assert shoe.wait_until(lambda s: s.recorded >= 5, WAIT_S)
        shoe.reboot()
        assert shoe.wait_until(lambda s: s.running and s.boot_id == 2, WAIT_S)
        shoe.replug()
        shoe.draw(tag(3), False)
        assert station.wait(lambda: len(station.cards()) == 4)
        # Without unplugging: a reboot the host only learns of from the HELLO.
        shoe.reboot()
        shoe.draw(tag(4), False)
        assert station.wait(lambda: len(station.cards()) == 5)
    cards = station.cards()
    assert [c.tag for c in cards] == [tag_hex(i) for i in range(5)]
    assert [c.boot_id for c in cards] == [1, 1, 1, 2, 3]
    reboots = [m for m in station.items if isinstance(m, DeviceRebooted)]
    assert [r.boot_id for r in reboots] == [1, 2, 3]
    assert any("device restarted (boot 3)" in c.reason for c in station.changes())


def test_a_shoe_of_another_protocol_version_is_refused_by_name(tmp_path: Path) -> None:
    with EmulatedShoe(tmp_path / "shoe", serial="SHOE-0002", version=2) as shoe:
        station = Station()
        with _link(shoe.path, station) as link:
            assert station.wait(lambda: station.state_count(LinkState.REFUSED) == 1)
            assert link.alive
        (refusal,) = station.changes()
        assert refusal.reason == (
            "refused shoe SHOE-0002 (firmware 1.0.0): it speaks protocol version 2; this "
            "station speaks version 1 (protocol versions seen on the line: 2). Install matching "
            "shoe firmware or station software."
        )
        assert station.cards() == []
        with pytest.raises(IncompatibleDeviceError, match="protocol versions seen on the line: 2"):
            probe(SerialOpener(str(shoe.path)))


def test_probe_identifies_a_compatible_shoe(shoe: EmulatedShoe) -> None:
    identity = probe(SerialOpener(str(shoe.path)), expect=DeviceKind.SHOE)
    assert (identity.serial, identity.boot_id, identity.protocol_version) == ("SHOE-0001", 1, 1)


def test_every_fault_at_once_loses_duplicates_and_reorders_nothing(tmp_path: Path) -> None:
    from station.bench.link import measure

    plan = FaultPlan(
        faults=ALL_FAULTS,
        rate=0.03,
        unplug_every_draws=120,
        unplug_s=0.15,
        reboot_every_draws=170,
        reboot_s=0.03,
    )
    figures = measure(400, plan, seed=7, timeout_s=20.0)
    assert (figures["lost"], figures["duplicated"], figures["out_of_order"]) == (0, 0, 0)
    assert figures["received"] == 400
    for counter in ("crc_errors", "resyncs", "retransmits", "reconnects", "device_reboots"):
        assert isinstance(figures[counter], int) and figures[counter] > 0, counter
    for fault in ("garbage", "bitflip", "drop", "duplicate", "split", "unplug", "reboot"):
        assert isinstance(figures[f"injected_{fault}"], int) and figures[f"injected_{fault}"] > 0


def test_the_bet_zone_board_reports_totals_over_a_pty(tmp_path: Path) -> None:
    with EmulatedBetZones(tmp_path / "zones", seats=6) as board:
        station = Station()
        link = DeviceLink(
            SerialOpener(str(board.path)),
            station.on_message,
            station.on_link_state,
            expect=DeviceKind.BET_ZONES,
        )
        with link:
            assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
            board.set_chips(4, [100, 25, 25])
            assert station.wait(
                lambda: any(
                    isinstance(m, BetZoneTotals) and m.seat == 4 and m.amount == 150
                    for m in station.items
                )
            )
    totals = [m for m in station.items if isinstance(m, BetZoneTotals) and m.seat == 4]
    assert totals[-1].chips == (100, 25, 25)


def test_a_station_callback_that_raises_does_not_stop_the_link(shoe: EmulatedShoe) -> None:
    station = Station()

    def flaky(message: Message) -> None:
        station.on_message(message)
        if isinstance(message, CardDrawn) and message.tag == tag_hex(0):
            raise RuntimeError("station bug")

    with ShoeLink(SerialOpener(str(shoe.path)), flaky, station.on_link_state) as link:
        assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
        shoe.draw(tag(0), False)
        shoe.draw(tag(1), False)
        assert station.wait(lambda: len(station.cards()) == 2)
        assert link.callback_errors == 1 and link.alive
    assert [c.tag for c in station.cards()] == [tag_hex(0), tag_hex(1)]


class CountingOpener:
    """A real serial opener that tells the test how often the link tried it."""

    def __init__(self, path: Path, tries: int) -> None:
        self._inner = SerialOpener(str(path))
        self._tries = tries
        self.calls = 0
        self.enough = threading.Event()

    @property
    def name(self) -> str:
        return self._inner.name

    def __call__(self) -> SerialPort:
        self.calls += 1
        if self.calls >= self._tries:
            self.enough.set()
        return self._inner()


def test_a_port_that_never_appears_is_retried_until_stopped(tmp_path: Path) -> None:
    station = Station()
    opener = CountingOpener(tmp_path / "nothing-here", tries=4)
    link = DeviceLink(
        opener, station.on_message, station.on_link_state, backoff_min_s=0.01, backoff_max_s=0.02
    )
    link.start()
    assert opener.enough.wait(WAIT_S)
    stopped_at = time.monotonic()
    link.stop()
    assert not link.alive and time.monotonic() - stopped_at < 2.0
    assert link.state == LinkState.DOWN
    assert link.stats().open_failures >= 3
    assert "cannot open" in link.stats().reason
    assert station.items == []


def test_a_replugged_shoe_is_found_again_under_its_stable_name(shoe: EmulatedShoe) -> None:
    station = Station()
    opener = CountingOpener(shoe.path, tries=1)
    with DeviceLink(opener, station.on_message, station.on_link_state, backoff_min_s=0.02):
        assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
        first = shoe.path.resolve()
        shoe.unplug()
        assert station.wait(lambda: station.state_count(LinkState.DOWN) == 1, 2.0)
        assert not shoe.path.exists()  # like udev, the name goes with the device
        shoe.replug()
        assert station.wait(lambda: station.state_count(LinkState.UP) == 2)
        assert shoe.path.resolve() != first or shoe.status().plugged  # the kernel may reuse a pts
    assert opener.calls >= 2


def test_loading_a_deck_and_opening_the_lid_reach_the_station(shoe: EmulatedShoe) -> None:
    station = Station()
    with _link(shoe.path, station) as link:
        assert station.wait(lambda: station.state_count(LinkState.UP) == 1)
        shoe.load_deck([tag(i) for i in range(52)])
        assert station.wait(lambda: any(isinstance(m, DeckScan) for m in station.items))
        shoe.set_lid(False)
        shoe.fail_reader(True)
        assert station.wait(
            lambda: any(isinstance(m, SensorFault) and m.active for m in station.items)
        )
        link.request_snapshot()
        assert station.wait(lambda: sum(isinstance(m, Snapshot) for m in station.items) == 2)
    (scan,) = [m for m in station.items if isinstance(m, DeckScan)]
    assert scan.complete and len(scan.tags) == 52
    statuses = [m for m in station.items if isinstance(m, ShoeStatus)]
    assert not statuses[-1].lid_closed
    snap = [m for m in station.items if isinstance(m, Snapshot)][-1]
    assert (snap.lid_closed, snap.reader_fault, snap.cards_loaded) == (False, True, 52)
