"""`station bench soak [--hands N]`: many hands through the daemon on the emulated table; memory
stays bounded and no event is lost or doubled. Edge adapter (threads, ptys, files, /proc).

The table is `station.bench.table` (the daemon in this process, the display thread on SDL's
dummy driver, the emulated shoe, board and panel, the demo's dealer), dealing clean hands of
the PHH sample until `--hands` are done. What went to the station is counted as it goes, per
kind, with a running SHA-256 of the sequence: every card the emulated shoe wrote to its pty
(tapped at the pty, at its first sending: event id, tag and face), every change of a seat's
total the board wrote to its pty (seat and amount: see `DeviceTap`), and every key, puck move
and re-seat of the dealer. Afterwards the journal is
read back and the same is computed from its input rows (a device event is known by the event
id in the row's actor). `lost` and `duplicated` add up the kinds (journal count against sent
count; a device event id journaled again counts as duplicated), and `sequence_mismatches`
counts the kinds whose sequence differs (lost, doubled, reordered or altered).

`--time-scale X` compresses the hardware's waits (the board's stable window, the host's settle,
key debounce, puck stability, a key's hold) by X so that 10,000 hands fit in an hour or two: the
same code paths and the same counts, only less idle time between inputs (1 is the table's own
timing, ~0.5 hands/s).

Memory: the process's RSS (VmRSS) is sampled every `--sample-s`; it holds the daemon, the
emulators and the dealer (whose own records are trimmed between hands). `rss_growth_mb` is the
RSS after the last hand minus the RSS once `--warmup` hands were played (what the first hands
fill, caches of the last 100 hands for the floor screens among them, is not growth).

Bars: `lost` == 0, `duplicated` == 0, `sequence_mismatches` == 0, `rss_growth_mb` <= 10 (memory
bounded; docs/performance.md bounds the daemon's RSS at 80 MB, `station bench idle` measures
that for the daemon alone).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from station.bench.report import Bar, emit, say, status_mb
from station.output import Guard, OutputRefusedError, fresh_folder

if TYPE_CHECKING:
    from station.bench.table import Played
    from station.demo.plan import PlannedHand
    from station.engine.events import InputEvent

BARS = (
    Bar("lost", "==", 0),
    Bar("duplicated", "==", 0),
    Bar("sequence_mismatches", "==", 0),
    Bar("rss_growth_mb", "<=", 10),
)
# What is compared: the events each emulated device sent, and the inputs the dealer made on the
# GPIO panel and the puck sensor, and the floor's re-seats.
KINDS = ("shoe", "betzones", "key", "puck", "setup")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hands",
        type=int,
        default=200,
        help="hands to deal (default 200, about 7 minutes at the table's timing; the README's "
        "long run is --hands 10000 --time-scale 0.1)",
    )
    parser.add_argument("--seed", type=int, default=1, help="hand choice seed (default 1)")
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help="hands before the memory baseline (default: 5%% of --hands, at least 1)",
    )
    parser.add_argument(
        "--sample-s", type=float, default=5.0, help="RSS sampling period (default 5 s)"
    )
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="the hardware's waits times X, 0 < X <= 1: the board's stable window, the host's "
        "settle, key debounce, puck stability and a key's hold (default 1: the table's timing)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="run in DIR and keep the journal there (e.g. for `station bench startup --journal`)",
    )


def canonical(event: InputEvent) -> tuple[str, str] | None:
    """(kind, what the dealer determined) for the inputs that come from no device frame: keys,
    the puck and re-seats; None for the rest (draws and zones are checked at the devices)."""
    from station.engine.events import KeyPress, Puck, Setup  # noqa: PLC0415

    match event:
        case KeyPress():
            return "key", f"{event.key.value}/{event.seat}"
        case Puck():
            return "puck", str(event.seat)
        case Setup():
            return "setup", f"{event.game}/{sorted(event.seats.items())}/{event.button}"
    return None


class Tally:
    """Per kind: how many, and a running SHA-256 of the sequence (constant memory)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._digests = {k: hashlib.sha256() for k in KINDS}

    def add(self, kind: str, text: str) -> None:
        self.counts[kind] += 1
        self._digests[kind].update(text.encode() + b"\n")

    def hexdigest(self, kind: str) -> str:
        return self._digests[kind].hexdigest()


