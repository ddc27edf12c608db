"""`station bench link`: draw N cards through the emulated shoe over a real pty, with injected
faults, and count what the station received. Edge adapter (threads, ptys, stdout).

The shoe is the real firmware logic behind a pseudo-terminal under a stable name; the station
side is the real `DeviceLink` over pyserial. Every draw has its own tag, so a lost, repeated or
reordered draw shows. The emulated dealer waits while more than `--max-backlog` draws are unread
or unacknowledged (a hand's worth piles up while the shoe is unplugged, no more).

Output (one JSON line, `station.bench.report`): sent, received, lost, duplicated, out_of_order
(draws delivered after a later one), then the fault evidence: crc_errors, resyncs and
retransmits at both ends of the line, reconnects of the host, seconds from the first draw to the
last delivery, and the faults the emulator injected (`injected_*`). Bars (docs/performance.md):
`lost` == 0 and `duplicated` == 0.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from station.bench.report import Bar, emit

if TYPE_CHECKING:
    # The CLI imports every command module to build its parser: keep this one's top level light
    # and import the link and the emulator when the bench runs.
    from firmware_bridge import LinkStateChange, LinkStats, Message
    from hardware.emulator.device import DeviceStatus
    from hardware.emulator.faults import FaultPlan

LINK_UP_TIMEOUT_S = 10.0
BARS = (Bar("lost", "==", 0), Bar("duplicated", "==", 0))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--draws", type=int, default=10000, help="cards to draw (default 10000)")
    parser.add_argument(
        "--faults",
        default="all",
        help="all, none, or a comma list of: garbage, bitflip, drop, duplicate, split, unplug, "
        "reboot (default all)",
    )
    parser.add_argument("--seed", type=int, default=1, help="fault injection seed (default 1)")
    parser.add_argument("--max-backlog", type=int, default=64, help=argparse.SUPPRESS)
    parser.add_argument(
        "--timeout-s",
        type=float,
        default=120.0,
        help="give up when no draw arrives for this long (default 120)",
    )


class _Receiver:
    """Collects the draws the station is handed, in order, on the link thread."""

    def __init__(self) -> None:
        self.tags: list[str] = []
        self.unique: set[str] = set()
        self.up = threading.Event()
        self.cond = threading.Condition()

    def on_message(self, message: Message) -> None:
        from firmware_bridge import CardDrawn  # noqa: PLC0415 (lazy: the CLI parser stays light)

        if isinstance(message, CardDrawn):
            with self.cond:
                self.tags.append(message.tag)
                self.unique.add(message.tag)
                self.cond.notify_all()

    def on_link_state(self, change: LinkStateChange) -> None:
        from firmware_bridge import LinkState  # noqa: PLC0415 (lazy: the CLI parser stays light)

        if change.state == LinkState.UP:
            self.up.set()
        elif change.state == LinkState.REFUSED:
            print(f"station bench link: {change.reason}", file=sys.stderr)


def _tag(i: int) -> bytes:
    return b"\x04" + i.to_bytes(6, "big")


def measure(
    draws: int, plan: FaultPlan, seed: int, timeout_s: float = 120.0, max_backlog: int = 64
) -> dict[str, object]:
    """Run the bench and return its figures (the JSON object)."""
    from firmware_bridge import DeviceKind, DeviceLink, SerialOpener  # noqa: PLC0415 (lazy: the CLI parser stays light)
    from hardware.emulator.shoe import EmulatedShoe  # noqa: PLC0415 (lazy: the CLI parser stays light)

    rx = _Receiver()
    with tempfile.TemporaryDirectory(prefix="bench-link-") as tmp:
        shoe = EmulatedShoe(Path(tmp) / "shoe", faults=plan, seed=seed)
        shoe.start()
        link = DeviceLink(
            SerialOpener(str(shoe.path)),
            rx.on_message,
            rx.on_link_state,
            expect=DeviceKind.SHOE,
            name="bench",
        )
        link.start()
        try:
            if not rx.up.wait(LINK_UP_TIMEOUT_S):
                print("station bench link: the link never came up", file=sys.stderr)
            started = time.monotonic()
            sent = 0
            for i in range(draws):
                if not shoe.wait_for_room(max_backlog, timeout_s):
                    print(f"station bench link: the shoe stalled after {i} draws", file=sys.stderr)
                    break
                shoe.draw(_tag(i), face_up=i % 5 == 0)
                sent += 1
            with rx.cond:
                while len(rx.unique) < sent:
                    before = len(rx.tags)
                    rx.cond.wait(timeout_s)
                    if len(rx.tags) == before:
                        print("station bench link: gave up waiting for draws", file=sys.stderr)
                        break
                seconds = time.monotonic() - started
                received = list(rx.tags)
        finally:
            link.stop()
            shoe.stop()
    return figures(sent, received, seconds, link.stats(), shoe.status())


def figures(
    draws: int, received: list[str], seconds: float, host: LinkStats, device: DeviceStatus
) -> dict[str, object]:
    """The bench's JSON object from what was sent, what arrived and both ends' counters."""
    sent = {_tag(i).hex().upper(): i for i in range(draws)}
    seen: set[str] = set()
    out_of_order = 0
    highest = -1
    for tag in received:
        if tag in seen:
            continue
        seen.add(tag)
        index = sent.get(tag, -1)
        if index < highest:
            out_of_order += 1
        highest = max(highest, index)
    out: dict[str, object] = {
        "sent": draws,
        "received": len(received),
        "lost": draws - len(seen & sent.keys()),
        "duplicated": len(received) - len(seen),
        "out_of_order": out_of_order,
        "crc_errors": host.crc_errors + device.crc_errors,
        "resyncs": host.resyncs + device.resyncs,
        "retransmits": host.retransmits + device.retransmits,
        "reconnects": host.reconnects,
        "seconds": round(seconds, 3),
        "host_crc_errors": host.crc_errors,
        "host_resyncs": host.resyncs,
        "host_retransmits": host.retransmits,
        "host_naks": host.naks_tx,
        "host_duplicates_dropped": host.duplicates,
        "host_frames_out_of_sequence": host.out_of_order,
        "device_crc_errors": device.crc_errors,
        "device_retransmits": device.retransmits,
        "device_naks": device.naks_tx,
        "device_reboots": device.boot_id - 1,
        "events_lost_reported": host.events_lost,
    }
    out.update({f"injected_{k}": v for k, v in device.faults.items()})
    return out


def run(args: argparse.Namespace) -> int:
    from hardware.emulator.faults import FaultPlan, parse_faults  # noqa: PLC0415 (lazy: the CLI parser stays light)

    try:
        faults = parse_faults(args.faults)
    except ValueError as exc:
        print(f"station bench link: {exc}", file=sys.stderr)
        return 2
    if args.draws < 1:
        print("station bench link: --draws must be at least 1", file=sys.stderr)
        return 2
    result = measure(
        args.draws, FaultPlan(faults=faults), args.seed, args.timeout_s, args.max_backlog
    )
    emit("link", result, BARS)
    return 0
