"""Interactive emulated key panel: terminal keys pressed onto mock pins. Edge adapter (terminal).

For development: `python -m hardware.inputs.keyboard [--pinmap FILE]` opens the pin map on
MockFactory pins, then every key typed is a panel press (with contact bounce) through the same
`TableInputs` the daemon runs, and the events are printed. A capital letter holds the key
(a long press); `q` or Ctrl-D quits. The map is `KEYMAP` (shown at start).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import select
import sys
import termios
import tty
from collections.abc import Iterator, Mapping
from typing import TextIO

from hardware.inputs.clock import Clock, monotonic
from hardware.inputs.emulator import InputEmulator
from hardware.inputs.events import TableInputEvent
from hardware.inputs.exc import PinMapError
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap import PinMap
from hardware.inputs.pinmap_load import default_pinmap, load_pinmap
from hardware.inputs.table import TableInputs

SHORT_S = 0.08
LONG_S = 1.2

KEYMAP: Mapping[str, str] = {
    "f": "FOLD",
    "c": "CHECK",
    "l": "CALL",
    "r": "RAISE",
    "a": "ALLIN",
    "v": "VERBAL",
    "n": "NEW_HAND",
    "\r": "CONFIRM",
    "\n": "CONFIRM",
    "\x7f": "CANCEL",
    "\x08": "CANCEL",
    "x": "CANCEL",
    "!": "FLOOR",
    "e": "EXPOSED",
    "h": "FLASH",
    "b": "BOXED",
    "m": "MISDEAL",
    "s": "STUB_RESHUFFLE",
    "d": "DRAW",
    "i": "DISCARD",
    "t": "STRADDLE",
    "k": "KILL",
    "w": "TABLED",
    "u": "MUCK",
    "g": "RUN_IT",
    "o": "CLOCK",
    "p": "TIME",
    "z": "ELIMINATE",
    "y": "BURN_SELECT",
    "j": "CHOP",
    "=": "SEAT_CHANGE",
    **{str(n): f"SEAT_{n}" for n in range(1, 10)},
    "0": "SEAT_10",
}


def button_for_char(ch: str) -> tuple[str, float] | None:
    """The panel button and hold time a typed character stands for (capital: a long press)."""
    if ch in KEYMAP:
        return KEYMAP[ch], SHORT_S
    if ch.isupper() and ch.lower() in KEYMAP:
        return KEYMAP[ch.lower()], LONG_S
    return None


def format_event(event: TableInputEvent, t0: float) -> str:
    fields = dataclasses.asdict(event)
    shown = " ".join(
        f"{k}={v}"
        for k, v in fields.items()
        if k != "at" and v is not None and v != "" and not (k == "long" and v is False)
    )
    return f"{event.at - t0:8.3f}  {type(event).__name__:<14} {shown}"


class KeyboardPanel:
    """The loop's state: typed characters in, printed events out (testable without a terminal)."""

    def __init__(self, pinmap: PinMap, out: TextIO, clock: Clock = monotonic) -> None:
        self._clock = clock
        self._out = out
        self.factories = mock_factories(pinmap)
        self.emulator = InputEmulator(pinmap, self.factories)
        self.emulator.idle()
        self.t0 = clock()
        self.inputs = TableInputs(pinmap, self.factories, clock)
        self._print(self.inputs.start())

    def close(self) -> None:
        self.inputs.close()
        close_factories(self.factories)

    def _print(self, events: list[TableInputEvent]) -> None:
        for event in events:
            print(format_event(event, self.t0), file=self._out, flush=True)

    def typed(self, ch: str) -> bool:
        """Handle one typed character; False for an unmapped one."""
        found = button_for_char(ch)
        if found is None:
            return False
        button, hold_s = found
        if f"keys.{button}" not in self.inputs.believed():
            return False
        self.emulator.press(button, self._clock(), hold_s)
        self.step()
        return True

    def step(self) -> None:
        self.emulator.run_until(self._clock())
        self._print(self.inputs.poll())

    def timeout_s(self) -> float:
        now = self._clock()
        times = [
            t for t in (self.inputs.next_deadline(), self.emulator.next_due()) if t is not None
        ]
        return max(0.0, min(times) - now) if times else 1.0


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.inputs.keyboard", description=__doc__)
    parser.add_argument("--pinmap", help="pin map TOML (default: the embedded revision A)")
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap) if args.pinmap else default_pinmap()
    except PinMapError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not sys.stdin.isatty():
        print("keyboard mode needs a terminal", file=sys.stderr)
        return 2
    keys = "  ".join(
        f"{'Enter' if c == chr(13) else repr(c)[1:-1]}={b}"
        for c, b in KEYMAP.items()
        if c not in "\n\x08"
    )
    print(f"{pinmap.summary()}\n{keys}\ncapital letter = hold (long press); q quits", flush=True)
    panel = KeyboardPanel(pinmap, sys.stdout)
    fd = sys.stdin.fileno()
    try:
        with _cbreak(fd):
            while True:
                ready, _, _ = select.select([fd], [], [], panel.timeout_s())
                if ready:
                    ch = os.read(fd, 1).decode("latin-1")
                    if ch in ("q", "\x04", ""):
                        return 0
                    panel.typed(ch)
                panel.step()
    except KeyboardInterrupt:
        return 130
    finally:
        panel.close()


if __name__ == "__main__":
    sys.exit(main())
