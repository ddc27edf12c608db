"""What the demo's dealer and floor physically do, one step at a time, as frozen records. Pure.

A converted PHH hand (a recorded session) becomes a list of steps: re-seat the table, put chips
in a betting zone, collect the zones, draw a card through the shoe, press panel keys, pull the
shoe's cable. `expected_events` says which engine input each step must produce once it has gone
through the real hardware path (emulator -> pty -> link -> core); the dealer waits for exactly
those before the next step, as a dealer watches the screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from station.engine.cards import Card, DeckRegistry, synthetic_deck, synthetic_tag
from station.engine.events import (
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    VerbalAction,
    Zone,
)

MAIN_DECK = "blue-1"  # the deck in play (the embedded registry's first deck)
SPARE_DECK = "blue-2"  # a second blue deck: a card of it mixed in is a duplicate
CHIP_VALUES = (100_000, 25_000, 5000, 1000, 500, 100, 25, 5, 1)

# Panel buttons beyond the catalog keys (hardware/inputs/PANEL.md).
_SEAT_ACTING = frozenset(
    {Key.FOLD, Key.CHECK, Key.ALLIN, Key.EXPOSED, Key.FLASH, Key.TABLED, Key.MUCK, Key.KILL}
)


@dataclass(frozen=True, slots=True)
class Reseat:
    """The floor seats the table for the next hand (stacks, blinds, button)."""

    setup: Setup


@dataclass(frozen=True, slots=True)
class Chips:
    """The seat's betting zone now holds `amount` (as `chips`: `chip_split` unless given)."""

    seat: int
    amount: int
    chips: tuple[int, ...] | None = None

    @property
    def stack(self) -> tuple[int, ...]:
        return self.chips if self.chips is not None else chip_split(self.amount)


@dataclass(frozen=True, slots=True)
class Collect:
    """The dealer sweeps these zones to the pot (or pushes them back): they fall to 0 together."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """One card leaves the shoe. `deck` is the physical deck the card comes from."""

    card: Card
    face_up: bool = False
    deck: str = MAIN_DECK
    wait: bool = True  # False: the shoe is unplugged, the draw arrives after the replug

    @property
    def tag(self) -> str:
        return synthetic_tag(self.deck, self.card)


@dataclass(frozen=True, slots=True)
class DealTag:
    """One tag read by the shoe as it is (a recorded session's `tag` draw): the deck registry
    says which card it is, or that it is no card of an enrolled deck."""

    tag: str
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class Sit:
    """A seat's occupancy sensor: a player sits down (`occupied`) or leaves."""

    seat: int
    occupied: bool


@dataclass(frozen=True, slots=True)
class RakeChips:
    """The rake (drop) zone now holds `amount` (0: dropped into the box)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Press:
    """A dealer entry on the key panel (one or two presses)."""

    key: KeyPress


@dataclass(frozen=True, slots=True)
class Unplug:
    """The shoe's USB cable comes out."""


@dataclass(frozen=True, slots=True)
class Replug:
    """The shoe's cable goes back in; the draws made meanwhile arrive."""


@dataclass(frozen=True, slots=True)
class MovePuck:
    seat: int


@dataclass(frozen=True, slots=True)
class FloorClears:
    """A floor supervisor signs in with a PIN and clears CALL FLOOR."""


@dataclass(frozen=True, slots=True)
class DropRake:
    """After the push: the dealer sets aside what the station's DROP prompt said (the rake and
    any time collected) in the rake zone and drops it into the box (the zone empties)."""


@dataclass(frozen=True, slots=True)
class Narrate:
    """A line for the live log: what the dealer is about to do (an injected irregularity)."""

    text: str


Step = (
    Reseat
    | Chips
    | Collect
    | Deal
    | DealTag
    | Sit
    | RakeChips
    | Press
    | Unplug
    | Replug
    | MovePuck
    | FloorClears
    | DropRake
    | Narrate
)


def chip_split(amount: int, unit: int = 1) -> tuple[int, ...]:
    """The chips a player puts in for `amount`, largest first, none smaller than `unit` when
    it can be helped. Never one chip for more than `unit`: one oversized chip reads as a call
    (BET-SINGLE-CHIP), and a demo bet must read as what the hand history says."""
    out: list[int] = []
    left = amount
    for value in CHIP_VALUES:
        n, left = divmod(left, value)
        out.extend([value] * n)
    smaller = [v for v in CHIP_VALUES if unit <= v < amount]
    if len(out) == 1 and smaller:
        n, rest = divmod(amount, smaller[0])
        out = [smaller[0]] * n + list(chip_split(rest, unit))
    return tuple(out)


def chip_unit(amounts: Iterable[int]) -> int:
    """The smallest chip a hand needs: the largest denomination every amount is a multiple of."""
    wanted = [a for a in amounts if a > 0]
    return next((v for v in CHIP_VALUES if all(a % v == 0 for a in wanted)), 1)


def forced_bet_chips(amount: int, unit: int) -> tuple[int, ...]:
    """A forced bet that shows the hand's smallest chip: chips smaller than the smallest chip of
    the forced bets do not play (BET-SMALLEST-CHIP), so the blinds must carry one."""
    if amount <= unit or amount % unit:
        return chip_split(amount)
    return tuple(sorted((*chip_split(amount - unit, unit), unit), reverse=True))


def buttons(press: KeyPress) -> tuple[str, ...]:
    """The panel buttons that enter `press` (PANEL.md): a seat key first for seat keys."""
    k = press.key
    seat = () if press.seat is None else (f"SEAT_{press.seat}",)
    if k is Key.VERBAL and press.action in (VerbalAction.CALL, VerbalAction.RAISE):
        return (*seat, "CALL" if press.action is VerbalAction.CALL else "RAISE")
    if k is Key.MISDEAL:
        return ("MISDEAL", "CONFIRM")
    if k in _SEAT_ACTING:
        return (*seat, k.value)
    return (k.value,)


def expected_events(step: Step) -> tuple[InputEvent, ...]:
    """The engine inputs a step produces (in order), after the hardware path."""
    match step:
        case Reseat(setup=setup):
            return (setup,)
        case Chips(seat=seat, amount=amount):
            return (Zone(seat, amount, step.stack),)
        case Collect(seats=seats):
            return tuple(Zone(s, 0, ()) for s in seats)
        case Deal():
            return (Draw(None, step.face_up, tag=step.tag),)
        case DealTag(tag=tag, face_up=face_up):
            return (Draw(None, face_up, tag=tag),)
        case Sit(seat=seat, occupied=occupied):
            return (SeatSensor(seat, occupied),)
        case RakeChips(amount=amount):
            return (RakeZone(amount),)
        case Press(key=key):
            return (key,)
        case MovePuck(seat=seat):
            return (Puck(seat),)
        case _:
            return ()


def demo_registry(base: DeckRegistry) -> DeckRegistry:
    """The embedded registry plus a second blue deck (the house's spare): the demo's source of
    a duplicate card."""
    return DeckRegistry((*base.decks, synthetic_deck(SPARE_DECK, "blue")))
