"""The forced bets of the next hand: which chips posted between hands play, live or dead. Pure.

The table reads the zones between hands into antes (taken in again) and live posts (still in
front: `Posting`). At NEW_HAND the posts are sorted out: a player not dealt in takes his post back
(BLIND-NEW-PLAYER, LOWBALL-BLINDS); a kill (KILL-POTS) and a straddle (BLIND-STRADDLE) declared
with their keys play when the game and the profile allow them; missed blinds made up are split
into the live big blind and dead money (BLIND-MISSED); the smallest chip in the forced bets is
noted (BET-SMALLEST-CHIP).
"""

from __future__ import annotations

from station.engine import chip_race, kill_pots, seating, tournament
from station.engine.decisions import Ruling
from station.engine.events import Zone
from station.engine.positions import button_layout
from station.engine.rule_ids import Rule
from station.engine.table_state import TableState


def refuse_waiting_posts(table: TableState, dealt: list[int], seq: int) -> None:
    """A new player who posted but may not be dealt in yet is told why (BLIND-NEW-PLAYER,
    LOWBALL-BLINDS); his chips stay his own."""
    assert table.setup is not None
    assert table.spec is not None
    bb = table.setup.stakes.bb or 0
    for seat in sorted(table.lineup.newcomers):
        posted = table.posting.posted.get(seat, 0)
        if seat in dealt or posted <= 0:
            continue
        if seating.is_lowball(table.spec) and seat not in table.posting.kill_keys:
            r = seating.lowball_refusal(seat, posted, bb)
            text, rule = r.text, r.rule
        else:
            text = f"SEAT {seat} IS NOT DEALT IN: WAIT UNTIL THE BUTTON PASSES (TAKE BACK {posted})"
            rule = Rule.BLIND_NEW_PLAYER
        table.out.append(table.incident(seq, rule, text, seat=seat))
        table.posting.posted.pop(seat, None)


def kill(table: TableState, dealt: list[int], seq: int) -> tuple[int, int] | None:
    """KILL-POTS: the KILL key and a kill-sized post (2x or 1.5x the big blind) in a limit
    game: the limits of this hand go up with it."""
    assert table.setup is not None
    assert table.spec is not None
    st = table.setup.stakes
    base = kill_pots.unit(table.spec, st)
    keyed = set(table.posting.kill_keys)
    due = table.kills.due
    if due is not None and table.posting.posted.get(due, 0) > 0:
        keyed.add(due)  # a required kill needs no key (KILL-POTS, 001-RR11 §13)
    for seat in sorted(keyed):
        amount = table.posting.posted.get(seat, 0)
        if seat not in dealt:
            continue
        if kill_pots.is_kill(table.spec, st, amount):
            return seat, amount
        table.out.append(
            table.incident(
                seq,
                Rule.KILL_POTS,
                f"SEAT {seat}: A KILL IS {2 * base} (HALF KILL {3 * base // 2}) IN A LIMIT GAME",
                Ruling.CORRECT_BET,
                seat=seat,
            )
        )
    return None


def straddle(
    table: TableState,
    dealt: list[int],
    button: int | None,
    blinds: tuple[int | None, int] | None,
    kill: tuple[int, int] | None,
    seq: int,
) -> int | None:
    """BLIND-STRADDLE: the one straddle declared with the STRADDLE key that the profile
    allows (GN: the button has precedence); a refused straddle is flagged and its chips are
    not part of the hand."""
    assert table.setup is not None
    assert table.spec is not None
    assert table.profile is not None
    if button is None or not table.posting.straddle_keys:
        return None
    layout = button_layout(dealt, button, blinds)
    bb = table.setup.stakes.bb or 0
    chosen: int | None = None
    for seat in sorted(table.posting.straddle_keys, key=lambda s: s != layout.button):
        amount = table.posting.posted.get(seat, 0)
        if seat not in dealt or amount <= 0:
            continue
        why = seating.straddle_refusal(
            seat,
            amount,
            spec=table.spec,
            profile=table.profile,
            layout=layout,
            bb=bb,
            kill=kill is not None,
        )
        if why is None and chosen is not None:
            why = "ONE STRADDLE ONLY"
        if why is None:
            chosen = seat
            continue
        table.out.append(
            table.incident(
                seq,
                Rule.BLIND_STRADDLE,
                f"SEAT {seat}: {why}: TAKE BACK {amount}",
                Ruling.CORRECT_BET,
                seat=seat,
            )
        )
        table.posting.posted.pop(seat, None)  # his chips, not part of the hand
    return chosen


def split_missed_posts(
    table: TableState, dealt: list[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """(live posts, dead money) at the deal. A player making up missed blinds posts them
    all: the big blind is live, the rest is dead (BLIND-MISSED; GN: only the big blind is
    live, D51, which is the same split here)."""
    assert table.setup is not None
    bb = table.setup.stakes.bb or 0
    posts = {s: a for s, a in table.posting.posted.items() if a > 0}
    dead = {s: a for s, a in table.posting.antes.items() if a > 0}
    for seat in dealt:
        if table.lineup.missed.pop(seat, None) and posts.get(seat, 0) > bb:
            dead[seat] = dead.get(seat, 0) + posts[seat] - bb
            posts[seat] = bb
    return posts, dead


def note_min_chip(
    table: TableState, dealt: list[int], button: int | None, blinds: tuple[int | None, int] | None
) -> None:
    """BET-SMALLEST-CHIP (D28): the smallest chip used in the antes and blinds (GN: in the
    big blind), when the zone sensors reported denominations."""
    assert table.profile is not None
    seen = table.posting.post_chips
    table.posting.post_chips = {}
    if table.profile.min_chip_from_big_blind and button is not None:
        bb = button_layout(dealt, button, blinds).big_blind
        seen = {bb: seen[bb]} if bb in seen else {}
    chips = [c for cs in seen.values() for c in cs if c > 0]
    if chips:
        table.posting.min_chip = min(chips)


def zone_between(table: TableState, event: Zone, seq: int) -> None:
    """A zone reading between hands: chips posted for the next hand (a live post), or taken in
    again (an ante); chips at an empty seat are flagged."""
    seat, reading = event.seat, event.amount
    if table.race is not None:
        table.posting.zone[seat] = reading
        table.posting.offset[seat] = reading  # race chips are not a post
        chip_race.zone(table, seat, event.chips, seq)
        return
    absent_player = (
        table.profile is not None
        and table.profile.tournament
        and bool(table.stacks.get(seat))  # TOURN-ABSENT: his stack posts for him
    )
    if seat not in table.occupied and reading > 0 and not absent_player:
        table.out.append(
            table.incident(seq, Rule.STATION_EMPTY_SEAT, f"CHIPS AT EMPTY SEAT {seat}")
        )
    table.posting.zone[seat] = reading
    if event.chips and reading > 0:
        table.posting.post_chips[seat] = event.chips
    base = table.posting.offset.get(seat, 0)
    posted = table.posting.posted.get(seat, 0)
    if reading >= base + posted:
        table.posting.posted[seat] = reading - base
        if reading > base + posted:
            tournament.posted(table, seat, seq)  # the first one fixes the next deal's level
        return
    gone = base + posted - reading
    taken = min(gone, posted)  # chips posted for this hand and taken in: an ante
    if taken:
        table.posting.antes[seat] = table.posting.antes.get(seat, 0) + taken
        table.posting.posted[seat] = posted - taken
    table.posting.offset[seat] = base - (gone - taken)
