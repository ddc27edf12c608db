"""The next hand's line-up: who is dealt in, where the button and blinds fall. Pure.

Between hands the table works out who is dealt in: a seated player with chips; a new player once
he has posted (or when the big blind reaches him: BLIND-NEW-PLAYER); a player back from missing
the blinds once he makes them up or the big blind reaches him (BLIND-MISSED); a player who
changed seats away from the big blind after his wait (BLIND-SEAT-CHANGE). The button follows the
profile's method (BUTTON-METHOD, BUTTON-HEADS-UP). The rule helpers that return plain data live
in `seating`; these functions keep the table's bookkeeping.
"""

from __future__ import annotations

from station.engine import dispatch, seating
from station.engine.decisions import Prompt, PromptCode
from station.engine.events import KeyPress, SeatSensor
from station.engine.games import Family
from station.engine.positions import (
    TABLE_SEATS,
    ButtonLayout,
    button_layout,
    clockwise_after,
    dead_button_next,
    next_seat,
)
from station.engine.profiles import ButtonMethod
from station.engine.rule_ids import Rule
from station.engine.table_state import TableState


def dealt_in(table: TableState, *, commit: bool = True, entitled_only: bool = True) -> list[int]:
    """Seats dealt in: entitled players, plus a waiting player whom the big blind reaches
    (BLIND-NEW-PLAYER, BLIND-MISSED: "wait for the big blind"). `commit` records that a
    waiting player came in; without it this only looks ahead (for the posting prompt).
    While forfeited money of the previous deal is in the pot only the players dealt in on
    that deal are (DECK-FORFEITED-MONEY-ENTITLEMENT; `entitled_only=False` looks past that)."""
    present = set(table.occupied)
    # A player away from his seat who has posted a blind or ante is entitled to a hand
    # (001-RR11 §3 "Misdeals" r1(j): "This player must be present at the table or have posted
    # a blind or ante"); being away then rules his hand (DEAD-ABSENT).
    present |= {s for s, chips in table.posting.posted.items() if chips > 0 and s in table.stacks}
    present |= {s for s, chips in table.posting.antes.items() if chips > 0 and s in table.stacks}
    if table.profile is not None and table.profile.tournament:
        # TOURN-ABSENT: a no-show or absent player is always dealt a hand.
        present |= {s for s, st in table.stacks.items() if st != 0}
    only = table.forfeit.entitled if entitled_only else None
    if only is not None:
        present &= only
    # Every seat judged against the same line-up (the one before this deal): committing one
    # new player first would make him a regular and move the positions the next is judged by.
    dealt = sorted(s for s in present if _entitled(table, s, commit=False))
    if commit:
        table.lineup.newcomers.difference_update(dealt)
    if table.spec is None or table.spec.family is Family.STUD or len(dealt) < 2 or only is not None:
        return dealt
    waiting = sorted(s for s in table.occupied if s not in dealt and table.stacks.get(s, None) != 0)
    moved_in = table.profile is not None and table.profile.tournament
    for seat in waiting:
        trial = sorted({*dealt, seat})
        button, blinds = positions(table, trial)
        if button is None:
            continue
        layout = button_layout(trial, button, blinds)
        # TOURN-NEW-PLAYERS-AT-TABLE (001-RR11 §15 r16): a player moved in is dealt in unless
        # he is in the small blind or button position - judged with the players moved in before
        # him in this deal (one who takes the big blind moves it past the next one)
        placed = (
            moved_in
            and seat in table.lineup.newcomers
            and not seating.between_button_and_big_blind(seat, layout)
        )
        if layout.big_blind == seat or placed:
            if commit:
                table.lineup.newcomers.discard(seat)
                table.lineup.missed.pop(seat, None)
            dealt = trial
    return dealt


def _entitled(table: TableState, seat: int, *, commit: bool = True) -> bool:
    """Dealt in this hand? A seated player with chips; a new player only once he has posted
    a big blind (BLIND-NEW-PLAYER: "post an amount equal to the big blind and be dealt in
    immediately", or wait for the big blind; the profile's variants in `seating`); a player
    who changed seats away from the big blind after his wait or a big-blind post."""
    if table.stacks.get(seat, None) == 0:
        return False
    lineup = table.lineup
    waits = lineup.seat_wait.get(seat)
    if not waits and seat not in lineup.newcomers and not lineup.missed.get(seat):
        return True  # a regular: seated, with chips
    assert table.setup is not None
    assert table.spec is not None
    assert table.profile is not None
    st = table.setup.stakes
    posted = table.posting.posted.get(seat, 0) + table.posting.antes.get(seat, 0)
    if waits:
        return posted >= (st.bb or 0)
    due: int | None = st.bb or st.ante or 0
    if seat in table.lineup.newcomers and table.spec.family is not Family.STUD:
        due = seating.newcomer_due(
            seat,
            spec=table.spec,
            profile=table.profile,
            layout=_regulars_layout(table),
            bb=st.bb or 0,
            sb=st.sb or 0,
            killed=seat in table.posting.kill_keys,
        )
    if due is not None and posted >= due:
        if commit:
            table.lineup.newcomers.discard(seat)
        return True
    return False


