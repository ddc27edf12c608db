"""Where a card face's rank and suit go, as pure geometry (the renderer paints them there and
the readability tests measure them). Pure.

A card on the screen is read the way a card on the felt is: its rank, then its suit as a shape
(never by colour alone), each at least `CARD_BAR_MM` tall at 80 cm, neither touching the other.
A tall card has its suit under its rank; a `wide` card (a stud up-card, one line) has it beside.
"""

from __future__ import annotations

from station.display.fontmetrics import cap_px
from station.display.model import CardFace, Rect


def margin(cap: int) -> int:
    return max(2, cap // 8)


def gap(cap: int) -> int:
    return max(3, cap // 6)


def tall_height(cap: int, suit: int) -> int:
    """The height of a card whose rank has cap height `cap` over a suit `suit` px tall."""
    return 2 * margin(cap) + cap + gap(cap) + suit


def wide_width(rank_w: int, cap: int, suit: int) -> int:
    """The width of a one-line card: its rank, a gap, its suit."""
    return 2 * margin(cap) + rank_w + gap(cap) + suit


def parts(card: CardFace) -> tuple[Rect, Rect]:
    """The rank's box (its capitals) and the suit's square on `card`."""
    r, cap = card.rect, cap_px(card.size)
    m, g = margin(cap), gap(cap)
    if card.wide:
        top = r.y + (r.h - cap) // 2
        suit = min(r.h - 2 * m, max(cap, card.suit_px))
        rank = Rect(r.x + m, top, max(1, r.w - 2 * m - g - suit), cap)
        return rank, Rect(r.right - m - suit, r.y + (r.h - suit) // 2, suit, suit)
    rank = Rect(r.x + m, r.y + m, r.w - 2 * m, cap)
    room = r.bottom - m - (rank.bottom + g)
    suit = max(0, min(room, r.w - 2 * m))
    return rank, Rect(r.x + (r.w - suit) // 2, r.bottom - m - suit, suit, suit)
