"""Kill pots: the kill's size in every limit game, and the required kill of a kill game. Pure.

KILL-POTS (001-RR11 §13, 004-GN §VIII "Kill Pots" r188-r202): "To kill a pot means to post an
overblind that increases the betting limit. A full kill is double the amount of the big blind, and
doubles the betting limits. A half kill is one-and-a-half times the big blind". A kill raises the
limits, so it is a limit-game rule; the rulebooks name it for the button games (hold'em, Omaha,
lowball: 001-RR11 §7, §11) and for stud ("If there is a kill in a stud game, there will be no bring
in and action starts left of the kill", 004-GN r189). Stud has no big blind: the kill is counted
on its small bet (twice it, or one and a half times), house practice.

A setup with `"kill": "full"` (or `"half"`) is a required-kill game. The kill button marks the
winner of the last pot (a "leg up"); "a player who wins two consecutive pots must kill the next
pot", the second leg only if it wins "at least one full bet ... not any part of the blind
structure" (§13 r3); in high-low split games "a player who scoops a pot bigger than a set size
must kill the next pot", the size five times the upper limit (r8; 004-GN r194). "If a player with
one leg up splits the next pot, that player still has a leg up"; the button is neutral when the
pot was split and neither had it, or its holder quit (r1, r4); "If a player with a required kill
wins again, then that player must kill it again" (r7). The station works this out after each pot
and names the killer and his kill in the posting prompt; at the deal a kill not posted is flagged.
"""

from __future__ import annotations

from station.engine.decisions import HandEnd, Prompt, PromptCode, Ruling
from station.engine.events import Stakes
from station.engine.games import Family, GameSpec, Structure
from station.engine.rule_ids import Rule
from station.engine.table_state import TableState


def unit(spec: GameSpec, st: Stakes) -> int:
    """What a kill is counted on: the big blind (stud: the small bet)."""
    if spec.family is Family.STUD:
        return st.small_bet or 0
    return st.bb or st.small_bet or 0


def is_kill(spec: GameSpec, st: Stakes, posted: int) -> bool:
    """A full kill (twice the unit) or a half kill (one and a half times)."""
    base = unit(spec, st)
    return (
        spec.structure is Structure.FIXED_LIMIT and base > 0 and posted in (2 * base, 3 * base // 2)
    )


def kill_size(table: TableState) -> int:
    """The required kill of this table's kill game."""
    assert table.setup is not None
    assert table.spec is not None
    base = unit(table.spec, table.setup.stakes)
    return 3 * base // 2 if table.setup.kill == "half" else 2 * base


def after_pot(table: TableState, end: HandEnd, killer: int | None, blinds: int, seq: int) -> None:
    """A pot was pushed in a required-kill game: move the kill button, and name the next kill."""
    setup, spec = table.setup, table.spec
    if setup is None or spec is None or setup.kill is None or end.void or not end.pots:
        return
    book = table.kills
    main = end.pots[0]
    winners = [s for s, won in main.won.items() if won > 0]
    book.due = None
    st = setup.stakes
    if len(winners) != 1:
        # r4: a split keeps the holder's leg (and a killer kills again); otherwise neutral.
        if book.holder not in winners:
            book.holder = None
        elif killer == book.holder:
            book.due = book.holder
        return
    (winner,) = winners
    total = sum(p.amount for p in end.pots)
    if spec.hi_lo:
        scooped = all(set(p.won) <= {winner} for p in end.pots)
        if scooped and total >= 5 * (st.big_bet or 0):
            book.due = winner  # r8: a scoop of five times the upper limit
        book.holder = winner
    else:
        won = main.won.get(winner, 0) - blinds
        if book.holder == winner and (killer == winner or won >= (st.small_bet or st.bb or 0)):
            book.due = winner  # the second leg (r3), or the killer won again (r7)
        book.holder = winner
    if book.due is not None:
        amount = kill_size(table)
        table.out.append(
            Prompt(
                table.hand_no + 1,
                f"KILL POT: SEAT {book.due} MUST KILL THE NEXT POT FOR {amount} (KEY KILL)",
                seq,
                PromptCode.POST,
            )
        )


def check_posted(
    table: TableState, dealt: list[int], kill: tuple[int, int] | None, seq: int
) -> None:
    """At the deal: the required killer must have posted his kill (001-RR11 §13 r6)."""
    book = table.kills
    if table.setup is None or table.setup.kill is None or book.due is None:
        return
    due = book.due
    if kill is not None and kill[0] == due:
        return
    if due not in dealt:
        return
    table.out.append(
        table.incident(
            seq,
            Rule.KILL_POTS,
            f"SEAT {due} MUST KILL THIS POT FOR {kill_size(table)}: A REQUIRED KILL IS POSTED "
            "THE SAME HAND",
            Ruling.CORRECT_BET,
            seat=due,
        )
    )
