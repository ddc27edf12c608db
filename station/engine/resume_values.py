"""The decisions in a resume document (`station.engine.resume`), both ways: incidents, prompts
and a hand's end in the public forms of `station replay --json`. Pure.

`station.formats` holds the public codecs; the engine may not import them, and
`tests/engine/test_resume.py` pins these to them. Reading is strict (`station.engine.
resume_fields`): a field of the wrong type, an unknown field or a value the engine does not know
raises `ResumeError` naming where it is; a missing field takes its default. The setup is
`station.engine.resume_setup`; the reader of the document's objects and its plain values (cards,
seats) `station.engine.resume_fields`.
"""

from __future__ import annotations

from typing import Any, Final

from station.engine.decisions import (
    HandEnd,
    Incident,
    PotPart,
    PotResult,
    Prompt,
    PromptCode,
    Ruling,
)
from station.engine.rake import RakeResult
from station.engine.resume_fields import Fields, ResumeError, opt_whole, whole

# --- decisions (the public forms of `station replay --json`) -------------------------------------


def incident_to_dict(d: Incident) -> dict[str, Any]:
    return {
        "type": "incident",
        "hand": d.hand,
        "rule": d.rule,
        "seat": d.seat,
        "ruling": d.ruling.value,
        "text": d.text,
        "event": d.event,
        "seats": list(d.seats),
        "citation": d.citation,
        "events": list(d.events),
    }


_INCIDENT: Final = frozenset(
    {"type", "hand", "rule", "seat", "ruling", "text", "event", "seats", "citation", "events"}
)


def incident_from_dict(raw: object, where: str) -> Incident:
    f = Fields(raw, where, _INCIDENT)
    if f.raw("type") != "incident":
        raise ResumeError(f"{where}: not an incident")
    try:
        ruling = Ruling(f.text("ruling"))
    except ValueError:
        raise ResumeError(f"{f.where('ruling')}: unknown ruling") from None
    return Incident(
        hand=f.whole("hand"),
        rule=f.text("rule"),
        ruling=ruling,
        text=f.text("text"),
        event=f.whole("event"),
        seat=f.opt_whole("seat"),
        seats=tuple(f.wholes("seats")),
        citation=f.text("citation", ""),
        events=tuple(f.wholes("events")),
    )


def prompt_to_dict(d: Prompt) -> dict[str, Any]:
    return {
        "type": "prompt",
        "hand": d.hand,
        "text": d.text,
        "event": d.event,
        "code": d.code.value,
    }


_PROMPT: Final = frozenset({"type", "hand", "text", "event", "code"})


def prompt_from_dict(raw: object, where: str) -> Prompt:
    f = Fields(raw, where, _PROMPT)
    if f.raw("type") != "prompt":
        raise ResumeError(f"{where}: not a prompt")
    try:
        code = PromptCode(f.text("code", PromptCode.INFO.value))
    except ValueError:
        raise ResumeError(f"{f.where('code')}: unknown prompt code") from None
    return Prompt(f.whole("hand"), f.text("text"), f.whole("event"), code)


def _pot_to_dict(p: PotResult, named: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "amount": p.amount,
        "eligible": list(p.eligible),
        "won": {str(s): a for s, a in sorted(p.won.items())},
    }
    if named and p.named:  # the winning hand as announced; an uncontested pot has none
        out["named"] = p.named
    return out


def _split_to_dict(pot: int, part: PotPart, named: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "pot": pot,
        "part": part.name,
        "amount": part.amount,
        "won": {str(s): a for s, a in sorted(part.won.items())},
    }
    if named and part.named:
        out["named"] = part.named
    return out


def rake_to_dict(r: RakeResult) -> dict[str, Any]:
    """`hand_end`'s `rake`: `total` and `pots` (what each pot gave, main pot first) always;
    `time` (seat -> time collected with the hand) and `time_pot` only when they apply."""
    out: dict[str, Any] = {"total": r.total, "pots": list(r.pots)}
    if r.time:
        out["time"] = {str(s): a for s, a in sorted(r.time.items())}
    if r.time_pot:
        out["time_pot"] = True
    return out


