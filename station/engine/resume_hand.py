"""The hand that ended and the dealer screen's book, in a resume document (`station.engine.resume`).
Pure.

Once a hand is over the table keeps it until the next deal: the screen still shows its board,
pots, seats and incidents, a card drawn after it is a stray of that hand (no rabbit hunting, a
foreign back in the stub), a FORFEIT takes from its void refund. What of it can still matter is
`last_hand`; everything else about the hand (the betting round, the deal's slots, the recovery
under way) is finished business and is not carried: `HAND_NOT_CARRIED` says why, field by field.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import Any, Final

from station.engine.alerts import AlertBook, RaisedAlert, SaidPrompt
from station.engine.betting import Seat
from station.engine.cards import STANDARD_DECK, Card
from station.engine.events import Stakes
from station.engine.games import GAMES, Structure
from station.engine.hand import Hand
from station.engine.hand_state import Chips, Terms
from station.engine.positions import ButtonLayout
from station.engine.profiles import PROFILES, Profile
from station.engine.resume_fields import (
    Fields,
    ResumeError,
    card,
    codes,
    profile_of,
    seat_dict,
    whole,
)
from station.engine.resume_values import (
    hand_end_from_dict,
    hand_end_to_dict,
    incident_from_dict,
    incident_to_dict,
    prompt_from_dict,
    prompt_to_dict,
)
from station.engine.snapshot import AlertOwner, Phase

FACE_DOWN: Final = STANDARD_DECK[0]  # stands in for a face-down card of an ended hand

# Fields of `Hand` (and its parts) a resume document does not carry, and why: the hand is over.
HAND_NOT_CARRIED: Final = {
    "terms": "only the forfeited carry is read after the end (the pots on the screen)",
    "bets": "no betting round is open after the end; the misdeal cutoff is `cutoff_passed`",
    "show": "tabled and mucked hands are in the result's `shown`",
    "draws": "the draw is over",
    "repair": "a hand over has no recovery (the screen shows none, `alerts._irregular`)",
    "faults": "likewise",
    "conduct": "the clock and actions out of turn end with the hand",
    "out": "empty between inputs",
}


def profile_rules(p: Profile) -> dict[str, Any]:
    """The switches in which `p` differs from its named profile (the setup's `rules`)."""
    base = PROFILES[p.name]
    out: dict[str, Any] = {}
    for f in dataclasses.fields(p):
        value = getattr(p, f.name)
        if f.name not in ("name", "title", "citation_source") and value != getattr(base, f.name):
            out[f.name] = value.value if isinstance(value, StrEnum) else value
    return out


def hand_to_doc(hand: Hand) -> dict[str, Any]:
    """A hand that has ended: what the screen and the rules may still read of it."""
    assert hand.result is not None
    chips, layout = hand.chips, hand.layout
    seats: dict[int, dict[str, Any]] = {}
    for s in hand.dealt:
        seat = hand.seats[s]
        one: dict[str, Any] = {
            "stack": seat.stack,
            "bet": seat.bet,
            "folded": seat.folded,
            "allin": seat.allin,
            "committed": chips.committed.get(s, 0),
            # face up: named (stud's up cards); face down: only counted, never named
            "cards": [c.code if up else None for c, up in hand.deal.cards.get(s, [])],
        }
        if s in chips.dead:
            one["dead"] = chips.dead[s]
        if s in chips.posts:
            one["post"] = chips.posts[s]
        if s in hand.discard.unknown:  # discarded without naming them: gone from the count
            one["discarded"] = hand.discard.unknown[s]
        seats[s] = one
    return {
        "number": hand.number,
        "game": hand.spec.name,
        "structure": hand.spec.structure.value,
        "profile": hand.profile.name,
        "rules": profile_rules(hand.profile),
        "dealt": list(hand.dealt),
        "button": layout.button if layout is not None else None,
        "small_blind": layout.small_blind if layout is not None else None,
        "big_blind": layout.big_blind if layout is not None else None,
        "bring_in": hand.stud.bring_in_seat,
        "street": hand.street,
        "seats": seat_dict(seats),
        "carry": hand.terms.carry,
        "board": codes(hand.deal.board),
        "board2": codes(hand.deal.board2),
        "incidents": [incident_to_dict(i) for i in hand.alerts.incidents],
        "last_prompt": hand.alerts.last_prompt,
        "floor_call": hand.alerts.floor_call,
        "after_hand_draws": hand.alerts.after_hand_draws,
        "cutoff_passed": hand.cutoff_passed(),
        "result": hand_end_to_dict(hand.result),
    }


_HAND: Final = frozenset(
    {
        "number",
        "game",
        "structure",
        "profile",
        "rules",
        "dealt",
        "button",
        "small_blind",
        "big_blind",
        "bring_in",
        "street",
        "seats",
        "carry",
        "board",
        "board2",
        "incidents",
        "last_prompt",
        "floor_call",
        "after_hand_draws",
        "cutoff_passed",
        "result",
    }
)
_HAND_SEAT: Final = frozenset(
    {"stack", "bet", "folded", "allin", "committed", "cards", "dead", "post", "discarded"}
)


def hand_from_doc(raw: object, where: str, stakes: Stakes) -> Hand:
    f = Fields(raw, where, _HAND)
    game = f.text("game")
    if game not in GAMES:
        raise ResumeError(f"{f.where('game')}: unknown game {game!r}")
    spec = GAMES[game]
    try:
        spec = spec.with_structure(Structure(f.text("structure", spec.structure.value)))
    except ValueError as exc:
        raise ResumeError(f"{f.where('structure')}: {exc}") from None
    _, _, prof = profile_of(f)
    dealt = f.wholes("dealt")
    seat_docs = f.seat_map("seats")
    if sorted(seat_docs) != sorted(dealt):
        raise ResumeError(f"{f.where('seats')}: not the seats dealt in")
    seats: dict[int, Seat] = {}
    committed: dict[int, int] = {}
    dead: dict[int, int] = {}
    posts: dict[int, int] = {}
    cards: dict[int, list[tuple[Card, bool]]] = {}
    discarded: dict[int, int] = {}
    for s in dealt:
        sf = Fields(seat_docs[s], f"{f.where('seats')}.{s}", _HAND_SEAT)
        seats[s] = Seat(
            s, sf.opt_whole("stack"), sf.whole("bet", 0), sf.flag("folded"), sf.flag("allin")
        )
        committed[s] = sf.whole("committed", 0)
        if sf.has("dead"):
            dead[s] = sf.whole("dead")
        if sf.has("post"):
            posts[s] = sf.whole("post")
        if sf.has("discarded"):
            discarded[s] = sf.whole("discarded")
        cards[s] = [_held(c, f"{sf.where('cards')}[{i}]") for i, c in enumerate(sf.items("cards"))]
    button = f.opt_whole("button")
    layout = None
    if button is not None:
        layout = ButtonLayout(
            button, tuple(dealt), f.opt_whole("small_blind"), f.opt_whole("big_blind")
        )
    hand = Hand(
        number=f.whole("number"),
        spec=spec,
        profile=prof,
        dealt=dealt,
        seats=seats,
        layout=layout,
        terms=Terms(stakes=stakes, carry=f.whole("carry", 0)),
        chips=Chips(committed=committed, dead=dead, posts=posts),
        phase=Phase.ENDED,
        street=f.whole("street", 0),
        result=hand_end_from_dict(f.raw("result"), f.where("result")),
    )
    hand.deal.cards = cards
    hand.discard.unknown = discarded
    hand.deal.board = [card(c, f"{f.where('board')}[{i}]") for i, c in enumerate(f.items("board"))]
    hand.deal.board2 = [
        card(c, f"{f.where('board2')}[{i}]") for i, c in enumerate(f.items("board2"))
    ]
    hand.stud.bring_in_seat = f.opt_whole("bring_in")
    al = hand.alerts
    al.incidents = [
        incident_from_dict(d, f"{f.where('incidents')}[{i}]")
        for i, d in enumerate(f.items("incidents"))
    ]
    al.last_prompt = f.text("last_prompt", "")
    al.floor_call = f.flag("floor_call")
    al.after_hand_draws = f.whole("after_hand_draws", 0)
    if f.flag("cutoff_passed"):
        # What `Hand.cutoff_passed` counts, set so that it says so under every profile.
        hand.bets.voluntary_actions, hand.bets.chip_actions = 3, 1
    elif hand.cutoff_passed():
        raise ResumeError(f"{f.where('cutoff_passed')}: false after the first street")
    return hand


def _held(raw: object, where: str) -> tuple[Card, bool]:
    """A card held face up (its code), or face down (null: which card is not carried; the
    hand is over and nothing reads it, so any card stands in for it)."""
    if raw is None:
        return FACE_DOWN, False
    return card(raw, where), True


# --- the dealer screen's book (`alerts.AlertBook`) ----------------------------------------------


def screen_to_doc(book: AlertBook) -> dict[str, Any]:
    return {
        "deal": book.deal,
        "alerts": [
            {
                "incident": incident_to_dict(r.incident),
                "owner": r.owner.value,
                "deal": r.deal,
                "street": r.street,
            }
            for r in book.raised
        ],
        "prompts": [
            {
                "prompt": prompt_to_dict(p.prompt),
                "deal": p.deal,
                "to_act": p.to_act,
                "irregular": p.irregular,
            }
            for p in book.said
        ],
        "result": hand_end_to_dict(book.result) if book.result is not None else None,
        "result_deal": book.result_deal,
    }


_SCREEN: Final = frozenset({"deal", "alerts", "prompts", "result", "result_deal"})
_ALERT: Final = frozenset({"incident", "owner", "deal", "street"})
_SAID: Final = frozenset({"prompt", "deal", "to_act", "irregular"})


def screen_from_doc(raw: object, where: str, hand: Hand | None) -> AlertBook:
    f = Fields(raw, where, _SCREEN)
    raised = []
    for i, a in enumerate(f.items("alerts")):
        af = Fields(a, f"{f.where('alerts')}[{i}]", _ALERT)
        try:
            owner = AlertOwner(af.text("owner"))
        except ValueError:
            raise ResumeError(f"{af.where('owner')}: unknown owner") from None
        incident = incident_from_dict(af.raw("incident"), af.where("incident"))
        raised.append(RaisedAlert(incident, owner, af.whole("deal"), af.whole("street", 0)))
    said = []
    for i, p in enumerate(f.items("prompts")):
        pf = Fields(p, f"{f.where('prompts')}[{i}]", _SAID)
        prompt = prompt_from_dict(pf.raw("prompt"), pf.where("prompt"))
        said.append(
            SaidPrompt(prompt, pf.whole("deal"), pf.opt_whole("to_act"), pf.flag("irregular"))
        )
    result = f.raw("result")
    return AlertBook(
        deal=f.whole("deal", 0),
        hand=hand,
        raised=raised,
        said=said,
        result=hand_end_from_dict(result, f.where("result")) if result is not None else None,
        result_deal=whole(f.raw("result_deal", -1), f.where("result_deal")),
    )