def sent_by_dealer(hand: PlannedHand, tally: Tally) -> None:
    from station.demo.steps import expected_events  # noqa: PLC0415

    for step in hand.steps:
        for event in expected_events(step):
            found = canonical(event)
            if found is not None:
                tally.add(*found)


class DeviceTap:
    """What an emulated device wrote to its pty, on the device's thread (the `on_frame_sent`
    probe), each event once: at its first sending (a retransmission repeats an id already seen;
    ids only grow, across reboots too).

    The shoe: every card drawn, as `event_id/tag/face`, one journal row each. The board: the
    zone totals as `seat/amount` where they change a seat's total (the station journals a
    settled change, not a repeat of the total it holds: the board reports every zone at boot,
    and the snapshot at connect may have told the same)."""

    def __init__(self, kind: str, tally: Tally) -> None:
        self.kind = kind
        self.tally = tally
        self.last_id = 0
        self.zones: dict[int, int] = {}

    def on_frame_sent(self, frame: bytes, at: float) -> None:
        from firmware_bridge import BetZoneTotals, CardDrawn  # noqa: PLC0415
        from firmware_bridge.messages import parse_event  # noqa: PLC0415
        from station.bench.table import device_events  # noqa: PLC0415

        for etype, header, body in device_events(frame):
            if header.event_id <= self.last_id:
                continue
            self.last_id = header.event_id
            event = parse_event(etype, header, body, at)
            if isinstance(event, CardDrawn):
                self.tally.add(self.kind, f"{header.event_id}/{event.tag}/{int(event.face_up)}")
            elif isinstance(event, BetZoneTotals) and self.zones.get(event.seat) != event.amount:
                self.zones[event.seat] = event.amount
                self.tally.add(self.kind, f"{event.seat}/{event.amount}")


@dataclass(frozen=True, slots=True)
class Journaled:
    tally: Tally
    rows: int
    device_events: int  # rows whose actor names a device event
    repeated_device_events: int  # of those, an event id not above the device's previous one
    from_station: int  # the table of the config, journaled by the station itself


def read_journal(path: Path) -> Journaled:
    """The journal's input rows, streamed, in the same terms as what was sent."""
    from station.daemon.translate import parse_actor  # noqa: PLC0415
    from station.formats.session import event_from_dict  # noqa: PLC0415
    from station.journal import Journal, SystemClock  # noqa: PLC0415
    from station.journal.codes import INPUT_CODES  # noqa: PLC0415

    tally = Tally()
    last_id: dict[str, int] = {}
    rows = device = repeated = own = 0
    journal = Journal.open(path, clock=SystemClock())
    try:
        for row in journal.rows(codes=INPUT_CODES):
            rows += 1
            payload = row.data()
            payload.pop("t", None)
            if row.actor == "config":
                own += 1
                continue
            prov = parse_actor(row.actor)
            if prov is None and payload["type"] == "zone":  # from the board's snapshot
                tally.add("betzones", f"{payload['seat']}/{payload['amount']}")
                continue
            if prov is None:
                _, event = event_from_dict(payload)
                found = canonical(event)
                if found is not None:
                    tally.add(*found)
                continue
            device += 1
            kind = prov.device.value
            repeated += prov.event_id <= last_id.get(kind, 0)
            last_id[kind] = max(prov.event_id, last_id.get(kind, 0))
            if payload["type"] == "draw":
                face = int(bool(payload.get("face_up")))
                tally.add(kind, f"{prov.event_id}/{payload['tag']}/{face}")
            else:
                tally.add(kind, f"{payload['seat']}/{payload['amount']}")
    finally:
        journal.close()
    return Journaled(tally, rows, device, repeated, own)


