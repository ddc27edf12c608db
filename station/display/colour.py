"""Colours: the Okabe-Ito palette and WCAG 2.x contrast maths. Pure.

The contrast formula is ten lines, so it is written here rather than taken from a dependency
(`wcag-contrast-ratio` on PyPI does the same in 1 kB and has not changed since 2016).
"""

from __future__ import annotations

from enum import StrEnum


class Colour(StrEnum):
    """Every colour the display paints. The eight Okabe-Ito colours plus white."""

    BLACK = "#000000"
    ORANGE = "#E69F00"
    SKY_BLUE = "#56B4E9"
    BLUISH_GREEN = "#009E73"
    YELLOW = "#F0E442"
    BLUE = "#0072B2"
    VERMILLION = "#D55E00"
    REDDISH_PURPLE = "#CC79A7"
    GREY = "#999999"
    WHITE = "#FFFFFF"


OKABE_ITO: frozenset[Colour] = frozenset(Colour) - {Colour.WHITE}


class Ink(StrEnum):
    """The suits' inks on a white card face: the four-colour deck's (spades black, hearts red,
    diamonds blue, clubs green), each at least 7:1 against the face; the suit is a shape too,
    so no suit is told by its colour alone."""

    BLACK = "#000000"  # 21:1
    RED = "#A50021"  # 8.0:1
    BLUE = "#0033B3"  # 9.9:1
    GREEN = "#00662E"  # 7.1:1


def rgb(colour: str) -> tuple[int, int, int]:
    """'#RRGGBB' -> (r, g, b) in 0..255."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a #RRGGBB colour: {colour!r}")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """WCAG 2.x relative luminance, 0 (black) to 1 (white)."""
    r, g, b = rgb(colour)
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.x contrast ratio, 1 to 21, the same whichever colour comes first."""
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
