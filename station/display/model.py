"""The screen model: what one screen draws, as plain geometry and text. Pure.

A screen model is a list of boxes, texts and card faces in panel pixels, plus the touch targets.
The renderer only paints it; every decision about what goes where is made before, without pygame,
so tests can check sizes, contrast and hit targets on the model itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from station.display.colour import Colour
from station.display.theme import Style, TextRole


@dataclass(frozen=True, slots=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.right and self.y <= py < self.bottom

    def inside(self, other: Rect) -> bool:
        return (
            other.x <= self.x
            and other.y <= self.y
            and self.right <= other.right
            and self.bottom <= other.bottom
        )

    def overlaps(self, other: Rect) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def inset(self, dx: int, dy: int | None = None) -> Rect:
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))


class Align(StrEnum):
    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class Shape(StrEnum):
    RECT = "rect"
    ROUNDED = "rounded"
    OCTAGON = "octagon"  # STOP
    CHIP = "chip"  # a bet in front of a seat: rounded ends, a chip stack
    DASHED = "dashed"  # an empty seat
    DISC = "disc"  # the dealer button puck
    STADIUM = "stadium"  # an oval table's rail: straight sides, round ends
    ELLIPSE = "ellipse"  # a round table's rail


class Suit(StrEnum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"


@dataclass(frozen=True, slots=True)
class Box:
    rect: Rect
    fill: Colour | None
    outline: Colour | None = None
    width: int = 0  # outline thickness in px
    shape: Shape = Shape.RECT


@dataclass(frozen=True, slots=True)
class Text:
    rect: Rect
    text: str
    role: TextRole
    size: int  # font size in px, from the theme for this panel
    style: Style
    align: Align = Align.LEFT
    key: bool = False  # a glance-critical number (pot, call, raise limits, seat to act)


@dataclass(frozen=True, slots=True)
class CardFace:
    """A public card (board or stud up-card): rank text and a suit drawn as a shape, the suit
    under the rank, or beside it on a `wide` (one-line) card."""

    rect: Rect
    rank: str
    suit: Suit
    size: int
    wide: bool = False
    ink: str = "#000000"  # the suit's colour on the white face (the theme's deck)
    suit_px: int = 0  # the suit's height, at least (a wide card's; a tall card's fills the rest)


Item = Box | Text | CardFace


@dataclass(frozen=True, slots=True)
class Target:
    """A touch/click target: `action` is what the navigation receives when it is hit."""

    rect: Rect
    action: str


@dataclass(frozen=True, slots=True)
class SeatMarks:
    """Where a seat was drawn on the table: its box, the bet in front of it and the dealer
    button puck (None: none drawn). What a test checks a bet or the puck reads as its seat's by."""

    seat: int
    box: Rect
    chip: Rect | None = None
    puck: Rect | None = None


@dataclass(frozen=True, slots=True)
class ScreenModel:
    screen: str
    width: int
    height: int
    background: Colour
    items: tuple[Item, ...]
    targets: tuple[Target, ...] = ()
    clipped: tuple[str, ...] = ()  # texts that had to be shortened to fit (should be none)
    dropped: tuple[str, ...] = ()  # blocks left out for lack of room (should be none)
    seats: tuple[SeatMarks, ...] = ()  # the seats drawn around a table, with their bets

    def texts(self) -> tuple[Text, ...]:
        return tuple(i for i in self.items if isinstance(i, Text))

    def all_text(self) -> str:
        return "\n".join(t.text for t in self.texts())

    def hit(self, x: float, y: float) -> str | None:
        """The action of the topmost target under (x, y), if any."""
        for target in reversed(self.targets):
            if target.rect.contains(x, y):
                return target.action
        return None

    def actions(self) -> tuple[str, ...]:
        return tuple(t.action for t in self.targets)

    def target(self, action: str) -> Target:
        for t in self.targets:
            if t.action == action:
                return t
        raise KeyError(action)
