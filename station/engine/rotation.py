"""Mixed-game rotations (HORSE, 8-game): which game the next hand is, and the change of game. Pure.

A setup with a `rotation` plays its games in turn, each for `hands` hands or, when that is 0, for
one orbit: as many hands as there were players in that game's first hand (in a button game one
button round, in stud one hand per player). A hand that ends void is dealt again and does not
count; a misdeal's redeal is the same hand.

The rulebooks are silent on the button at a change of game; the station follows the common
practice of the mixed-game rules (house practice, docs/HOUSE-PRACTICE.md): after the last hand of
a button game the button moves on as usual and stays there, frozen, while stud is played; the
next button game starts from where it was frozen, with its own blinds. Stud has no button and
antes from every player. A missed blind carries over through the stud games (004-GN §V r220: a
"missed blind button from a flop game round ... will carry over").
"""

from __future__ import annotations

from dataclasses import replace

from station.engine.decisions import Prompt, PromptCode
from station.engine.events import Rotation, Stakes
from station.engine.games import Family, GameSpec, Structure, game_spec
from station.engine.table_state import Mix, TableState


def start(table: TableState) -> None:
    """A new setup: its rotation (if any) starts with its first game."""
    setup = table.setup
    table.mix = Mix() if setup is not None and setup.rotation is not None else None


def spec_of(game: str, structure: str | None) -> GameSpec:
    spec = game_spec(game)
    return spec if structure is None else spec.with_structure(Structure(structure))


def hand_played(table: TableState, dealt: int, seq: int) -> None:
    """A hand of the current game ended (not void): count it; at the end of the game's round
    the next game of the rotation comes in, with its stakes."""
    mix, setup = table.mix, table.setup
    if mix is None or setup is None or setup.rotation is None:
        return
    rotation = setup.rotation
    if mix.played == 0:
        mix.round = rotation.hands or dealt
    mix.played += 1
    if mix.played < mix.round:
        return
    mix.index = (mix.index + 1) % len(rotation.games)
    mix.played = 0
    nxt = rotation.games[mix.index]
    table.spec = spec_of(nxt.game, nxt.structure)
    table.setup = replace(setup, game=nxt.game, stakes=nxt.stakes, structure=nxt.structure)
    table.out.append(
        Prompt(
            table.hand_no + 1,
            f"NEXT GAME: {table.spec.title.upper()} ({forced_bets_text(table.spec, nxt.stakes)})",
            seq,
            PromptCode.INFO,
        )
    )


def forced_bets_text(spec: GameSpec, st: Stakes) -> str:
    """The forced bets and limits of a game, as the dealer announces the change."""
    parts: list[str] = []
    if spec.family is Family.STUD:
        if st.ante:
            parts.append(f"ANTE {st.ante}")
        if st.bring_in:
            parts.append(f"BRING-IN {st.bring_in}")
    else:
        if st.sb or st.bb:
            parts.append(f"BLINDS {st.sb or 0}-{st.bb or 0}")
        if st.ante:
            parts.append(f"ANTE {st.ante}")
    if spec.structure is Structure.FIXED_LIMIT and st.small_bet and st.big_bet:
        parts.append(f"LIMIT {st.small_bet}-{st.big_bet}")
    else:
        parts.append(spec.structure.value.replace("_", " ").upper())
    return ", ".join(parts)


def games(rotation: Rotation) -> tuple[str, ...]:
    return tuple(g.game for g in rotation.games)
