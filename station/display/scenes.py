"""Hand-built table situations for screenshots, tests and the lead's review. Pure data.

Each matches a real moment at the table, with amounts that add up: the premature-flop STOP, a
three-way all-in with two side pots, a guided recovery step, a held floor call, a void hand's
refunds, a chip race due between levels and a ten-handed preflop with every seat still in; and
the data for the floor's recall of a hand and for diagnostics with the shoe disconnected.
"""

from __future__ import annotations

from station.display.diag_view import (
    DiagLinkState,
    DiagnosticsData,
    EnrolmentView,
    GpioLevelsView,
    JournalHealthView,
    LinkStatusView,
    PlatformView,
)
from station.display.floor_view import FloorData, HandRecallView, IncidentRow, RecallStep
from station.engine.decisions import Incident, Ruling
from station.engine.snapshot import (
    Phase,
    PotView,
    SeatStatus,
    SeatView,
    StopView,
    TableSnapshot,
)

A, F, E, AI = SeatStatus.ACTIVE, SeatStatus.FOLDED, SeatStatus.EMPTY, SeatStatus.ALLIN

PREMATURE_FLOP_INCIDENT = Incident(
    hand=42,
    rule="PREMATURE-FLOP",
    ruling=Ruling.REDEAL,
    text="Flop dealt before seat 4 acted. Leave the cards; finish the betting.",
    event=57,
    seat=4,
    citation="001-RR11 §5 r7",
    events=(53, 54, 55, 56, 57),
)


def _seats_premature(bets: dict[int, int], to_act: int | None) -> tuple[SeatView, ...]:
    """Nine-handed NLHE 1/2, button 2: seat 5 opened to 6, 7 and 1 called, 4 (BB) to act."""
    status = {1: A, 2: F, 3: F, 4: A, 5: A, 6: F, 7: A, 8: F, 9: F, 10: E}
    stacks = {1: 194, 2: 250, 3: 187, 4: 198, 5: 314, 6: 120, 7: 96, 8: 402, 9: 233}
    return tuple(
        SeatView(
            seat=s,
            status=st,
            stack=stacks.get(s),
            bet=bets.get(s, 0),
            cards=2 if st in (A, AI) else 0,
            button=s == 2,
            blind={3: "SB", 4: "BB"}.get(s, ""),
            to_act=s == to_act,
        )
        for s, st in status.items()
    )


def premature_flop_stop() -> TableSnapshot:
    """Hold'em, preflop betting open, seat 4 (big blind) still to act; the dealer burned and
    flopped. The engine stops the deal and names seat 4 and the rule."""
    bets = {1: 6, 4: 2, 5: 6, 7: 6}
    return TableSnapshot(
        hand=42,
        game="nlhe",
        profile="RR11",
        phase=Phase.BETTING,
        street="preflop",
        seats=_seats_premature(bets, 4),
        board=(),
        pots=(PotView("Main", 1, (1, 4, 5, 7)),),  # the small blind's dead chip
        to_act=4,
        to_call=4,
        min_raise_to=10,
        max_raise_to=200,
        next_step="FINISH THE BETTING",
        stop=StopView("Premature flop: seat 4 has not acted. Do not deal.", 4),
        incidents=(PREMATURE_FLOP_INCIDENT,),
        button=2,
    )


def three_way_allin() -> TableSnapshot:
    """NLHE 1/2, button 1. Preflop: 2, 5, 7, 9 put in 2 each, seat 1 (SB) folded 1 (pot 9).
    Flop: seat 2 all-in 48, seat 5 all-in 118, seat 7 all-in 198, seat 9 calls 198.
    Main 4 x 48 + 9 = 201 (2 5 7 9); side 1 3 x 70 = 210 (5 7 9); side 2 2 x 80 = 160 (7 9).
    Total 571 = 9 + 48 + 118 + 198 + 198. Bets collected; next the turn."""
    status = {1: F, 2: AI, 3: E, 4: F, 5: AI, 6: F, 7: AI, 8: F, 9: A, 10: E}
    stacks = {1: 199, 2: 0, 4: 150, 5: 0, 6: 88, 7: 0, 8: 260, 9: 100}
    seats = tuple(
        SeatView(
            seat=s,
            status=st,
            stack=stacks.get(s),
            bet=0,
            cards=2 if st in (A, AI) else 0,
            button=s == 1,
        )
        for s, st in status.items()
    )
    return TableSnapshot(
        hand=57,
        game="nlhe",
        profile="RR11",
        phase=Phase.STREET,
        street="flop",
        seats=seats,
        board=("Kd", "9s", "4h"),
        pots=(
            PotView("Main", 201, (2, 5, 7, 9)),
            PotView("Side 1", 210, (5, 7, 9)),
            PotView("Side 2", 160, (7, 9)),
        ),
        to_act=None,
        to_call=0,
        min_raise_to=None,
        max_raise_to=None,
        next_step="BURN & TURN",
        button=1,
    )


