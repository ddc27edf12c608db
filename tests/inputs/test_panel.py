"""The dealer panel's entry logic (pure): what each sequence of presses sends to the engine."""

from __future__ import annotations

import pytest

from hardware.inputs.events import KeyPressed, PanelMode, PanelRejected, PanelStatus, RejectReason
from hardware.inputs.names import CATALOG_KEYS
from hardware.inputs.panel import Panel, PanelEvent


class Presser:
    def __init__(self, panel: Panel | None = None) -> None:
        self.panel = panel or Panel(10, selection_timeout_s=5.0, entry_timeout_s=5.0)
        self.t = 100.0
        self.events: list[PanelEvent] = []

    def __call__(self, *buttons: str, long: bool = False, gap_s: float = 0.3) -> list[KeyPressed]:
        out: list[PanelEvent] = []
        for button in buttons:
            self.t += gap_s
            out += self.panel.press(button, long, self.t)
        self.events += out
        return [e for e in out if isinstance(e, KeyPressed)]

    def wait(self, seconds: float) -> list[PanelEvent]:
        self.t += seconds
        out = self.panel.advance(self.t)
        self.events += out
        return out

    def mode(self) -> PanelMode:
        return self.panel.mode

    def rejects(self) -> list[RejectReason]:
        return [e.reason for e in self.events if isinstance(e, PanelRejected)]


def entry(key: str, **fields: object) -> tuple[str, dict[str, object]]:
    return key, fields


def summary(presses: list[KeyPressed]) -> list[tuple[str, dict[str, object]]]:
    names = ("seat", "count", "action", "amount", "to_seat")
    return [
        (p.key, {n: getattr(p, n) for n in names if getattr(p, n) is not None}) for p in presses
    ]


# -- routine entries: at most two presses ------------------------------------------------------

ROUTINE = [
    (("FOLD",), [entry("FOLD")]),
    (("CHECK",), [entry("CHECK")]),
    (("ALLIN",), [entry("ALLIN")]),
    (("CALL",), [entry("VERBAL", action="call")]),
    (("RAISE",), [entry("VERBAL", action="raise")]),
    (("NEW_HAND",), [entry("NEW_HAND")]),
    (("FLOOR",), [entry("FLOOR")]),
    (("BOXED",), [entry("BOXED")]),
    (("EXPOSED",), [entry("EXPOSED")]),
    (("TABLED",), [entry("TABLED")]),
    (("MUCK",), [entry("MUCK")]),
    (("CONFIRM",), [entry("CONFIRM")]),
    (("CANCEL",), [entry("CANCEL")]),
    (("SEAT_7", "FOLD"), [entry("FOLD", seat=7)]),
    (("SEAT_2", "CHECK"), [entry("CHECK", seat=2)]),
    (("SEAT_9", "MUCK"), [entry("MUCK", seat=9)]),
    (("VERBAL", "FOLD"), [entry("VERBAL", action="fold")]),
    (("VERBAL", "CHECK"), [entry("VERBAL", action="check")]),
    (("VERBAL", "CALL"), [entry("VERBAL", action="call")]),
    (("VERBAL", "RAISE"), [entry("VERBAL", action="raise")]),
    (("SEAT_4", "RAISE"), [entry("VERBAL", seat=4, action="raise")]),
    (("DRAW", "SEAT_3"), [entry("DRAW", count=3)]),
    (("DRAW", "SEAT_10"), [entry("DRAW", count=0)]),  # standing pat: 10 is the 0 key
    (("DISCARD", "SEAT_2"), [entry("DISCARD", count=2)]),
    (("RUN_IT", "SEAT_2"), [entry("RUN_IT", count=2)]),
    (("MISDEAL", "CONFIRM"), [entry("MISDEAL")]),
]


