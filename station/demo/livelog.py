"""The demo's live log: one readable line per hand start, incident (rule id and ruling), prompt
of note, hand end with payouts, and link up/down; and the record of what was caught in which
hand, for the summary. Edge adapter (a text stream); fed on the core thread and the dealer's.

Only public things are printed: the board and payouts at a hand's end, never a hole card (the
incident texts name an exposed or boxed card, which the table has seen).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TextIO

from station.daemon.news import LinkNews, News, OpsNews, Recorded
from station.demo.plan import PlannedHand
from station.demo.steps import Reseat
from station.engine.decisions import HandEnd, Incident, Prompt, PromptCode


@dataclass
class HandLog:
    planned: PlannedHand
    rules: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    link_down_s: float | None = None  # from the unplug to the link reported down
    ended: HandEnd | None = None
    done: bool = False


class LiveLog:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.hands: list[HandLog] = []
        self._unplugged_at: float | None = None

    def line(self, text: str) -> None:
        with self.lock:
            print(text, file=self.out, flush=True)

    @property
    def current(self) -> HandLog | None:
        return self.hands[-1] if self.hands else None

    def hand_start(self, hand: PlannedHand) -> None:
        self.hands.append(HandLog(hand))
        setup = next((s.setup for s in hand.steps if isinstance(s, Reseat)), None)
        seats = f", {len(setup.seats)} seats, button {setup.button}" if setup is not None else ""
        injected = f" - injected: {hand.injection.value}" if hand.injection is not None else ""
        self.line(f"hand {hand.number} starts ({hand.source}{seats}){injected}")

    def hand_done(self, hand: PlannedHand) -> None:
        if self.current is not None:
            self.current.done = True

    def narrate(self, text: str) -> None:
        self.line(f"  dealer {text}")

    def unplugged(self) -> None:
        """The shoe's cable just came out (the time the link-down report is measured from)."""
        self._unplugged_at = time.monotonic()

    def dropped(self, amount: int) -> None:
        self.line(f"  dealer sets {amount} aside in the rake zone and drops it into the box")

    def floor_cleared(self) -> None:
        self.line("  floor signs in with a PIN and clears CALL FLOOR")

    def __call__(self, news: News) -> None:
        match news:
            case Recorded(decisions=decisions):
                for d in decisions:
                    self._decision(d)
            case LinkNews(device=device, up=up, reason=reason):
                state = "UP" if up else f"DOWN ({reason.split(':')[0]})"
                hand = self.current
                if not up and hand is not None and self._unplugged_at is not None:
                    hand.link_down_s = time.monotonic() - self._unplugged_at
                    self._unplugged_at = None
                self.line(f"  link: {device.value} {state}")
            case OpsNews():
                pass

    def _decision(self, d: object) -> None:
        hand = self.current
        match d:
            case Incident():
                if hand is not None:
                    hand.rules.append(d.rule)
                    hand.rulings.append(d.ruling.value)
                seat = f" seat {d.seat}" if d.seat is not None else ""
                self.line(f"  INCIDENT {d.rule} [{d.ruling.value}]{seat}: {d.text}")
            case Prompt(code=PromptCode.RECOVERY):
                self.line(f"  prompt: {d.text}")
            case Prompt() if "NO BURN" in d.text:
                self.line(f"  prompt: {d.text}")
            case Prompt(code=PromptCode.DROP | PromptCode.TIME):
                self.line(f"  prompt: {d.text}")
            case HandEnd():
                if hand is not None:
                    hand.ended = d
                board = " ".join(d.board) or "-"
                paid = ", ".join(f"seat {s} {a}" for s, a in sorted(d.payouts.items()) if a)
                void = " VOID, every wager returned" if d.void else ""
                rake = f"; rake {d.rake.total}" if d.rake is not None and not d.void else ""
                self.line(
                    f"hand {d.hand} ends{void}: board {board}; payouts {paid or 'none'}{rake}"
                )
