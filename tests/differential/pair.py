"""Both engines on one scripted hand: the pinned allow-list tests build their situations with it.

`Pair` is the lockstep driver with the random policy replaced by explicit actions. The hand is set
up, blinded and dealt exactly as in the differential run (harness.py), so a pinned test looks at
the very same quantities the differential run compares.
"""

from __future__ import annotations

import warnings
from typing import Any

from tests.differential import allowlist
from tests.differential.harness import DECK, GAMES, Deal, Lockstep, PKView, _ours_range, _StopError
from tests.differential.rr_model import Structure


def shoe(n: int, hole: int, holes: dict[int, str], board: str = "") -> tuple[str, ...]:
    """The shoe order for seats 1..n with the given hole cards ("AhKd" per seat) and board
    ("2c3d4h5s9c": flop, turn, river); every other card (burns too) comes from the rest of the
    deck in order. Dealing is round-robin from seat 1 (heads-up too: the big blind first)."""

    def split(cards: str) -> list[str]:
        return [cards[i : i + 2] for i in range(0, len(cards), 2)]

    fixed = {c for h in holes.values() for c in split(h)} | set(split(board))
    rest = iter(c for c in DECK if c not in fixed)
    order: list[str] = []
    for k in range(hole):
        for seat in range(1, n + 1):
            given = split(holes.get(seat, ""))
            order.append(given[k] if k < len(given) else next(rest))
    given_board = split(board)
    for first, count in ((0, 3), (3, 1), (4, 1)):  # flop, turn, river
        order.append(next(rest))  # the burn
        for k in range(first, first + count):
            order.append(given_board[k] if k < len(given_board) else next(rest))
    order += list(rest)
    return tuple(order)


class Pair(Lockstep):
    """A hand in PokerKit and in our engine, driven action by action."""

    def __init__(
        self,
        game: str,
        stacks: list[int],
        sb: int,
        bb: int,
        *,
        holes: dict[int, str] | None = None,
        board: str = "",
    ) -> None:
        n = len(stacks)
        deal = Deal(
            game=game,
            stacks=tuple(stacks),
            sb=sb,
            bb=bb,
            deck=shoe(n, GAMES[game].hole, holes or {}, board),
            action_seed=0,
            fold_rate=0.0,
            raise_rate=0.0,
        )
        super().__init__(deal)
        self._guarded(self._start)
        self.waiting = self._guarded(self._advance)

    def _guarded(self, step: Any, *args: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                return step(*args)
            except _StopError:
                d = self.result.disagreement
                raise AssertionError(d.text if d is not None else "stopped") from None

    def do(self, seat: int, action: str, total: int = 0) -> Pair:
        """The player in `seat` acts ("fold", "call" = check or call, "raise" to `total`)."""
        assert self.waiting, "the hand is over"
        actor = self.state.actor_index
        assert actor is not None and actor + 1 == seat, f"PokerKit waits for {actor}, not {seat}"
        self._guarded(self.apply, seat, action, total)
        self.waiting = self._guarded(self._advance)
        return self

    def play(self, *actions: tuple[int, str] | tuple[int, str, int]) -> Pair:
        for a in actions:
            self.do(*a)
        return self

    def finish(self) -> None:
        """Check down to the end and settle; returns nothing, see `result` and `hand_end`."""
        while self.waiting:
            seat = self.state.actor_index + 1
            self.do(seat, "call")
        self._guarded(self._finish)

    @property
    def snap(self) -> Any:
        return self.table.snapshot()

    @property
    def pk(self) -> PKView:
        return self.pk_view()

    @property
    def ours(self) -> tuple[int, int] | None:
        return _ours_range(self.snap)

    def context(self) -> allowlist.Context:
        pk = self.pk
        seat = pk.actor
        assert seat is not None
        rr = self._rr_round()
        return allowlist.Context(
            structure=self.info.structure,
            street=self.state.street_index,
            seat=seat,
            pk_range=pk.raise_range,
            pk_reason=pk.reason,
            ours_range=self.ours,
            rr_range=rr.raise_range(seat),
            rr=rr,
        )


__all__ = ["Pair", "Structure", "shoe"]