@pytest.mark.parametrize(("buttons", "expected"), ROUTINE, ids=["-".join(b) for b, _ in ROUTINE])
def test_routine_entries_take_at_most_two_presses(
    buttons: tuple[str, ...], expected: list[tuple[str, dict[str, object]]]
) -> None:
    press = Presser()
    assert len(buttons) <= 2
    assert summary(press(*buttons)) == expected
    assert press.mode() is PanelMode.IDLE


def test_every_catalog_key_can_be_entered_from_the_panel() -> None:
    press = Presser()
    entered: set[str] = set()
    for key in CATALOG_KEYS:
        follow = {
            "VERBAL": ("CALL",),
            "DRAW": ("SEAT_1",),
            "DISCARD": ("SEAT_1",),
            "RUN_IT": ("SEAT_2",),
            "MISDEAL": ("CONFIRM",),
            "SEAT_CHANGE": ("SEAT_1", "SEAT_2"),
        }.get(key, ())
        entered |= {p.key for p in press(key, *follow)}
    assert entered == set(CATALOG_KEYS)


# -- seats --------------------------------------------------------------------------------------


def test_a_selected_seat_is_used_by_the_next_seat_key_only() -> None:
    press = Presser()
    assert summary(press("SEAT_5", "FOLD", "FOLD")) == [entry("FOLD", seat=5), entry("FOLD")]


def test_pressing_the_selected_seat_again_deselects_it() -> None:
    press = Presser()
    assert summary(press("SEAT_5", "SEAT_5", "CHECK")) == [entry("CHECK")]


def test_a_table_key_leaves_the_selection_for_the_next_seat_key() -> None:
    press = Presser()
    assert summary(press("SEAT_5", "CONFIRM", "FOLD")) == [
        entry("CONFIRM"),
        entry("FOLD", seat=5),
    ]


def test_a_selection_expires_so_a_stale_seat_never_takes_a_later_fold() -> None:
    press = Presser()
    press("SEAT_8")
    out = press.wait(6.0)
    assert [e.selected for e in out if isinstance(e, PanelStatus)] == [None]
    assert summary(press("FOLD")) == [entry("FOLD")]


def test_on_a_smaller_table_the_10_key_is_only_the_digit_0() -> None:
    press = Presser(Panel(6))
    assert press("SEAT_10", "FOLD")[0].seat is None
    assert press.rejects() == [RejectReason.OUT_OF_RANGE]
    assert summary(press("DRAW", "SEAT_10")) == [entry("DRAW", count=0)]


def test_seat_change_from_the_selected_seat() -> None:
    press = Presser()
    assert summary(press("SEAT_3", "SEAT_CHANGE", "SEAT_8")) == [
        entry("SEAT_CHANGE", seat=3, to_seat=8)
    ]


def test_seat_change_asks_for_both_seats_when_none_is_selected() -> None:
    press = Presser()
    assert summary(press("SEAT_CHANGE", "SEAT_3", "SEAT_3", "SEAT_8")) == [
        entry("SEAT_CHANGE", seat=3, to_seat=8)
    ]
    assert press.rejects() == [RejectReason.OUT_OF_RANGE]  # the same seat twice


# -- verbal declarations and amounts -------------------------------------------------------------


def test_a_declared_raise_amount_is_keyed_with_the_seat_keys_as_digits() -> None:
    press = Presser()
    assert summary(press("VERBAL", "SEAT_2", "SEAT_10", "RAISE")) == [
        entry("VERBAL", action="raise", amount=20)
    ]


def test_verbal_for_a_selected_seat() -> None:
    press = Presser()
    assert summary(press("SEAT_6", "VERBAL", "SEAT_1", "SEAT_5", "RAISE")) == [
        entry("VERBAL", seat=6, action="raise", amount=15)
    ]


def test_an_amount_with_a_check_is_rejected_and_the_entry_waits() -> None:
    press = Presser()
    assert press("VERBAL", "SEAT_5", "CHECK") == []
    assert press.rejects() == [RejectReason.NOT_NOW]
    assert summary(press("RAISE")) == [entry("VERBAL", action="raise", amount=5)]


