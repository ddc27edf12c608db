"""The replay corpus: what `station replay --json --trace` prints for every rule scenario, every
hand of the PHH sample and a fixed set of real hands with a dealer's mistakes in them, recorded
once and compared exactly by the test suite (tests/test_replay_corpus.py).

The recorded session format and the replay output are a public contract (docs/session-format.md):
a change to the engine's structure must leave every one of these outputs byte-identical. Each
session also records a digest of the table snapshot after every event (what the display shows),
so a change the replay output does not reveal (a prompt text, a seat's status) is caught too.

Three parts, each an xz-compressed text file in this folder:

- `scenarios.txt.xz`: the output of every tests/scenarios/ session (inputs are the files).
- `phh.txt.xz`: every hand of station/data's PHH sample converted as `station import-phh` does
  (seed 0), inputs and outputs.
- `mistakes.txt.xz`: real hands with one to four injected mistakes (tests/engine/dealerkit,
  seeded), played on by a dealer who does what the station shows, the floor's CONFIRM, the
  posts the station names and NEW_HAND; inputs and outputs.

The inputs of the generated parts are stored, so the comparison depends on neither the PHH
converter nor the test kit: only on the session reader, the engine and the JSON writer.

    python -m tests.corpus.corpus check            # compare; print the first differing line
    python -m tests.corpus.corpus record           # re-record (after a deliberate change)
    python -m tests.corpus.corpus show NAME        # print one session's recorded output

Layout of a part: `@ NAME snap=DIGEST` opens a session; `< JSON` lines are its input lines (the
generated parts), `> JSON` lines its output lines, in order.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import lzma
import random
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
PARTS = ("scenarios", "phh", "mistakes")
MISTAKE_SESSIONS = 600  # seeds 0..599


@dataclass
class Entry:
    name: str
    snap: str
    inputs: list[str] = field(default_factory=list)  # JSON lines (generated parts)
    outputs: list[str] = field(default_factory=list)


def part_path(part: str) -> Path:
    return HERE / f"{part}.txt.xz"


# --- replay: exactly what `station replay --json --trace FILE` prints ----------------------------


def replay_output(path: Path) -> list[str]:
    """Output lines of `station replay --json --trace PATH`, through the command itself."""
    from station.cli import replay

    buf = io.StringIO()
    args = argparse.Namespace(session=str(path), json=True, trace=True)
    with contextlib.redirect_stdout(buf):
        code = replay.run(args)
    assert code == 0, f"{path}: station replay exited {code}"
    return buf.getvalue().splitlines()


def snapshot_digest(path: Path) -> str:
    """Digest of the table snapshot after every event of the session, and after its end."""
    from station.engine.table import Table
    from station.formats.session import read_session

    table = Table()
    h = hashlib.sha256()
    last = 0
    for line in read_session(path).lines:
        last = line.line
        table.feed(line.event, seq=line.line, at=line.t)
        h.update(repr(table.snapshot()).encode())
    table.finish(seq=last)
    h.update(repr(table.snapshot()).encode())
    return h.hexdigest()[:16]


def _replay_text(name: str, inputs: list[str], tmp: Path) -> Entry:
    path = tmp / "session.jsonl"
    path.write_text("".join(line + "\n" for line in inputs), encoding="utf-8")
    return Entry(name, snapshot_digest(path), list(inputs), replay_output(path))


# --- the sessions of each part -------------------------------------------------------------------


def scenario_entries() -> Iterator[Entry]:
    for path in sorted(SCENARIOS.rglob("*.jsonl")):
        name = str(path.relative_to(SCENARIOS))
        yield Entry(name, snapshot_digest(path), [], replay_output(path))


def phh_inputs() -> Iterator[tuple[str, list[str]]]:
    from station.data import phh_sample
    from station.phh.convert import convert_hand
    from station.phh.reader import loads_phh

    for name, text in phh_sample():
        (hand,) = loads_phh(text, name, name)
        yield name, [json.dumps(line) for line in convert_hand(hand, seed=0).lines]


def mistake_inputs() -> Iterator[tuple[str, list[str]]]:
    """Seeded sessions in the manner of tests/engine/test_hand_always_ends.py."""
    from tests.engine.dealerkit import (
        PROFILES,
        Mistakes,
        Rolled,
        follow_the_station,
        next_hand_starts,
        real_hand,
        sample_size,
    )
    from tests.engine.tablekit import Run

    size = sample_size()
    for seed in range(MISTAKE_SESSIONS):
        rng = random.Random(seed)
        index = rng.randrange(size)
        profile = rng.choice(PROFILES)
        count = rng.randint(1, 4)
        name, lines = real_hand(index)
        lines[0]["profile"] = profile
        mistakes = Mistakes(Rolled(rng))
        lines = mistakes.apply(lines, count)
        run = Run()
        run.feed(lines)
        follow_the_station(run)
        next_hand_starts(run)
        yield (
            f"{seed:04d} {name} {profile} {'+'.join(mistakes.kinds)}",
            [json.dumps(line) for line in run.lines],
        )


def generate(part: str) -> Iterator[Entry]:
    """Replay every session of `part` with the code as it is now."""
    if part == "scenarios":
        yield from scenario_entries()
        return
    source = phh_inputs() if part == "phh" else mistake_inputs()
    with tempfile.TemporaryDirectory() as tmp:
        for name, inputs in source:
            yield _replay_text(name, inputs, Path(tmp))


def replay_recorded(part: str, entries: Iterable[Entry]) -> Iterator[Entry]:
    """Replay the recorded inputs of `part` (the scenario files for `scenarios`)."""
    if part == "scenarios":
        yield from scenario_entries()
        return
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            yield _replay_text(e.name, e.inputs, Path(tmp))


# --- reading and writing a part ------------------------------------------------------------------


def write_part(part: str, entries: Iterable[Entry]) -> int:
    lines: list[str] = []
    n = 0
    for e in entries:
        n += 1
        lines.append(f"@ {e.name} snap={e.snap}")
        lines += [f"< {x}" for x in e.inputs]
        lines += [f"> {x}" for x in e.outputs]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    part_path(part).write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    return n


def read_part(part: str) -> list[Entry]:
    entries: list[Entry] = []
    text = lzma.decompress(part_path(part).read_bytes()).decode("utf-8")
    for line in text.splitlines():
        tag, _, body = line.partition(" ")
        match tag:
            case "@":
                name, _, snap = body.rpartition(" snap=")
                entries.append(Entry(name, snap))
            case "<":
                entries[-1].inputs.append(body)
            case ">":
                entries[-1].outputs.append(body)
            case _:
                raise ValueError(f"{part_path(part)}: unexpected line {line[:60]!r}")
    return entries


# --- comparing -----------------------------------------------------------------------------------


def first_difference(recorded: Entry, now: Entry) -> str | None:
    """None when `now` replays exactly as recorded; else what differs first, with the line."""
    for i, (a, b) in enumerate(zip(recorded.outputs, now.outputs, strict=False)):
        if a != b:
            where = f"{recorded.name}: output line {i + 1} differs"
            return f"{where}:\n  recorded: {a}\n  now:      {b}"
    if len(recorded.outputs) != len(now.outputs):
        i = min(len(recorded.outputs), len(now.outputs))
        extra = (recorded.outputs if len(recorded.outputs) > i else now.outputs)[i]
        which = "recorded only" if len(recorded.outputs) > i else "now only"
        return (
            f"{recorded.name}: {len(recorded.outputs)} output lines recorded, "
            f"{len(now.outputs)} now; line {i + 1} ({which}): {extra}"
        )
    if recorded.snap != now.snap:
        return (
            f"{recorded.name}: the replay output is the same but the table snapshots differ "
            f"(digest {recorded.snap} recorded, {now.snap} now): the display would show "
            f"something else"
        )
    return None


def compare(part: str) -> list[str]:
    """Every session of `part` whose replay differs from the recording (first difference each)."""
    recorded = read_part(part)
    problems: list[str] = []
    now = list(replay_recorded(part, recorded))
    names_rec = [e.name for e in recorded]
    names_now = [e.name for e in now]
    if names_rec != names_now:
        gone = sorted(set(names_rec) - set(names_now))
        new = sorted(set(names_now) - set(names_rec))
        problems.append(f"{part}: sessions differ: missing {gone[:5]}, not recorded {new[:5]}")
    by_name = {e.name: e for e in now}
    for e in recorded:
        if e.name in by_name:
            diff = first_difference(e, by_name[e.name])
            if diff is not None:
                problems.append(diff)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus.corpus")
    sub = parser.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="re-record parts with the code as it is now")
    rec.add_argument("parts", nargs="*", default=list(PARTS))
    chk = sub.add_parser("check", help="compare parts with their recording")
    chk.add_argument("parts", nargs="*", default=list(PARTS))
    show = sub.add_parser("show", help="print a recorded session (inputs and outputs)")
    show.add_argument("name")
    args = parser.parse_args(argv)
    if args.cmd == "record":
        for part in args.parts:
            n = write_part(part, generate(part))
            print(f"{part}: {n} sessions, {part_path(part).stat().st_size} bytes", file=sys.stderr)
        return 0
    if args.cmd == "check":
        bad = 0
        for part in args.parts:
            problems = compare(part)
            bad += len(problems)
            for p in problems[:10]:
                print(p)
            print(f"{part}: {len(problems)} sessions differ", file=sys.stderr)
        return 1 if bad else 0
    for part in PARTS:
        for e in read_part(part):
            if e.name == args.name:
                print("\n".join([*(f"< {x}" for x in e.inputs), *(f"> {x}" for x in e.outputs)]))
                return 0
    print(f"no session {args.name!r} in the corpus", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
