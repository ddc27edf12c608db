"""Finished hands as PHH (the open poker hand history format of the PokerKit project): TOML
text written by hand from a `HandRecall`. Pure.

- Player order is PHH order: the first seat after the button is p1, the button is last (stud:
  seat order from the dealer's left). `seats` maps each pN back to the table seat.
- Forced bets come from the engine's ante / blind / straddle actions; hole cards, board cards
  and actions from the draw roles and actions it journaled.
- What PHH cannot express (burns, premature and scrap cards, replacements, other posts) and
  every incident, ruling and floor call become TOML comments in the action list, at the point
  where they happened: `# RULE-ID: text [citation]`.
- Several hands make a PHHS file: each hand is a table named by its hand number.
- A raked hand: PHH has no rake field, so the house's take goes in the user-defined fields the
  format allows (a leading underscore): `_rake` (from the pots) and `_time_collected` (per
  player, when time was collected with the hand); `finishing_stacks` are after the rake.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from station.engine.decisions import Action, ActionKind, DrawRole, HandEnd, Incident, Role
from station.journal.recall import HandRecall, StepKind

VARIANTS: Final = {
    "nlhe": "NT",
    "flhe": "FT",
    "plo": "PO",
    "flo8": "FO/8",
    "stud": "F7S",
    "stud8": "F7S/8",
    "razz": "FR",
    "27sd": "N2L1D",
    "27td": "F2L3D",
    "badugi": "FB",
    "sdhe": "NS",
}
STUD: Final = frozenset({"F7S", "F7S/8", "FR"})
FIXED: Final = frozenset({"FT", "FO/8", "F2L3D", "FB"})
FORCED: Final = frozenset({ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND, ActionKind.STRADDLE})
DEALT: Final = frozenset({Role.HOLE, Role.DOWN, Role.UP, Role.DRAW})


def phh_order(seats: Sequence[int], button: int | None, stud: bool) -> list[int]:
    ordered = sorted(seats)
    if stud or button is None:
        return ordered
    after = [s for s in ordered if s > button]
    return after + [s for s in ordered if s <= button]


def toml_str(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(c if c >= " " and c != "\x7f" else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


def _comment(text: str) -> str:
    return "# " + " ".join(text.split())


def _ints(values: Iterable[int | None]) -> str:
    return "[" + ", ".join("inf" if v is None else str(v) for v in values) + "]"


def exportable(recall: HandRecall) -> bool:
    return recall.finished and recall.game in VARIANTS and bool(recall.seats)


def hand_to_phh(recall: HandRecall) -> str:
    """One finished hand as PHH text. Raise ValueError for a game PHH has no variant for."""
    variant = VARIANTS.get(recall.game)
    if variant is None:
        raise ValueError(f"PHH has no variant for the game {recall.game!r}")
    end = recall.hand_end
    if end is None:
        raise ValueError(f"hand {recall.hand} is not finished")
    order = phh_order(recall.seats, recall.button, variant in STUD)
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    stakes = recall.stakes
    antes = dict.fromkeys(order, 0)
    blinds = dict.fromkeys(order, 0)
    forced = [a for a in recall.actions if a.action in FORCED or a.action is ActionKind.ANTE]
    for a in forced:
        if a.seat in antes and a.action is ActionKind.ANTE:
            antes[a.seat] = a.amount
        elif a.seat in blinds:
            blinds[a.seat] = a.amount
    if not forced:  # no forced-bet actions journaled: the zones before NEW_HAND tell
        blinds.update({s: v for s, v in recall.posts.items() if s in blinds})
        antes.update({s: v for s, v in recall.antes.items() if s in antes})
    lines = [f"variant = {toml_str(variant)}", f"antes = {_ints(antes[s] for s in order)}"]
    if variant in STUD:
        lines.append(f"bring_in = {stakes.get('bring_in', 0)}")
    else:
        lines.append(f"blinds_or_straddles = {_ints(blinds[s] for s in order)}")
    if variant in STUD or variant in FIXED:
        small = stakes.get("small_bet", stakes.get("bb", 0))
        lines += [f"small_bet = {small}", f"big_bet = {stakes.get('big_bet', 2 * small)}"]
    else:
        lines.append(f"min_bet = {stakes.get('bb', stakes.get('ante', 0))}")
    lines.append(f"starting_stacks = {_ints(recall.starting_stacks.get(s) for s in order)}")
    lines.append("actions = [")
    lines += [f"  {a}" for a in _actions(recall, player, end)]
    lines.append("]")
    finishing = [end.stacks.get(s) for s in order]
    if all(v is not None for v in finishing):
        lines.append(f"finishing_stacks = {_ints(finishing)}")
    if end.rake is not None:  # PHH has no rake field: user-defined (leading "_") fields
        lines.append(f"_rake = {end.rake.total}")
        if end.rake.time:
            lines.append(f"_time_collected = {_ints(end.rake.time.get(s, 0) for s in order)}")
    lines += [
        f"hand = {recall.hand}",
        f"seats = {_ints(order)}",
        f"players = [{', '.join(toml_str(f'seat {s}') for s in order)}]",
    ]
    return "\n".join(lines) + "\n"


def _actions(recall: HandRecall, player: Mapping[int, str], end: HandEnd) -> list[str]:
    """The action list. Cards dealt together (a round of hole cards, a flop) stay one PHH action;
    a comment that comes up while they are being dealt follows them."""
    out: list[str] = []
    dealt: dict[int, list[str]] = {}
    board: list[str] = []
    hole: dict[int, list[str]] = {}
    comments: list[str] = []

    def flush() -> None:
        for seat in player:
            if dealt.get(seat):
                out.append(toml_str(f"d dh {player[seat]} {''.join(dealt[seat])}") + ",")
        dealt.clear()
        if board:
            out.append(toml_str(f"d db {''.join(board)}") + ",")
            board.clear()
        out.extend(comments)
        comments.clear()

    def comment(text: str) -> None:
        if dealt or board:
            comments.append(_comment(text))
        else:
            out.append(_comment(text))

    for step in recall.steps:
        d = step.decision
        if isinstance(d, DrawRole):
            if d.role in DEALT and d.seat is not None and d.seat in player:
                if board:
                    flush()
                dealt.setdefault(d.seat, []).append(d.card)
                hole.setdefault(d.seat, []).append(d.card)
            elif d.role is Role.BOARD:
                if dealt:
                    flush()
                board.append(d.card)
            else:
                where = f" (s{d.seat})" if d.seat is not None else ""
                comment(f"{d.role.value} card {d.card}{where}")
        elif isinstance(d, Incident):
            cite = f" [{d.citation}]" if d.citation else ""
            comment(f"{d.rule}: {d.text}{cite} (ruling {d.ruling.value})")
        elif isinstance(d, Action):
            flush()
            text = _action(d, player, hole, end, recall)
            if text is not None:
                out.append(text)
        elif step.kind in (StepKind.STATION, StepKind.FAULT):
            comment(step.text)
    flush()
    return out


def _action(
    a: Action,
    player: Mapping[int, str],
    hole: Mapping[int, list[str]],
    end: HandEnd,
    recall: HandRecall,
) -> str | None:
    p = player.get(a.seat)
    if p is None:
        return _comment(f"s{a.seat} {a.action.value} {a.amount} (seat not dealt in)")
    kind = a.action
    if kind in FORCED or kind is ActionKind.ANTE:
        return None  # in the antes / blinds_or_straddles fields
    if kind is ActionKind.POST:
        return _comment(f"s{a.seat} posts {a.amount}")
    simple = {
        ActionKind.FOLD: f"{p} f",
        ActionKind.CHECK: f"{p} cc",
        ActionKind.CALL: f"{p} cc",
        ActionKind.BRING_IN: f"{p} pb",
        ActionKind.MUCK: f"{p} sm",
    }
    if kind in simple:
        return toml_str(simple[kind]) + ","
    if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
        return toml_str(f"{p} cbr {a.amount}") + ","
    if kind is ActionKind.SHOW:
        cards = end.shown.get(a.seat) or tuple(hole.get(a.seat, ()))
        return toml_str(f"{p} sm {''.join(cards)}".rstrip()) + ","
    # ActionKind.DRAW: stood pat, or exchanged `amount` cards
    discards = recall.discards.get(a.event, ())
    if a.amount == 0:
        return toml_str(f"{p} sd") + ","
    return toml_str(f"{p} sd {''.join(discards) or '??' * a.amount}") + ","


def phh_document(recalls: Iterable[HandRecall]) -> tuple[str, list[str]]:
    """(PHHS text with one table per exportable hand, notes about hands left out)."""
    parts: list[str] = []
    skipped: list[str] = []
    for recall in recalls:
        if not recall.finished:
            continue
        if recall.game not in VARIANTS:
            skipped.append(f"hand {recall.hand}: PHH has no variant for {recall.game!r}")
            continue
        if not recall.seats:
            skipped.append(f"hand {recall.hand}: nobody was dealt in")
            continue
        parts.append(f"[{recall.hand}]\n{hand_to_phh(recall)}")
    return "\n".join(parts), skipped
