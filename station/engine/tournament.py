"""Tournament play at the table: the level in force and the deal it applies to, forced bets
checked at it, breaks and colour-ups, players moved between tables. Pure.

TOURN-LEVELS: "Limits and blinds are raised at regularly scheduled intervals. If there is a
signal designating the end of a betting level, the new limits apply on the next deal. (A deal
begins with the first riffle of the shuffle.)" (001-RR11 §15 r9-r10; 002-RRPG §15 r6-r7;
000-USPA §3.3.2.7-8). The shuffle is not observed. The station takes the start of the next deal
to be the first thing the table does for it that the station sees: the first forced bet put
out for it (a zone rising between hands), or NEW_HAND when no forced bet comes first. The level
in force at that moment is the deal's level, fixed until the hand is over (a misdeal's redeal
is the same deal). Until then a level that ends makes the next deal's prompt name the new
blinds at once; from then on it waits for the deal after. A post made for the old level after
the change is a wrong blind, said to the dealer at NEW_HAND (docs/tournaments.md says why).

The level in force follows from the structure and the events' times (`levels.reading`), and
from `clock` inputs (the event's clock, journaled): the engine reads no clock. A hand in play
keeps its level; the table is told of a new level when the hand is over (the prompt of the next
hand's posts names its blinds), and between hands as soon as an event shows it.

A break is a level with no deal (a NEW_HAND during one is flagged, and the hand plays at the
next level); a break's colour-up prompts the chip race (TOURN-CHIP-RACE, `chip_race`), and a
deal after the break without the race is flagged.

Players moved between tables (the centre's balancing and table breaking, confirmed by the seat
sensors): MOVE_OUT s takes the seat's player and his chips off the table; MOVE_IN s amount
seats a player with his chips as a new player at this table, dealt in as the profile says
(TOURN-NEW-PLAYERS-AT-TABLE, `seating.newcomer_due`).
"""

from __future__ import annotations

from dataclasses import replace

from station.engine import lineup
from station.engine.decisions import Prompt, PromptCode, Ruling
from station.engine.events import ClockSet, Key, KeyPress, Stakes
from station.engine.games import Family, game_spec
from station.engine.hand import Hand
from station.engine.levels import (
    AnteType,
    ClockState,
    Level,
    Reading,
    ScheduleError,
    clock_text,
    complete_levels,
    ends_at,
    initial_state,
    level_label,
    playing_index,
    reading,
    stakes_text,
)
from station.engine.positions import button_layout
from station.engine.rule_ids import Rule
from station.engine.snapshot import TournamentView
from station.engine.table_state import TableState, Tourney


def level_stakes(level: Level) -> Stakes:
    """The stakes a level sets; a big-blind ante is the big blind's `bb_ante`."""
    bb_ante = level.ante_type is AnteType.BB
    return Stakes(
        sb=level.sb,
        bb=level.bb,
        ante=None if bb_ante else level.ante,
        bring_in=level.bring_in,
        small_bet=level.small_bet,
        big_bet=level.big_bet,
        bb_ante=level.ante if bb_ante else None,
    )


# --- the clock ----------------------------------------------------------------------------------


def setup(table: TableState, at: float | None, seq: int) -> None:
    """A setup line: its structure (if any) starts the table's clock where it says."""
    assert table.setup is not None
    schedule = table.setup.tournament
    if schedule is None:
        table.tourney = None
        return
    now = at if at is not None else (table.tourney.now if table.tourney is not None else None)
    table.tourney = Tourney(
        schedule=schedule,
        levels=schedule.levels,
        clock=initial_state(schedule),
        game=table.setup.game,
        now=now,
    )
    _refresh(table, seq)
    _starting_button(table, seq)


def _starting_button(table: TableState, seq: int) -> None:
    """TOURN-BUTTON: a tournament's first button. RR/USPA: the players draw for the high card
    (001-RR11 §15 r8, 000-USPA §3.3.2.22: `dealer_button.draw_for_button`). GN: "In tournament
    play, the Dealer Button will begin in the first live seat to the right of the Dealer"
    (004-GN glossary, DEALER BUTTON): seat 1 is on the dealer's left, so the highest seat in
    play."""
    prof = table.profile
    if prof is None or not prof.tourn_button_dealer_right or table.button is not None:
        return
    if table.spec is None or table.spec.family is Family.STUD:
        return
    live = [s for s, st in table.stacks.items() if st != 0]
    if not live:
        return
    table.button = max(live)
    table.out.append(
        Prompt(
            table.hand_no + 1,
            f"BUTTON STARTS AT SEAT {table.button}: THE FIRST LIVE SEAT TO THE DEALER'S RIGHT",
            seq,
            PromptCode.BUTTON,
        )
    )


