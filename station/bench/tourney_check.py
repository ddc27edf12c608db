"""The checks `station bench tournament` holds every balancing decision and the finishing order
to, written again from the rulebooks' words (not the director's code): given the tables as the
decision saw them, was a move needed, did it come from a largest table to a smallest one, was the
player moved the one due the big blind, and the seat the earliest open seat due the big blind;
is every player out placed as the rule places him. Pure.

001-RR11 §15 r17: table sizes within one player at six tables or fewer, within two above.
001-RR11 §15 r15: the player due for the big blind is selected to move, and given the earliest
seat due for the big blind. (The big blind moves on one player a hand: the player due it next
is the first seated clockwise after the last big blind; an open seat is due it as many hands
away as it is seats clockwise from there.)
001-RR11 §15 r35: players out during the same hand: the one who started it with more chips
finishes higher; equal chips tie. Each player out takes the lowest places still open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def check_places(
    entrants: int,
    outs: Sequence[Mapping[str, Any]],
    places: Mapping[str, tuple[int, int]],
) -> list[str]:
    """The finishing order against the stations' journaled eliminations. `outs`: one per player
    out, in the order their stations journaled them (`player`, `table`, `hand`, `round` - the
    hand-for-hand round or None - and `start_stack`); `places`: each player's (place, last
    place of a tie) as the centre keeps it. The players out on one hand (in a hand-for-hand
    round: on that round's hands) take the lowest places still open, together; among them, at
    one table, more chips at the start of the hand finish higher and equal chips tie. (Across
    tables in a hand-for-hand round the rulebooks differ - tied, or by chips - so only the
    block of places is checked there.)"""
    wrong: list[str] = []
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for o in outs:
        key = ("round", o["round"]) if o["round"] is not None else ("hand", o["table"], o["hand"])
        groups.setdefault(key, []).append(o)
    left = entrants
    for key, members in groups.items():
        block = (left - len(members) + 1, left)
        left -= len(members)
        for o in members:
            got = places.get(str(o["player"]))
            if got is None:
                wrong.append(f"{o['player']} out at {o['table']} hand {o['hand']} has no place")
            elif not block[0] <= got[0] <= got[1] <= block[1]:
                wrong.append(f"{o['player']} placed {got}, the places open were {block} ({key})")
        for a in members:
            for b in members:
                pa, pb = places.get(str(a["player"])), places.get(str(b["player"]))
                if pa is None or pb is None or a["table"] != b["table"] or a is b:
                    continue
                if a["start_stack"] > b["start_stack"] and not pa[1] < pb[0]:
                    wrong.append(
                        f"{a['player']} started hand {a['hand']} with {a['start_stack']},"
                        f" {b['player']} with {b['start_stack']}: placed {pa} and {pb}"
                    )
                if a["start_stack"] == b["start_stack"] and pa != pb:
                    wrong.append(f"{a['player']} and {b['player']} started with equal chips:"
                                 f" placed {pa} and {pb}, not tied")  # fmt: skip
    named = {str(o["player"]) for o in outs}
    wrong += [f"{p} has a place {places[p]} but no station put him out" for p in places
              if p not in named]  # fmt: skip
    return wrong
