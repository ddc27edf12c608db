"""The console's tournament pages: the list of events and the form that creates one, an event's
live view (the clock, players left, average stack, tables and seats, moves, hand-for-hand, the
finishing order with a link to each elimination's hand, payouts by place, the draws and their
seeds), and the floor's steps (draw the seats, start, pause and resume the clock, hand-for-hand
on and off). Edge adapter (HTTP handlers on the console's request threads).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, Final

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from station.central.console import accounts
from station.central.console.accounts import Action
from station.central.tournament import board, store
from station.central.tournament.rules import RULES
from station.engine.games import GAMES

if TYPE_CHECKING:
    from station.central.console.app import Console

EXAMPLE_STRUCTURE: Final = json.dumps(
    {
        "levels": [
            {"sb": 25, "bb": 50, "minutes": 20},
            {"sb": 50, "bb": 100, "ante": 100, "ante_type": "bb", "minutes": 20},
            {"break": True, "minutes": 10, "colour_up": 25, "colour_up_to": 100},
            {"sb": 100, "bb": 200, "ante": 200, "ante_type": "bb", "minutes": 20},
        ]
    },
    indent=1,
)
_SPLIT: Final = re.compile(r"[\s,;]+")


def list_page(console: Console, request: Request, message: str = "", status: int = 200,
              form: dict[str, str] | None = None) -> Response:  # fmt: skip
    current = console.need(request)
    with console.conn() as conn:
        found = board.events(conn)
    return console.render(
        request,
        "tournaments.html",
        current,
        status_code=status,
        events=found,
        message=message,
        profiles=list(RULES),
        games=sorted(GAMES),
        form=form or {"structure": EXAMPLE_STRUCTURE, "profile": "RR11", "game": "nlhe",
                      "seats": "9", "start_chips": "10000"},
    )  # fmt: skip


def create(console: Console, request: Request) -> Response:
    current = console.need(request, Action.TOURNAMENT)
    form = request.state.form
    console.check_csrf(request, form, current)
    values = {k: str(v) for k, v in form.items() if k != "csrf"}
    try:
        spec = spec_from_form(form)
        with console.conn() as conn:
            store.create(conn, spec, current.account)
            accounts.audit(
                conn, current.account, current.role.value, "tournament.created",
                target=spec.id, detail={"tables": [s for s, _ in spec.tables],
                                        "entrants": len(spec.entrants), "profile": spec.profile},
                address=console.address(request),
            )  # fmt: skip
    except store.EventError as exc:
        return list_page(console, request, str(exc), 400, values)
    return RedirectResponse(f"/tournaments/{spec.id}", 303)


def spec_from_form(form: FormData) -> store.EventSpec:
    """The event the form describes (raises EventError naming the field that is wrong)."""

    def text(key: str) -> str:
        return str(form.get(key, "")).strip()

    try:
        seats = int(text("seats") or "0")
        chips = int(text("start_chips") or "0")
        prizes = [int(p) for p in _SPLIT.split(text("prizes")) if p]
    except ValueError:
        raise store.EventError("seats, starting chips and prizes are whole numbers") from None
    try:
        raw = json.loads(text("structure") or "null")
    except json.JSONDecodeError as exc:
        raise store.EventError(f"structure: not JSON ({exc.msg}, line {exc.lineno})") from None
    structure = {"levels": raw} if isinstance(raw, list) else raw
    if not isinstance(structure, dict) or "levels" not in structure:
        raise store.EventError('structure: {"levels": [...]}')
    entrants: list[tuple[str, str]] = []
    for i, line in enumerate(text("entrants").splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        if len(words) > 1 and store.NAME.fullmatch(words[0]) and any(c.isdigit() for c in words[0]):
            entrants.append((words[0], " ".join(words[1:])))
        else:
            entrants.append((f"P{i:03d}", " ".join(words)))
    tables = [(s, seats) for s in _SPLIT.split(text("tables")) if s]
    return store.EventSpec(
        id=text("id"),
        title=text("title"),
        profile=text("profile"),
        game=text("game"),
        structure=structure,
        start_chips=chips,
        tables=tables,
        entrants=entrants,
        prizes=prizes,
        redraw_at_three=form.get("redraw_at_three") is not None,
    )


def _board(console: Console, request: Request) -> tuple[Any, board.Board]:
    current = console.need(request)
    event = request.path_params["event"]
    with console.conn() as conn:
        found = board.board(conn, event)
    if found is None:
        raise HTTPException(404, f"no tournament {event} in the central store")
    return current, found


def event_page(
    console: Console, request: Request, message: str = "", status: int = 200
) -> Response:
    current, found = _board(console, request)
    return console.render(
        request, "tournament.html", current, status_code=status, b=found, message=message
    )


def event_live(console: Console, request: Request) -> Response:
    """The live part alone: the page fetches it when the event changes."""
    current, found = _board(console, request)
    return console.render(request, "_tournament.html", current, b=found)


STEPS: Final = ("draw", "start", "pause", "resume", "h4h-on", "h4h-off")


def step(console: Console, request: Request) -> Response:
    current = console.need(request, Action.TOURNAMENT)
    form = request.state.form
    console.check_csrf(request, form, current)
    event = request.path_params["event"]
    what = request.path_params["step"]
    if what not in STEPS:
        raise HTTPException(404, "no such step")
    detail: dict[str, Any] = {}
    try:
        with console.conn() as conn:
            match what:
                case "draw":
                    detail["seed"] = store.draw(conn, event, current.account,
                                                str(form.get("seed", "")))  # fmt: skip
                case "start" | "pause" | "resume":
                    store.set_clock(conn, event, what, current.account)
                case _:
                    detail["round"] = store.hand_for_hand(
                        conn, event, what == "h4h-on", current.account
                    )
            accounts.audit(
                conn, current.account, current.role.value, f"tournament.{what}", target=event,
                detail=detail, address=console.address(request),
            )  # fmt: skip
    except store.EventError as exc:
        return event_page(console, request, str(exc), 409)
    return RedirectResponse(f"/tournaments/{event}", 303)
