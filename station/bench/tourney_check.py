"""The check `station bench tournament` holds every balancing decision to, written again from the
rulebooks' words (not the director's code): given the tables as the decision saw them, was a
move needed, did it come from a largest table to a smallest one, was the player moved the one
due the big blind, and the seat the earliest open seat due the big blind. Pure.

001-RR11 §15 r17: table sizes within one player at six tables or fewer, within two above.
001-RR11 §15 r15: the player due for the big blind is selected to move, and given the earliest
seat due for the big blind. (The big blind moves on one player a hand: the player due it next
is the first seated clockwise after the last big blind; an open seat is due it as many hands
away as it is seats clockwise from there.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _clockwise(seats: list[int], after: int | None) -> list[int]:
    if after is None or after not in seats:
        return seats
    i = seats.index(after) + 1
    return seats[i:] + seats[:i]


def check_balance(decision: Mapping[str, Any], move: Mapping[str, Any]) -> list[str]:
    """What is wrong with `move` (from_station, from_seat, to_station, to_seat, player) given
    `decision` (the director's record of the tables it decided on); [] when it is right."""
    tables = {t["table"]: t for t in decision["tables"]}
    wrong: list[str] = []
    sizes = {name: len(t["players"]) for name, t in tables.items()}
    within = 1 if len(tables) <= 6 else 2
    if max(sizes.values()) - min(sizes.values()) <= within:
        wrong.append(f"sizes {sorted(sizes.values())} are within {within}: no move was due")
    src, dst = tables.get(move["from_station"]), tables.get(move["to_station"])
    if src is None or dst is None:
        return [*wrong, "a table of the move was not in play"]
    if sizes[src["table"]] != max(sizes.values()):
        wrong.append(f"{src['table']} ({sizes[src['table']]}) is not a largest table")
    if sizes[dst["table"]] != min(sizes.values()):
        wrong.append(f"{dst['table']} ({sizes[dst['table']]}) is not a smallest table")
    if not src.get("has_button", True):
        return wrong  # stud: moved by position (not this check's rule)
    seated = {int(s) for s in src["players"]}
    ref = src["big_blind"] if src["big_blind"] is not None else src["button"]
    due = next(s for s in _clockwise(list(src["seats"]), ref) if s in seated)
    if move["from_seat"] != due:
        wrong.append(f"moved seat {move['from_seat']}, the big blind is due to seat {due}")
    if move["player"] != src["players"][str(due)]:
        wrong.append(f"moved {move['player']}, not the player at seat {due}")
    taken = {int(s) for s in dst["players"]}
    ref = dst["big_blind"] if dst["big_blind"] is not None else dst["button"]
    earliest = next(s for s in _clockwise(list(dst["seats"]), ref) if s not in taken)
    if move["to_seat"] != earliest:
        wrong.append(f"to seat {move['to_seat']}, the earliest due the big blind is {earliest}")
    return wrong


def check_positions(
    decision: Mapping[str, Any], journaled_bb: Mapping[str, int | None]
) -> list[str]:
    """The decision's big blinds are the stations' own (`journaled_bb`: each table's last
    `table.hand_start` up to the row the decision was folded to)."""
    return [
        f"{t['table']}: big blind {t['big_blind']}, the journal says {journaled_bb[t['table']]}"
        for t in decision["tables"]
        if t["table"] in journaled_bb and journaled_bb[t["table"]] != t["big_blind"]
    ]