def tick(table: TableState, at: float, seq: int) -> None:
    """An event carried the time `at`: a level may have ended."""
    t = table.tourney
    if t is None:
        return
    t.now = at
    if _refresh(table, seq):
        lineup.prompt_posts(table, seq)


def clock_set(table: TableState, event: ClockSet, seq: int) -> None:
    """A `clock` input: the event's clock stands at `level` with `remaining_s` left (and, when
    the structure changed, with these levels) from this event's time on."""
    t = table.tourney
    if t is None:
        table.out.append(
            table.incident(
                seq, Rule.STATION_UNEXPECTED_KEY, "CLOCK: THIS TABLE HAS NO TOURNAMENT STRUCTURE"
            )
        )
        return
    if event.event is not None and t.schedule.event not in (None, event.event):
        table.out.append(
            table.incident(
                seq,
                Rule.STATION_UNEXPECTED_KEY,
                f"CLOCK FOR EVENT {event.event}: THIS TABLE PLAYS {t.schedule.event}",
            )
        )
        return
    levels = t.levels
    if event.levels is not None:
        try:
            levels = complete_levels(event.levels, t.game)
        except ScheduleError as exc:
            table.out.append(
                table.incident(seq, Rule.STATION_UNEXPECTED_KEY, f"CLOCK: {exc}".upper())
            )
            return
    if not 1 <= event.level <= len(levels):
        table.out.append(
            table.incident(
                seq,
                Rule.STATION_UNEXPECTED_KEY,
                f"CLOCK: NO LEVEL {event.level} IN THE STRUCTURE ({len(levels)} LEVELS)",
            )
        )
        return
    at = t.now if t.now is not None else 0.0
    t.levels = levels
    t.clock = ClockState(at, event.level - 1, event.remaining_s, event.paused)
    if levels != t.schedule.levels:
        t.applied = -1  # the stakes of the next deal are looked up again
    if _refresh(table, seq):
        lineup.prompt_posts(table, seq)


def now(table: TableState) -> Reading | None:
    """Where the clock stands at the latest event time."""
    t = table.tourney
    return None if t is None else reading(t.levels, t.clock, t.now)


def _in_play(table: TableState) -> bool:
    return table.hand is not None and table.hand.result is None


def _refresh(table: TableState, seq: int) -> bool:
    """Between hands: tell the table of a level it has not been told of, and give the next
    deal the level now in force unless a forced bet for it is in. True when the next deal's
    stakes changed (its posting prompt is due again)."""
    t = table.tourney
    if t is None or table.setup is None or _in_play(table):
        return False
    r = reading(t.levels, t.clock, t.now)
    target = playing_index(t.levels, r.index)
    if r.index != t.told:
        _announce(table, t, r, target, seq)
        t.told = r.index
    if t.locked or target == t.applied:
        return False
    if t.applied >= 0 and t.told == r.index and not t.levels[r.index].is_break:
        # Told while a deal was under way at the old level: the table hears it again now that
        # it applies.
        text = f"{level_label(t.levels, target)}: {stakes_text(t.levels[target], t.game)}"
        if not _said_last(table, text):
            table.out.append(Prompt(table.hand_no + 1, text, seq, PromptCode.INFO))
    _apply(table, t, target)
    return True


def _said_last(table: TableState, text: str) -> bool:
    return any(isinstance(d, Prompt) and d.text == text for d in table.out)


def _announce(table: TableState, t: Tourney, r: Reading, target: int, seq: int) -> None:
    level = t.levels[r.index]
    nxt = table.hand_no + 1
    if level.is_break:
        after = t.levels[target]
        table.out.append(
            Prompt(
                nxt,
                f"BREAK {clock_text(r.remaining_s)}: NO DEAL UNTIL "
                f"{level_label(t.levels, target)} ({stakes_text(after, t.game)})",
                seq,
                PromptCode.INFO,
            )
        )
        if (
            level.colour_up is not None
            and level.colour_up_to is not None
            and r.index not in t.raced
        ):
            t.colour_up = (level.colour_up, level.colour_up_to)
            table.out.append(
                Prompt(
                    nxt,
                    f"COLOUR UP: THE {level.colour_up} CHIPS LEAVE PLAY: RACE THEM OFF FOR "
                    f"{level.colour_up_to} CHIPS (CHIP RACE {level.colour_up_to})",
                    seq,
                    PromptCode.INFO,
                )
            )
        return
    text = f"{level_label(t.levels, target)}: {stakes_text(t.levels[target], t.game)}"
    if t.locked and target != t.applied:
        old = stakes_text(t.levels[t.applied], t.game) if t.applied >= 0 else ""
        text += f" FROM THE NEXT DEAL (THIS DEAL IS UNDER WAY AT {old})"
    table.out.append(Prompt(nxt, text, seq, PromptCode.INFO))