def test_a_key_that_does_not_fit_the_verbal_entry_is_rejected() -> None:
    press = Presser()
    assert press("VERBAL", "NEW_HAND") == []
    assert press.rejects() == [RejectReason.NOT_NOW]
    assert press.mode() is PanelMode.VERBAL


def test_too_many_digits_are_rejected() -> None:
    press = Presser()
    press("VERBAL", *(["SEAT_9"] * 7))
    assert press.rejects() == [RejectReason.TOO_MANY_DIGITS]


# -- counts ---------------------------------------------------------------------------------------


def test_draw_count_above_five_is_rejected_and_a_valid_one_still_accepted() -> None:
    press = Presser()
    assert press("DRAW", "SEAT_7") == []
    assert press.rejects() == [RejectReason.OUT_OF_RANGE]
    assert summary(press("SEAT_1")) == [entry("DRAW", count=1)]


def test_draw_for_a_selected_seat() -> None:
    press = Presser()
    assert summary(press("SEAT_4", "DRAW", "SEAT_2")) == [entry("DRAW", seat=4, count=2)]


def test_run_it_takes_one_to_three() -> None:
    press = Presser()
    assert press("RUN_IT", "SEAT_10") == []
    assert summary(press("SEAT_3")) == [entry("RUN_IT", count=3)]


# -- guarded keys, cancel, floor ------------------------------------------------------------------


def test_misdeal_is_declared_only_after_confirm() -> None:
    press = Presser()
    assert press("MISDEAL") == []
    assert press.mode() is PanelMode.ARMED
    assert press("FOLD") == []  # anything but CONFIRM/CANCEL is refused while armed
    assert summary(press("CONFIRM")) == [entry("MISDEAL")]


def test_an_unconfirmed_misdeal_times_out_with_a_reject() -> None:
    press = Presser()
    press("MISDEAL")
    out = press.wait(6.0)
    assert [e.reason for e in out if isinstance(e, PanelRejected)] == [RejectReason.TIMED_OUT]
    assert summary(press("CONFIRM")) == [entry("CONFIRM")]  # a plain CONFIRM again


def test_cancel_backs_out_one_level_at_a_time() -> None:
    press = Presser()
    press("SEAT_3", "DRAW")
    assert press.mode() is PanelMode.COUNT
    assert press("CANCEL") == []  # the DRAW entry
    assert press.mode() is PanelMode.IDLE
    press("SEAT_3")
    assert press("CANCEL") == []  # the selection
    assert press.panel.selected is None
    assert summary(press("CANCEL")) == [entry("CANCEL")]  # nothing left: the engine gets it


def test_long_cancel_clears_everything_at_once() -> None:
    press = Presser()
    press("SEAT_3", "VERBAL", "SEAT_2")
    assert press("CANCEL", long=True) == []
    assert (press.mode(), press.panel.selected) == (PanelMode.IDLE, None)


def test_floor_goes_through_during_an_entry_and_leaves_it_alone() -> None:
    press = Presser()
    press("VERBAL", "SEAT_5")
    assert summary(press("FLOOR")) == [entry("FLOOR")]
    assert summary(press("RAISE")) == [entry("VERBAL", action="raise", amount=5)]


def test_every_change_of_the_pending_state_is_reported_for_the_display() -> None:
    press = Presser()
    press("SEAT_3", "VERBAL", "SEAT_2", "RAISE")
    statuses = [
        (e.selected, e.mode, e.pending, e.digits)
        for e in press.events
        if isinstance(e, PanelStatus)
    ]
    assert statuses == [
        (3, PanelMode.IDLE, None, ""),
        (None, PanelMode.VERBAL, "VERBAL", ""),
        (None, PanelMode.VERBAL, "VERBAL", "2"),
        (None, PanelMode.IDLE, None, ""),
    ]