def _regulars_layout(table: TableState) -> ButtonLayout | None:
    """The next hand's button and blinds among the players already in the game."""
    regulars = sorted(
        s
        for s in table.occupied
        if table.stacks.get(s, None) != 0
        and s not in table.lineup.newcomers
        and not table.lineup.missed.get(s)
        and not table.lineup.seat_wait.get(s)
    )
    if len(regulars) < 2:
        return None
    button, blinds = positions(table, regulars)
    return button_layout(regulars, button, blinds) if button is not None else None


def positions(
    table: TableState, dealt: list[int]
) -> tuple[int | None, tuple[int | None, int] | None]:
    """(button, fixed blinds) for the next hand of a button game (BUTTON-METHOD)."""
    assert table.spec is not None
    assert table.profile is not None
    if table.spec.family is Family.STUD and not table.spec.dealer_button:
        return None, None
    if not _blinds(table):
        # No blinds (a bomb pot, Mexican stud): the button moves to the next player dealt in.
        button = table.button if table.button is not None else dealt[-1]
        if button not in dealt:
            button = next_seat(dealt, button) or button
        return button, None
    last = table.lineup.last_blinds
    if last is not None and len(dealt) == 2 and table.lineup.last_players >= 3:
        # BUTTON-HEADS-UP (001-RR11 §4 r3, §15 r31): going heads-up, the player who had the big
        # blind most recently gets the button (the last big blind, or when he is gone, the one
        # of the two who had it last).
        had = {s: table.lineup.big_blinds[s] for s in dealt if s in table.lineup.big_blinds}
        if last[1] in dealt:
            return last[1], None
        if had:
            return max(had, key=lambda s: had[s]), None
    if last is not None and table.profile.button_method is ButtonMethod.DEAD and len(dealt) > 2:
        return dead_button_next(dealt, last[0], last[1])
    button = table.button if table.button is not None else dealt[-1]
    moving = table.profile.button_method is ButtonMethod.MOVING
    if button not in dealt and (table.lineup.last_button is not None or moving):
        # Moving button (001-RR11 §4 r2(a), 000-USPA §3.5.2.1.1): "the button always moves
        # forward to the next player". The seat it moved to at the end of the last hand (or
        # the seat the setup gave it) was left before this deal: it goes on to the next player
        # and the blinds follow.
        button = next_seat(dealt, button) or button
    return button, None


def _blinds(table: TableState) -> bool:
    """The game has blinds (a button game whose stakes name a big blind, not a bomb pot)."""
    spec, setup = table.spec, table.setup
    return (
        spec is not None
        and setup is not None
        and spec.family is not Family.STUD
        and not spec.bomb
        and bool(setup.stakes.bb)
    )


def note_missed_blinds(
    table: TableState, dealt: list[int], button: int | None, blinds: tuple[int | None, int] | None
) -> None:
    """BLIND-MISSED: an away player (chips on the table, seat empty) whom a blind passes
    owes it when he comes back."""
    last = table.lineup.last_blinds
    if last is None or button is None:
        return
    layout = button_layout(dealt, button, blinds)
    gone = set(table.stacks) - table.occupied - set(dealt)
    away = [s for s in sorted(gone) if table.stacks[s] != 0]
    for name, before, now in (
        ("sb", last[0], layout.small_blind),
        ("bb", last[1], layout.big_blind),
    ):
        if before is None or now is None:
            continue
        passed = clockwise_after(range(1, TABLE_SEATS + 1), before)
        passed = passed[: passed.index(now)] if now in passed else []
        for seat in away:
            if seat in passed:
                table.lineup.missed.setdefault(seat, set()).add(name)


def prompt_missed(table: TableState, seat: int, seq: int) -> None:
    """BLIND-MISSED: the returning player is told what he owes, or to wait for the big blind."""
    assert table.setup is not None
    st = table.setup.stakes
    owed = (st.bb or 0) + (st.sb or 0 if "sb" in table.lineup.missed[seat] else 0)
    table.out.append(
        Prompt(
            table.hand_no + 1,
            f"SEAT {seat} MISSED THE BLINDS: POST {owed} ({st.bb} LIVE) OR WAIT FOR THE BIG BLIND",
            seq,
            PromptCode.POST,
        )
    )