def _apply(table: TableState, t: Tourney, index: int) -> None:
    """The next deal plays level `index`: the table takes its stakes (and its game)."""
    assert table.setup is not None
    level = t.levels[index]
    game = level.game or t.game
    stakes = level_stakes(level)
    if table.setup.stakes != stakes or table.setup.game != game:
        table.setup = replace(table.setup, stakes=stakes, game=game)
    if table.spec is None or table.spec.name != game:
        table.spec = game_spec(game)
    t.applied = index


def posted(table: TableState, seat: int, seq: int) -> None:
    """A forced bet for the next deal went in: the deal has begun for the station, and its
    level is the one the table holds now. A blind at the level before it is said at once, so
    the dealer can have it corrected before the deal."""
    t = table.tourney
    if t is None or _in_play(table) or table.setup is None or table.spec is None:
        return
    t.locked = True
    before = _previous(t)
    if before is None:
        return
    dealt = lineup.dealt_in(table, commit=False)
    if len(dealt) < 2 or table.spec.family is Family.STUD:
        return
    button, blinds = lineup.positions(table, dealt)
    if button is None:
        return
    layout = button_layout(dealt, button, blinds)
    st = table.setup.stakes
    put = table.posting.posted.get(seat, 0)
    for due_seat, what, due, old in (
        (layout.small_blind, "SMALL BLIND", st.sb, before.sb),
        (layout.big_blind, "BIG BLIND", st.bb, before.bb),
    ):
        if seat == due_seat and due and old and put == old != due:
            table.out.append(
                Prompt(
                    table.hand_no + 1,
                    f"SEAT {seat}: THE {what} IS {due} NOW ({level_label(t.levels, t.applied)}), "
                    f"NOT {old}",
                    seq,
                    PromptCode.POST,
                )
            )


# --- the deal -----------------------------------------------------------------------------------


def before_deal(table: TableState, seq: int) -> None:
    """NEW_HAND: the deal's level is the one in force now, unless a forced bet fixed it."""
    if _refresh(table, seq):
        lineup.prompt_posts(table, seq)


def dealt(table: TableState, hand: Hand, seq: int) -> None:
    """The hand is dealt: a deal during a break, a colour-up not raced, forced bets not of the
    deal's level (a wrong blind the dealer is told about) are flagged."""
    t = table.tourney
    if t is None:
        return
    r = reading(t.levels, t.clock, t.now)
    if t.levels[r.index].is_break:
        table.out.append(
            table.incident(
                seq,
                Rule.TOURN_LEVELS,
                f"DEALT DURING THE BREAK ({clock_text(r.remaining_s)} LEFT): THIS HAND IS AT "
                f"{level_label(t.levels, t.applied)} ({stakes_text(t.levels[t.applied], t.game)})",
            )
        )
    if t.colour_up is not None and not t.levels[r.index].is_break:
        chip, new = t.colour_up
        t.colour_up = None
        table.out.append(
            table.incident(
                seq,
                Rule.TOURN_CHIP_RACE,
                f"THE {chip} CHIPS WERE NOT RACED OFF AT THE BREAK: CHIP RACE {new} BEFORE THE "
                "NEXT DEAL",
            )
        )
    t.hand_level = t.applied
    t.locked = False
    _check_posts(table, t, hand, seq)