def floor_call_betting() -> TableSnapshot:
    """A turn with a floor call held open: betting on, seat 9 to act, board of four."""
    status = {1: F, 2: F, 3: E, 4: F, 5: A, 6: F, 7: F, 8: F, 9: A, 10: E}
    stacks = {1: 180, 2: 95, 4: 150, 5: 130, 6: 88, 7: 301, 8: 260, 9: 100}
    seats = tuple(
        SeatView(s, st, stacks.get(s), 20 if s == 5 else 0, 2 if st is A else 0,
                 button=s == 2, to_act=s == 9)
        for s, st in status.items()
    )  # fmt: skip
    return TableSnapshot(
        hand=58,
        game="nlhe",
        profile="RR11",
        phase=Phase.BETTING,
        street="turn",
        seats=seats,
        board=("Kd", "9s", "4h", "Tc"),
        pots=(PotView("Main", 84, (5, 9)),),  # 20 more in front of seat 5: 104 in all
        to_act=9,
        to_call=20,
        min_raise_to=40,
        max_raise_to=100,
        next_step="ACTION ON SEAT 9",
        floor_call=True,
        button=2,
    )


def void_hand_refunds() -> TableSnapshot:
    """Hand 43 void on a duplicate card (DECK-DUPLICATE-CARD) after seat 5 opened to 12 and
    seats 7, 1 and 4 called, seat 3 folding his small blind: every wager goes back (1 to seat 3,
    12 to the others) and the floor may keep a freerolling player's refund in the pot."""
    refunds = {1: 12, 3: 1, 4: 12, 5: 12, 7: 12}
    seats = tuple(
        SeatView(s.seat, F if s.seat in (2, 6, 8, 9) else s.status, s.stack, 0, 0,
                 button=s.button, blind=s.blind)
        for s in _seats_premature({}, None)
    )  # fmt: skip
    return TableSnapshot(
        hand=43,
        game="nlhe",
        profile="RR11",
        phase=Phase.ENDED,
        street="flop",
        seats=seats,
        board=("Kd", "9s", "Kd"),
        pots=(),
        to_act=None,
        to_call=0,
        min_raise_to=None,
        max_raise_to=None,
        next_step="POST SB S4 1 / BB S5 2",
        button=2,
        refunds=tuple(refunds.items()),
    )


def chip_race_due() -> TableSnapshot:
    """Between two tournament levels: the 25 chips come off, nobody dealt in yet."""
    stacks = {1: 4325, 2: 11050, 4: 2975, 5: 8200, 7: 6400, 9: 25}
    seats = tuple(
        SeatView(s, SeatStatus.OUT if s in stacks else E, stacks.get(s), 0, 0, button=s == 7)
        for s in range(1, 11)
    )
    return TableSnapshot(
        hand=117,
        game="nlhe",
        profile="RR11",
        phase=Phase.BETWEEN,
        street="",
        seats=seats,
        board=(),
        pots=(),
        to_act=None,
        to_call=0,
        min_raise_to=None,
        max_raise_to=None,
        next_step="NEW HAND",
        button=7,
    )