def hand_end_to_dict(d: HandEnd, *, named: bool = True) -> dict[str, Any]:
    """A hand's end, as `station replay --json` writes it (`named=False`) and as the resume
    document keeps it (`named`: each pot's and part's winning hand as announced, too).
    `splits` (extension): each pot decided in parts - a hi-lo pot's halves, a double-board
    pot's boards, Drawmaha's Omaha and draw halves - with the pot's index (0 the main pot), the
    part's name, its amount and who won it."""
    out: dict[str, Any] = {
        "type": "hand_end",
        "hand": d.hand,
        "board": list(d.board),
        "pots": [_pot_to_dict(p, named) for p in d.pots],
        "payouts": {str(s): a for s, a in sorted(d.payouts.items())},
        "void": d.void,
        "event": d.event,
        "stacks": {str(s): a for s, a in sorted(d.stacks.items())},
    }
    if d.boards:
        out["boards"] = [list(b) for b in d.boards]
    splits = [_split_to_dict(i, part, named) for i, p in enumerate(d.pots) for part in p.parts]
    if splits:
        out["splits"] = splits
    if d.shown:
        out["shown"] = {str(s): list(c) for s, c in sorted(d.shown.items())}
    if d.rake is not None:
        out["rake"] = rake_to_dict(d.rake)
    if d.carried:
        out["carried"] = d.carried  # a pass-out's antes, for the next deal (JACKS-OR-BETTER)
    if d.eliminated:
        out["eliminated"] = [{"seat": s, "start_stack": c} for s, c in d.eliminated]
    return out


_HAND_END: Final = frozenset(
    {
        "type",
        "hand",
        "board",
        "pots",
        "payouts",
        "void",
        "event",
        "stacks",
        "boards",
        "splits",
        "shown",
        "rake",
        "carried",
        "eliminated",
    }
)
_SPLIT: Final = frozenset({"pot", "part", "amount", "won", "named"})
_ELIMINATED: Final = frozenset({"seat", "start_stack"})
_POT: Final = frozenset({"amount", "eligible", "won", "named"})
_RAKE: Final = frozenset({"total", "pots", "time", "time_pot"})


def _texts(raw: object, where: str) -> tuple[str, ...]:
    if type(raw) is not list or any(type(c) is not str for c in raw):
        raise ResumeError(f"{where}: not a list of card codes")
    return tuple(raw)


def _amounts(f: Fields, key: str) -> dict[int, int]:
    return {s: whole(v, f"{f.where(key)}.{s}") for s, v in f.seat_map(key).items()}


def hand_end_from_dict(raw: object, where: str) -> HandEnd:
    f = Fields(raw, where, _HAND_END)
    if f.raw("type") != "hand_end":
        raise ResumeError(f"{where}: not a hand's end")
    raw_pots = f.items("pots")
    parts: list[list[PotPart]] = [[] for _ in raw_pots]
    for i, raw_split in enumerate(f.items("splits")):
        sf = Fields(raw_split, f"{f.where('splits')}[{i}]", _SPLIT)
        pot = sf.whole("pot")
        if not 0 <= pot < len(raw_pots):
            raise ResumeError(f"{sf.where('pot')}: no pot {pot}")
        parts[pot].append(
            PotPart(sf.text("part"), sf.whole("amount"), _amounts(sf, "won"), sf.text("named", ""))
        )
    pots = []
    for i, p in enumerate(raw_pots):
        pf = Fields(p, f"{f.where('pots')}[{i}]", _POT)
        pots.append(
            PotResult(
                pf.whole("amount"),
                tuple(pf.wholes("eligible")),
                _amounts(pf, "won"),
                pf.text("named", ""),
                tuple(parts[i]),
            )
        )
    rake = None
    rf = f.opt_obj("rake", _RAKE)
    if rf is not None:
        rake = RakeResult(
            total=rf.whole("total"),
            pots=tuple(rf.wholes("pots")),
            time=_amounts(rf, "time"),
            time_pot=rf.flag("time_pot"),
        )
    return HandEnd(
        hand=f.whole("hand"),
        event=f.whole("event"),
        board=_texts(f.raw("board", []), f.where("board")),
        pots=tuple(pots),
        payouts=_amounts(f, "payouts"),
        void=f.flag("void"),
        stacks={
            s: opt_whole(v, f"{f.where('stacks')}.{s}") for s, v in f.seat_map("stacks").items()
        },
        boards=tuple(
            _texts(b, f"{f.where('boards')}[{i}]") for i, b in enumerate(f.items("boards"))
        ),
        shown={s: _texts(v, f"{f.where('shown')}.{s}") for s, v in f.seat_map("shown").items()},
        rake=rake,
        carried=f.whole("carried", 0),
        eliminated=tuple(_eliminated(f)),
    )


def _eliminated(f: Fields) -> list[tuple[int, int]]:
    out = []
    for i, raw in enumerate(f.items("eliminated")):
        e = Fields(raw, f"{f.where('eliminated')}[{i}]", _ELIMINATED)
        out.append((e.whole("seat"), e.whole("start_stack")))
    return out