def _check_posts(table: TableState, t: Tourney, hand: Hand, seq: int) -> None:
    """Each forced bet against the deal's level. A post short of it is right only when it is
    all the player has (001-RR11 §15 r19: "the player is entitled to get action on whatever
    amount of money is left in his stack"); the big blind's ante comes after his blind
    (the big-blind-first calculation)."""
    st = hand.terms.stakes
    before = _previous(t)
    label = level_label(t.levels, t.applied)
    layout = hand.layout
    checks: list[tuple[int, str, int, int | None, int]] = []  # seat, what, due, old, put
    if layout is not None:
        for seat, what, due, old in (
            (layout.small_blind, "SMALL BLIND", st.sb, before.sb if before else None),
            (layout.big_blind, "BIG BLIND", st.bb, before.bb if before else None),
        ):
            if seat is not None and due and seat in hand.chips.posts:
                checks.append((seat, what, due, old, hand.chips.posts[seat]))
    if st.ante:
        old_ante = (
            before.ante if before is not None and before.ante_type is AnteType.PLAYER else None
        )
        checks += [(s, "ANTE", st.ante, old_ante, hand.chips.dead.get(s, 0)) for s in hand.dealt]
    if st.bb_ante and layout is not None and layout.big_blind is not None:
        s = layout.big_blind
        old_bb_ante = (
            before.ante if before is not None and before.ante_type is AnteType.BB else None
        )
        checks.append((s, "BIG BLIND ANTE", st.bb_ante, old_bb_ante, hand.chips.dead.get(s, 0)))
    blind_first: set[int] = set()  # a short big blind told to post his blind first
    for seat, what, due, old, put in checks:
        stack = hand.terms.start_stacks.get(seat)
        if put == due or (what == "BIG BLIND ANTE" and seat in blind_first):
            continue
        if stack is not None:
            if what == "BIG BLIND ANTE":
                blind = hand.chips.posts.get(seat, 0)
                if put < due and put >= stack - blind:
                    continue  # what is left after the big blind (big blind first)
            elif what == "ANTE":
                if put < due and put >= stack:
                    continue
            elif what == "BIG BLIND" and st.bb_ante:
                if put < due and put >= stack:
                    continue  # the big blind first, with all he has
            elif put < due and put >= stack - hand.chips.dead.get(seat, 0):
                continue  # all he has: action on what is left
        rule = Rule.TOURN_LEVELS
        if what == "BIG BLIND" and st.bb_ante and stack is not None and put < due <= stack:
            # The big-blind ante with a short stack: the blind first, the ante from what is left
            # (the TDA's recommended big-blind-first calculation, RP-11).
            rule = Rule.BLIND_SHORT_BIG_BLIND
            blind_first.add(seat)  # (his ante is short because his blind is: one incident)
            text = (
                f"SEAT {seat} BIG BLIND {put}: THE BIG BLIND ({due}) COMES FIRST, THE ANTE FROM "
                "WHAT IS LEFT"
            )
        elif what == "ANTE" and put == 0:
            text = f"SEAT {seat} HAS NOT PUT IN THE ANTE ({due} AT {label})"
        else:
            text = f"SEAT {seat} {what} {put}: IT IS {due} AT {label}"
            if old is not None and put == old:
                text += " (THE OLD LEVEL'S)"
        table.out.append(table.incident(seq, rule, text, Ruling.CORRECT_BET, seat=seat))


def _previous(t: Tourney) -> Level | None:
    """The playing level before the deal's."""
    for i in range(t.applied - 1, -1, -1):
        if not t.levels[i].is_break:
            return t.levels[i]
    return None


def hand_ended(table: TableState, seq: int, *, redeal: bool = False) -> None:
    """The hand is over: the next deal takes the level in force now (the table is told). A void
    deal's redeal is dealt with the same forced bets, so at the same level (`hand_cycle`)."""
    t = table.tourney
    if t is None:
        return
    t.hand_level = None
    t.locked = redeal
    _refresh(table, seq)


def race_started(table: TableState, new_chip: int | None) -> None:
    """A chip race began: the colour-up the break asked for is being done."""
    t = table.tourney
    if t is None or t.colour_up is None or new_chip != t.colour_up[1]:
        return
    t.colour_up = None
    r = reading(t.levels, t.clock, t.now)
    t.raced.add(r.index)


def last_two(table: TableState, dealt: list[int]) -> bool:
    """The event is down to this hand's two players: the final table, two players with chips."""
    t = table.tourney
    if t is None or not t.schedule.final_table or len(dealt) != 2:
        return False
    return sum(1 for st in table.stacks.values() if st != 0) == 2


def winner_take_all(table: TableState) -> bool:
    t = table.tourney
    return t is not None and t.schedule.winner_take_all


# --- players moved between tables ---------------------------------------------------------------