def seat_change(table: TableState, event: KeyPress, seq: int) -> None:
    """BLIND-SEAT-CHANGE: the player moves with his chips. Moving closer to the big blind is
    free; moving away he waits until the same relative position, or posts the big blind."""
    frm, to = event.seat, event.to_seat
    if frm is None or to is None or frm not in table.stacks or to == frm or to in table.stacks:
        table.out.append(
            table.incident(
                seq,
                Rule.BLIND_SEAT_CHANGE,
                f"SEAT CHANGE {frm} TO {to} NOT POSSIBLE: CHECK THE SEATS",
                seat=frm,
            )
        )
        return
    before = _regulars_layout(table)
    table.stacks[to] = table.stacks.pop(frm)
    if frm in table.lineup.missed:
        table.lineup.missed[to] = table.lineup.missed.pop(frm)
    table.lineup.newcomers.discard(frm)
    table.lineup.newcomers.discard(to)
    table.occupied.discard(frm)
    table.occupied.add(to)
    after = _regulars_layout(table)
    if table.spec is None or table.spec.family is Family.STUD or before is None or after is None:
        return
    wait = seating.hands_to_big_blind(to, after) - seating.hands_to_big_blind(frm, before)
    if wait > 0:
        table.lineup.seat_wait[to] = wait
        table.out.append(
            Prompt(
                table.hand_no + 1,
                f"SEAT {to} (FROM {frm}) WAITS {wait} HAND{'S' if wait > 1 else ''} OR POSTS "
                f"{table.setup.stakes.bb if table.setup else ''}",
                seq,
                PromptCode.POST,
            )
        )


def button_draw_due(table: TableState) -> bool:
    """A tournament button game with no button yet, whose players draw for it (TOURN-BUTTON;
    GN puts it on the first live seat to the dealer's right instead)."""
    spec, prof = table.spec, table.profile
    return (
        table.button is None
        and table.tourney is not None
        and spec is not None
        and spec.family is not Family.STUD
        and prof is not None
        and not prof.tourn_button_dealer_right
    )


def prompt_posts(table: TableState, seq: int) -> None:
    """Tell the dealer the next hand's button and who posts the blinds (button games)."""
    spec, setup = table.spec, table.setup
    if spec is None or setup is None or (spec.family is Family.STUD and not spec.dealer_button):
        return
    movers = dealt_in(table, commit=False)
    if button_draw_due(table) and len(movers) >= 2:
        # TOURN-BUTTON (001-RR11 §15 r8, 000-USPA §3.3.2.22): a tournament table seated by a
        # draw has no button until the players draw for the high card
        first = min(movers)
        table.lineup.posts_prompt = (
            f"DRAW FOR THE BUTTON: ONE CARD FACE UP TO EACH PLAYER FROM SEAT {first}"
        )
        table.out.append(
            Prompt(table.hand_no + 1, table.lineup.posts_prompt, seq, PromptCode.BUTTON)
        )
        return
    if len(movers) < 2 or table.button is None:
        return
    button, blinds = positions(table, movers)
    assert button is not None
    st = setup.stakes
    if not _blinds(table):
        table.lineup.posts_prompt = f"BUTTON SEAT {button}" + (
            f" / ANTE {st.ante} FROM EVERY PLAYER" if st.ante else ""
        )
        table.out.append(Prompt(table.hand_no + 1, table.lineup.posts_prompt, seq, PromptCode.POST))
        return
    layout = button_layout(movers, button, blinds)
    parts = [f"BUTTON SEAT {layout.button}"]
    if st.sb and layout.small_blind is not None:
        parts.append(f"SB SEAT {layout.small_blind} {st.sb}{_away(table, layout.small_blind)}")
    if st.bb and layout.big_blind is not None:
        bb_ante = f" + ANTE {st.bb_ante}" if st.bb_ante else ""
        parts.append(f"BB SEAT {layout.big_blind} {st.bb}{bb_ante}{_away(table, layout.big_blind)}")
    if st.ante and table.tourney is not None:
        parts.append(f"ANTE {st.ante} EACH")
    table.lineup.posts_prompt = " / ".join(parts)
    table.out.append(Prompt(table.hand_no + 1, table.lineup.posts_prompt, seq, PromptCode.POST))


def _away(table: TableState, seat: int) -> str:
    """TOURN-ABSENT: a tournament player away from his seat posts from his stack (the dealer
    puts it out)."""
    if table.tourney is None or seat in table.occupied:
        return ""
    return " (AWAY)"


def seat_sensor(table: TableState, event: SeatSensor, at: float | None, seq: int) -> None:
    """A seat sensor: a player sat down or left. Who posts what changes with who is seated; a
    dealt-in player leaving is the hand's concern (DEAD-ABSENT); one out of chips frees his
    seat; the time he left counts for MISC-ABSENCE."""
    hand = table.hand
    before = set(table.occupied)
    if event.occupied:
        table.occupied.add(event.seat)
        if event.seat not in before and event.seat not in table.stacks:
            table.lineup.newcomers.add(event.seat)
        table.timers.away_since.pop(event.seat, None)
        table.timers.away_flagged.discard(event.seat)
    else:
        table.occupied.discard(event.seat)
        table.lineup.newcomers.discard(event.seat)
        if table.stacks.get(event.seat, None) == 0:
            del table.stacks[event.seat]  # out of chips and gone: the seat is free
        elif at is not None and event.seat in table.stacks:
            table.timers.away_since.setdefault(event.seat, at)
    if hand is not None and hand.result is None and event.seat in hand.seats:
        dispatch.seat_sensor(hand, event.seat, event.occupied, seq)
    if table.occupied != before and (hand is None or hand.result is not None):
        prompt_posts(table, seq)  # who posts what changes with who is seated
        if event.occupied and table.lineup.missed.get(event.seat):
            prompt_missed(table, event.seat, seq)
