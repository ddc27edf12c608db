"""The display theme: text roles with their cap heights, colour pairs, outlines. Pure.

Sizes are specified as cap heights in millimetres at the design distance of 80 cm (standards-ux
requirement 24), never as pixels: `Theme.font_px` turns them into a font size for a given panel
using the measured cap heights of the font we render with. Every text colour pair is chosen from
the Okabe-Ito palette (plus white) so that it reaches 7:1 (requirement 25); colours that cannot
carry text at 7:1 (blue, vermillion, bluish green, reddish purple) are used only for outlines,
which need 3:1 against the background.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType

from station.display.colour import Colour, Ink
from station.display.fontmetrics import FONT_FILE, cap_px, size_for_cap
from station.display.panel import PanelConfig

# The bars, in mm of cap height at 80 cm (scaled with the viewing distance).
KEY_BAR_MM = 7.0  # pot, amount to call, raise limits, seat to act (30 arcmin)
TEXT_BAR_MM = 4.7  # all other text (20 arcmin)
TEXT_CONTRAST_BAR = 7.0
BOUNDARY_CONTRAST_BAR = 3.0
TOUCH_TARGET_MM = 9.0
TOUCH_GAP_MM = 2.0


class TextRole(StrEnum):
    KEY = "key"  # glance-critical numbers
    TEXT = "text"  # everything else
    HEAD = "head"  # banner headlines: STOP, CALL FLOOR


@dataclass(frozen=True, slots=True)
class RoleSpec:
    design_cap_mm: float  # what the theme aims for (a little above the bar, for rounding)


class Style(StrEnum):
    """A text colour pair. The name says what it means; the text always says it too."""

    BASE = "base"  # ordinary text
    DIM = "dim"  # folded, empty, done: present but not in play
    NOW = "now"  # what must happen now: the seat to act, the current recovery step
    ALERT = "alert"  # STOP, incidents, CALL FLOOR, a link down
    INFO = "info"  # all-in, selected rows, headings of lists
    CARD = "card"  # a playing card face


@dataclass(frozen=True, slots=True)
class StylePair:
    fg: Colour
    bg: Colour


class Edge(StrEnum):
    """Outline meanings; each also comes with a word on screen."""

    PLAIN = "plain"
    TO_ACT = "to_act"
    ALLIN = "allin"
    STOP = "stop"
    FLOOR = "floor"
    BUTTON = "button"
    EMPTY = "empty"
    OK = "ok"
    FAULT = "fault"


def _roles() -> Mapping[TextRole, RoleSpec]:
    return MappingProxyType(
        {
            TextRole.KEY: RoleSpec(7.05),
            TextRole.TEXT: RoleSpec(4.75),
            TextRole.HEAD: RoleSpec(8.5),
        }
    )


def _styles() -> Mapping[Style, StylePair]:
    return MappingProxyType(
        {
            Style.BASE: StylePair(Colour.WHITE, Colour.BLACK),
            Style.DIM: StylePair(Colour.GREY, Colour.BLACK),
            Style.NOW: StylePair(Colour.BLACK, Colour.YELLOW),
            Style.ALERT: StylePair(Colour.BLACK, Colour.ORANGE),
            Style.INFO: StylePair(Colour.BLACK, Colour.SKY_BLUE),
            Style.CARD: StylePair(Colour.BLACK, Colour.WHITE),
        }
    )


def _edges() -> Mapping[Edge, Colour]:
    return MappingProxyType(
        {
            Edge.PLAIN: Colour.WHITE,
            Edge.TO_ACT: Colour.YELLOW,
            Edge.ALLIN: Colour.SKY_BLUE,
            Edge.STOP: Colour.VERMILLION,
            Edge.FLOOR: Colour.REDDISH_PURPLE,
            Edge.BUTTON: Colour.SKY_BLUE,
            Edge.EMPTY: Colour.GREY,
            Edge.OK: Colour.BLUISH_GREEN,
            Edge.FAULT: Colour.VERMILLION,
        }
    )


class Deck(StrEnum):
    """How the suits are coloured on the screen's cards (`[display] deck`)."""

    FOUR_COLOUR = "four-colour"  # spades black, hearts red, diamonds blue, clubs green
    TWO_COLOUR = "two-colour"  # hearts and diamonds red, spades and clubs black


SUIT_INKS: Mapping[Deck, Mapping[str, Ink]] = MappingProxyType(
    {
        Deck.FOUR_COLOUR: MappingProxyType(
            {"s": Ink.BLACK, "h": Ink.RED, "d": Ink.BLUE, "c": Ink.GREEN}
        ),
        Deck.TWO_COLOUR: MappingProxyType(
            {"s": Ink.BLACK, "h": Ink.RED, "d": Ink.RED, "c": Ink.BLACK}
        ),
    }
)
CARD_BAR_MM = 5.0  # a card's rank and suit, each at least this tall at 80 cm


@dataclass(frozen=True)
class Theme:
    roles: Mapping[TextRole, RoleSpec] = field(default_factory=_roles)
    styles: Mapping[Style, StylePair] = field(default_factory=_styles)
    edges: Mapping[Edge, Colour] = field(default_factory=_edges)
    background: Colour = Colour.BLACK
    font_file: str = FONT_FILE
    line_factor: float = 1.35  # row pitch as a multiple of the cap height (the texts are capitals)
    touch_target_mm: float = TOUCH_TARGET_MM + 1.0  # design size; the bar is 9 mm
    touch_gap_mm: float = TOUCH_GAP_MM + 0.5
    deck: Deck = Deck.FOUR_COLOUR

    def __hash__(self) -> int:  # a layout cache's key: equal themes lay a screen out alike
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((frozenset(self.roles.items()), frozenset(self.styles.items()),
                     frozenset(self.edges.items()), self.background, self.font_file,
                     self.line_factor, self.touch_target_mm, self.touch_gap_mm,
                     self.deck))  # fmt: skip

    def suit_ink(self, suit: str) -> Ink:
        """The ink of a suit ("s", "h", "d", "c") on this theme's deck."""
        return SUIT_INKS[self.deck][suit]

    def font_px(self, role: TextRole, panel: PanelConfig) -> int:
        """The font size that gives `role` its design cap height on `panel`."""
        cap_mm = panel.scaled_mm(self.roles[role].design_cap_mm)
        return size_for_cap(cap_mm / panel.pitch_y_mm)

    def cap_mm(self, role: TextRole, panel: PanelConfig) -> float:
        """The cap height `role` gets on `panel`, from the font's measured glyphs."""
        return cap_px(self.font_px(role, panel)) * panel.pitch_y_mm

    def row_px(self, role: TextRole, panel: PanelConfig) -> int:
        """Row pitch for a line of `role` text."""
        return round(cap_px(self.font_px(role, panel)) * self.line_factor)

    def pair(self, style: Style) -> StylePair:
        return self.styles[style]


DEFAULT_THEME = Theme()