class RssSampler:
    """VmRSS of this process every `period_s`, with the hand count at the time."""

    def __init__(self, period_s: float, hands: Callable[[], int]) -> None:
        self.period_s = period_s
        self.hands = hands
        self.samples: list[tuple[int, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def sample(self) -> None:
        self.samples.append((self.hands(), status_mb("VmRSS")))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def _run(self) -> None:
        while not self._stop.wait(self.period_s):
            self.sample()


def figures(
    hands: int,
    seconds: float,
    sent: Tally,
    got: Journaled,
    samples: list[tuple[int, float]],
    warmup: int,
    peak_rss_mb: float,
) -> dict[str, object]:
    lost = {k: max(0, sent.counts[k] - got.tally.counts[k]) for k in KINDS}
    duplicated = {k: max(0, got.tally.counts[k] - sent.counts[k]) for k in KINDS}
    mismatched = [k for k in KINDS if sent.hexdigest(k) != got.tally.hexdigest(k)]
    after = [rss for n, rss in samples if n >= warmup] or [rss for _, rss in samples[-1:]]
    last = after[-1] if after else None
    return {
        "hands": hands,
        "seconds": round(seconds, 1),
        "hands_per_s": round(hands / seconds, 2) if seconds > 0 else None,
        "sent": {k: sent.counts[k] for k in KINDS},
        "journaled": {k: got.tally.counts[k] for k in KINDS},
        "lost": sum(lost.values()),
        "duplicated": sum(duplicated.values()) + got.repeated_device_events,
        "sequence_mismatches": len(mismatched),
        "mismatched_kinds": mismatched,
        "device_events": got.device_events,
        "journal_input_rows": got.rows,
        "station_inputs": got.from_station,
        "rss_start_mb": samples[0][1] if samples else None,
        "rss_after_warmup_mb": after[0] if after else None,
        "rss_end_mb": last,
        "rss_max_mb": max(rss for _, rss in samples) if samples else None,
        "rss_growth_mb": round(after[-1] - after[0], 1) if after else None,
        "peak_rss_mb": peak_rss_mb,
        "warmup_hands": warmup,
    }


def measure(
    hands: int, seed: int, warmup: int, sample_s: float, folder: Path, time_scale: float = 1.0
) -> tuple[dict[str, object], str]:
    from station.bench.table import BenchTable  # noqa: PLC0415 (the CLI stays light)

    table = BenchTable(folder, seed, time_scale=time_scale)
    sent = Tally()
    table.rig.shoe.on_frame_sent = DeviceTap("shoe", sent).on_frame_sent
    table.rig.zones.on_frame_sent = DeviceTap("betzones", sent).on_frame_sent
    started = time.monotonic()
    done = [0]
    sampler = RssSampler(sample_s, lambda: done[0])
    every = max(1, hands // 20)

    def keep_going(played: Played) -> bool:
        return played.hands < hands

    def on_hand(hand: PlannedHand, played: Played) -> None:
        sent_by_dealer(hand, sent)
        done[0] = played.hands
        if played.hands == warmup:
            sampler.sample()
        if played.hands == hands:  # the last sample while the daemon is still up
            sampler.stop()
            sampler.sample()
        if played.hands % every == 0:
            rate = played.hands / (time.monotonic() - started)
            rss = status_mb("VmRSS")
            say(f"soak: {played.hands}/{hands} hands, {rate:.2f} hands/s, RSS {rss} MB")

    sampler.start()
    try:
        played = table.play(keep_going, on_hand)
    finally:
        sampler.stop()
    if not sampler.samples:
        sampler.sample()
    seconds = time.monotonic() - started
    peak = status_mb("VmHWM")  # before the journal is read back
    got = read_journal(table.rig.loaded.config.journal)
    out = figures(played.hands, seconds, sent, got, sampler.samples, warmup, peak)
    out["time_scale"] = time_scale
    return out, played.error


def run(args: argparse.Namespace) -> int:
    if args.hands < 1 or args.sample_s <= 0 or not 0 < args.time_scale <= 1:
        print(
            "station bench soak: --hands must be >= 1, --sample-s > 0 and 0 < --time-scale <= 1",
            file=sys.stderr,
        )
        return 2
    warmup = args.warmup if args.warmup is not None else max(1, args.hands // 20)
    if not 0 <= warmup < args.hands:
        print("station bench soak: --warmup must be below --hands", file=sys.stderr)
        return 2
    if args.keep is not None:
        try:
            fresh_folder(args.keep, Guard())  # a new or empty folder: never a station's own
        except OutputRefusedError as exc:
            print(f"station bench soak: --keep: {exc}", file=sys.stderr)
            return 2
    try:
        if args.keep is not None:
            result, error = measure(
                args.hands, args.seed, warmup, args.sample_s, args.keep, args.time_scale
            )
        else:
            with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp:
                result, error = measure(
                    args.hands, args.seed, warmup, args.sample_s, Path(tmp), args.time_scale
                )
    except RuntimeError as exc:  # the table did not come up (the display, say)
        print(f"station bench soak: {exc}", file=sys.stderr)
        return 1
    if error:
        say(f"station bench soak: the dealer stopped: {error}")
        result["error"] = error
    emit("soak", result, BARS)
    return 1 if error else 0