def move(table: TableState, event: KeyPress, seq: int) -> None:
    """MOVE_OUT s / MOVE_IN s amount: a player leaves for another table with his chips, or
    arrives from one with his (the centre's move, confirmed by the seat sensor)."""
    seat = event.seat
    hand = table.hand
    in_hand = hand is not None and hand.result is None and seat in hand.seats
    if seat is None or in_hand:
        why = "NAME THE SEAT" if seat is None else f"SEAT {seat} IS IN THE HAND: AFTER THE HAND"
        table.out.append(
            table.incident(seq, Rule.STATION_UNEXPECTED_KEY, f"{event.key.value}: {why}", seat=seat)
        )
        return
    if event.key is Key.MOVE_OUT:
        _move_out(table, seat, seq)
    else:
        _move_in(table, seat, event.amount, seq)
    lineup.prompt_posts(table, seq)


def _move_out(table: TableState, seat: int, seq: int) -> None:
    chips = table.stacks.pop(seat, None)
    table.occupied.discard(seat)
    table.lineup.newcomers.discard(seat)
    table.lineup.missed.pop(seat, None)
    table.lineup.seat_wait.pop(seat, None)
    table.timers.away_since.pop(seat, None)
    table.timers.away_flagged.discard(seat)
    posted = table.posting.posted.pop(seat, 0)
    back = f" (TAKE BACK HIS POST {posted})" if posted else ""
    table.out.append(
        Prompt(
            table.hand_no + 1,
            f"SEAT {seat} MOVED TO ANOTHER TABLE WITH {chips if chips is not None else '?'}{back}",
            seq,
            PromptCode.INFO,
        )
    )


def _move_in(table: TableState, seat: int, amount: int | None, seq: int) -> None:
    if table.stacks.get(seat):
        table.out.append(
            table.incident(
                seq,
                Rule.STATION_UNEXPECTED_KEY,
                f"MOVE_IN: SEAT {seat} STILL HAS A PLAYER WITH CHIPS",
                seat=seat,
            )
        )
        return
    table.stacks[seat] = amount
    table.occupied.add(seat)
    table.lineup.newcomers.add(seat)
    table.lineup.missed.pop(seat, None)
    table.lineup.seat_wait.pop(seat, None)
    table.timers.away_since.pop(seat, None)
    dealt = lineup.dealt_in(table, commit=False)
    now_in = seat in dealt
    if not now_in and len(dealt) < 2:
        now_in = True  # the table starts again with him: nobody's position to wait for
    chips = f" ({amount})" if amount is not None else ""
    when = "DEALT IN NOW" if now_in else "WAITS UNTIL THE BUTTON PASSES"
    table.out.append(
        Prompt(
            table.hand_no + 1,
            f"NEW PLAYER SEAT {seat}{chips}: {when}",
            seq,
            PromptCode.INFO,
        )
    )


# --- the screens --------------------------------------------------------------------------------


def view(table: TableState) -> TournamentView | None:
    """The clock for the snapshot."""
    t = table.tourney
    if t is None:
        return None
    r = reading(t.levels, t.clock, t.now)
    level = t.levels[r.index]
    target = playing_index(t.levels, r.index)
    stakes = stakes_text(t.levels[target], t.game)
    nxt = r.index + 1
    fixed = t.hand_level if _in_play(table) else (t.applied if t.locked else None)
    hand_label = ""
    if fixed is not None and fixed >= 0 and fixed != target:
        hand_label = f"{level_label(t.levels, fixed)} ({stakes_text(t.levels[fixed], t.game)})"
    return TournamentView(
        event=t.schedule.event,
        label=level_label(t.levels, r.index),
        stakes=stakes,
        remaining_s=r.remaining_s,
        at=t.now,
        paused=r.paused,
        waiting=r.waiting,
        is_break=level.is_break,
        last=r.last,
        next_label=level_label(t.levels, nxt) if nxt < len(t.levels) else "",
        next_stakes=stakes_text(t.levels[nxt], t.game) if nxt < len(t.levels) else "",
        hand_label=hand_label,
        colour_up=t.colour_up,
        ends_t=ends_at(t.levels, t.clock, r.index) if not r.waiting else None,
        next_level=nxt + 1 if nxt < len(t.levels) else None,
        next_duration_s=t.levels[nxt].duration_s if nxt < len(t.levels) else 0.0,
        hand_stakes=_stakes_pairs(table),
        deal_label=level_label(t.levels, fixed if fixed is not None and fixed >= 0 else target),
    )


def _stakes_pairs(table: TableState) -> tuple[tuple[str, int], ...]:
    hand = table.hand
    st = hand.terms.stakes if hand is not None and hand.result is None else None
    if st is None and table.setup is not None:
        st = table.setup.stakes
    if st is None:
        return ()
    names = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "straddle", "bb_ante")
    return tuple((k, v) for k in names if (v := getattr(st, k)) is not None)