# floor review and diagnostics -----------------------------------------------------------------
def floor_data() -> FloorData:
    """The floor's view after hand 42's premature flop; hand 41 is recalled step by step."""
    steps = (
        RecallStep(301, "setup NLHE 1/2, button seat 2", (), 0),
        RecallStep(302, "seat 3 posts SB 1", (), 1),
        RecallStep(303, "seat 4 posts BB 2", (), 3),
        RecallStep(304, "NEW_HAND: shuffle done, deal starts", (), 3),
        RecallStep(305, "18 hole cards dealt, seats 1-9", (), 3),
        RecallStep(323, "seat 5 raises to 6", (), 9),
        RecallStep(324, "seat 6 folds", (), 9),
        RecallStep(325, "seat 7 calls 6", (), 15),
        RecallStep(326, "seats 8, 9, 1, 2, 3 fold", (), 15),
        RecallStep(331, "seat 4 calls 6", (), 19),
        RecallStep(332, "bets collected: main pot 19", (), 19),
        RecallStep(333, "burn", (), 19),
        RecallStep(334, "flop Kd 9s 4h", ("Kd", "9s", "4h"), 19),
        RecallStep(335, "seat 4 checks", ("Kd", "9s", "4h"), 19),
        RecallStep(336, "seat 5 bets 12", ("Kd", "9s", "4h"), 31),
        RecallStep(337, "seat 7 folds", ("Kd", "9s", "4h"), 31),
        RecallStep(338, "seat 4 calls 12", ("Kd", "9s", "4h"), 43),
        RecallStep(340, "burn, turn 2c", ("Kd", "9s", "4h", "2c"), 43),
        RecallStep(343, "seats 4 and 5 check", ("Kd", "9s", "4h", "2c"), 43),
        RecallStep(345, "burn, river Jh", ("Kd", "9s", "4h", "2c", "Jh"), 43),
        RecallStep(348, "seat 4 tables Kc Qc, seat 5 mucks", ("Kd", "9s", "4h", "2c", "Jh"), 43),
        RecallStep(350, "seat 4 wins 43", ("Kd", "9s", "4h", "2c", "Jh"), 0),
    )
    hands = (
        HandRecallView(41, "nlhe", "2026-09-02T21:09:41Z", steps, "seat 4 wins 43"),
        HandRecallView(40, "nlhe", "2026-09-02T21:05:12Z", steps[:6], "seat 5 wins 9"),
    )
    incidents = (
        IncidentRow(
            hand=42,
            event=57,
            rule="PREMATURE-FLOP",
            citation="001-RR11 §5 r7",
            ruling="redeal",
            text=PREMATURE_FLOP_INCIDENT.text,
            seat=4,
            triggers=(
                "#53 seat 1 calls 6",
                "#54 seats 2, 3 fold",
                "#55 draw 8c: burn, seat 4 not acted",
                "#56 draw Qd: flop card 1",
                "#57 draw 5s: flop card 2 (STOP)",
            ),
            at_utc="2026-09-02T21:14:03Z",
        ),
        IncidentRow(38, 12, "DECK-BOXED-SINGLE", "001-RR11 §4 r2", "replace",
                    "Boxed card at seat 6 replaced.", "closed", 6),
    )  # fmt: skip
    return FloorData(incidents, hands)


def shoe_disconnected() -> DiagnosticsData:
    """The shoe's USB cable pulled 12.4 s ago; the bet-zone link still up."""
    shoe = LinkStatusView(
        "SHOE", DiagLinkState.DISCONNECTED, "/dev/dealer-shoe", "shoe-fw 1.3.0",
        frames_rx=18233, frames_tx=18210, crc_errors=3, retransmits=12, duplicates=1, resyncs=2,
        last_frame_age_s=12.4,
        last_frames=("A5 0C 3F 02 card_drawn id=9121 tag=04A1B2C3", "A5 04 40 01 heartbeat",
                     "A5 04 41 01 heartbeat"),
    )  # fmt: skip
    zones = LinkStatusView(
        "BET ZONES", DiagLinkState.CONNECTED, "/dev/dealer-zones", "zones-fw 1.1.2",
        frames_rx=90211, frames_tx=90198, last_frame_age_s=0.2,
        last_frames=("A5 08 10 07 zone seat=5 amount=20",),
    )  # fmt: skip
    gpio = GpioLevelsView(
        tuple((k, k in ("SEAT1", "SEAT4", "SEAT5")) for k in (
            "NEW_HAND", "FOLD", "CHECK", "ALLIN", "FLOOR", "CONFIRM", "CANCEL", "SEAT1", "SEAT2",
            "SEAT3", "SEAT4", "SEAT5", "PUCK1", "PUCK2",
        ))
    )  # fmt: skip
    return DiagnosticsData(
        links=(shoe, zones),
        gpio=gpio,
        journal=JournalHealthView(True, 108_422, 108_422, True, 14.2, 0),
        platform=PlatformView("2026-09-02 21:14:15Z", True, 51.6, False),
    )


def enrolling() -> DiagnosticsData:
    """A new red deck being enrolled: 20 cards scanned in new-deck order."""
    order = [r + s for s in "shdc" for r in "A23456789TJQK"][:20]
    scanned = tuple((f"04A1{i:04X}", code) for i, code in enumerate(order))
    base = shoe_disconnected()
    shoe = LinkStatusView("SHOE", DiagLinkState.CONNECTED, "/dev/dealer-shoe", "shoe-fw 1.3.0")
    return DiagnosticsData(
        (shoe,), base.gpio, base.journal, base.platform, EnrolmentView("RED", scanned, True)
    )
