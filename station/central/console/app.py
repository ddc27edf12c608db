"""The floor console's web application: server-rendered pages (Jinja2) on Starlette, live
updates by server-sent events, no JavaScript build (one small script for the event stream).
Edge adapter (HTTP; PostgreSQL through a psycopg pool).

Every page needs a signed-in session (cookie); every form carries the session's CSRF token and
is refused without it (and from another origin). What a role may do is
`accounts.may(role, action)`; the pages only offer what the role may do, and the handlers check
it again. Rulings are not written here: they are queued in `commands` for the ingest to send
to the station, which journals them with its own workflow code and answers (`command_queue.py`).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any, Final
from urllib.parse import unquote_to_bytes

import jinja2
import psycopg
from psycopg_pool import ConnectionPool
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from station.central import alarms
from station.central.config import CentralConfig
from station.central.console import (
    accounts,
    command_queue,
    exports,
    floor,
    health,
    room,
    tournaments,
    views,
)
from station.central.console.accounts import Action, Role, Session, SignInError, may, refusal
from station.central.console.health import BrokerProbe
from station.central.console.live import Hub, Listener
from station.central.console.passwords import WeakPasswordError
from station.central.console.records import SEVERITY_NAMES
from station.journal.text import TextError, clean_text

log = logging.getLogger(__name__)

COOKIE: Final = "console_session"
LOGIN_COOKIE: Final = "console_login"
KEEPALIVE_S: Final = 15.0
POOL_WAIT_S: Final = 5.0  # a request waits this long for a database connection, then 503
BIGINT_MAX: Final = 2**63 - 1
NUL_REFUSED: Final = "the request holds a NUL character (%00): nothing is looked up with it"
DATABASE_AWAY: Final = (
    "The central database is not answering (restarting, or unreachable). Nothing was changed:"
    " try again in a few seconds."
)
SESSION_CHECK_S: Final = 60.0
HEADERS: Final = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        b" connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds the security headers to every response (a plain ASGI middleware: it leaves the
    event stream streaming)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in names]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with)


class RefuseNul:
    """A NUL character anywhere in the path or the query is refused with a 400 page before any
    route sees it: PostgreSQL cannot hold one in text, and no table, rule or person has one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _has_nul(scope):
            page = HTMLResponse(
                f"<!doctype html><title>Bad request</title><h1>Bad request</h1><p>{NUL_REFUSED}"
                '</p><p><a href="/map">Back to the floor map</a></p>',
                400,
            )
            await page(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _has_nul(scope: Scope) -> bool:
    raw = scope.get("query_string", b"")
    return "\x00" in scope.get("path", "") or b"\x00" in unquote_to_bytes(raw)


class _SignIn(Exception):  # noqa: N818 (control flow: send the browser to the sign-in page)
    pass


@dataclass
class Console:
    cfg: CentralConfig
    pool: ConnectionPool
    hub: Hub
    templates: Jinja2Templates
    listener: Listener | None
    probe: BrokerProbe
    name: str  # which console (site, host and port): told to the station with each command

    @contextlib.contextmanager
    def conn(self) -> Iterator[views.Conn]:
        with self.pool.connection() as conn:
            yield conn

    # --- helpers on the request thread --------------------------------------------------------

    def session(self, request: Request) -> Session | None:
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        with self.conn() as conn:
            return accounts.session(conn, token, self.cfg.console)

    def need(self, request: Request, action: Action = Action.VIEW) -> Session:
        current = self.session(request)
        if current is None:
            raise _SignIn()
        if not may(current.role, action):
            raise HTTPException(403, refusal(current.role, action))
        return current

    def check_csrf(self, request: Request, form: FormData, current: Session) -> None:
        _check_csrf(request, form, current)

    def address(self, request: Request) -> str:
        return _address(request)

    def render(
        self,
        request: Request,
        name: str,
        current: Session | None,
        status_code: int = 200,
        **context: Any,
    ) -> Response:
        def can(action: str) -> bool:
            return current is not None and may(current.role, Action(action))

        base = {
            "me": current,
            "can": can,
            "csrf": current.csrf if current else "",
            "site": self.cfg.site,
            "age": views.age_text,
            "when": _when,
            "severity_names": SEVERITY_NAMES,
        }
        return self.templates.TemplateResponse(
            request, name, {**base, **context}, status_code=status_code
        )


def _when(at: datetime | str | None) -> str:
    if at is None or at == "":
        return "-"
    if isinstance(at, str):
        try:
            parsed = datetime.fromisoformat(at)
        except ValueError:
            return at
        at = parsed
    return at.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        referer = request.headers.get("referer")
        if referer is None:
            return origin is None  # no header at all: an old client; the token still guards
        origin = "/".join(referer.split("/")[:3])
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def _check_csrf(request: Request, form: FormData, current: Session) -> None:
    given = str(form.get("csrf", ""))
    if not _same_origin(request) or not hmac.compare_digest(given, current.csrf):
        raise HTTPException(403, "this form is out of date or came from elsewhere: reload it")


def _int(text: str | None, default: int = 0) -> int:
    """A whole number from a form or the query; `default` when it is none or out of range
    (PostgreSQL's bigint)."""
    try:
        found = int(text or default)
    except ValueError:
        return default
    return found if abs(found) <= BIGINT_MAX else default


def _filter_time(params: Mapping[str, str], key: str) -> datetime | None:
    """A time filter from the query: None when not given; a 400 naming it when it is not a
    time the console can use (a filter silently dropped would show an unfiltered list)."""
    text = params.get(key, "").strip()
    if not text:
        return None
    found = views.parse_time(text, local=True)
    if found is None:
        raise HTTPException(400, f"{key}: {text[:40]!r} is not a date and time "
                                 f"between 1970 and 9998 (like 2026-11-25T20:00)")  # fmt: skip
    return found


def queue_filter(params: Mapping[str, str]) -> views.QueueFilter:
    state = params.get("state", "active")
    if state not in (*views.STATES, "active", ""):
        raise HTTPException(400, f"state: {state[:40]!r} is not one of "
                                 f"{', '.join((*views.STATES, 'active'))}")  # fmt: skip
    return views.QueueFilter(
        table=params.get("table", "").strip(),
        rule=params.get("rule", "").strip(),
        ruling=params.get("ruling", "").strip(),
        state=state,
        since=_filter_time(params, "since"),
        until=_filter_time(params, "until"),
        person=params.get("person", "").strip(),
        sort=params.get("sort", "severity"),
        offset=max(0, _int(params.get("offset"))),
    )


def create_app(cfg: CentralConfig, *, live: bool = True, pool_size: int = 8) -> Starlette:
    """The console as an ASGI app. `live` runs the notification listener and indexer (one
    per site; the bench and tests may run it themselves)."""
    folder = resources.files("station.central.console")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    templates = Jinja2Templates(env=env)
    # Each connection is checked as it leaves the pool (a cheap round trip): after PostgreSQL
    # restarts, a dead connection is replaced instead of failing the request; while it is down
    # a request waits at most POOL_WAIT_S, then gets the 503 page.
    pool = ConnectionPool(
        cfg.conninfo(),
        min_size=2,
        max_size=pool_size,
        open=False,
        kwargs={"autocommit": True},
        check=ConnectionPool.check_connection,
        timeout=POOL_WAIT_S,
    )
    hub = Hub()
    listener = Listener(cfg.conninfo, hub) if live else None
    probe = BrokerProbe(cfg.host, cfg.port)
    name = f"{cfg.site} console on {socket.gethostname()}:{cfg.console.port}"
    console = Console(cfg, pool, hub, templates, listener, probe, name)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(pool.open, True, 30.0)
        if listener is not None:
            listener.start()
        app.state.console = console
        try:
            yield
        finally:
            if listener is not None:
                await run_in_threadpool(listener.stop)
            await run_in_threadpool(pool.close)

    def handler(
        fn: Callable[[Console, Request], Response], *, form: bool = False
    ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                if form:
                    data = await request.form()
                    refuse_bad_form(data)
                    request.state.form = data
                return await run_in_threadpool(fn, console, request)
            except _SignIn:
                return RedirectResponse("/login", 303)

        return endpoint

    static = StaticFiles(directory=str(folder / "static"))
    routes = [
        Route("/", handler(_home)),
        Route("/login", handler(_login_page), methods=["GET"]),
        Route("/login", _login_post(console), methods=["POST"]),
        Route("/logout", handler(_logout, form=True), methods=["POST"]),
        Route("/map", handler(room.map_page)),
        Route("/map/tables", handler(room.map_tables)),
        Route("/map/health", handler(room.map_health)),
        Route("/health", handler(room.health_page)),
        Route("/tables/{station}", handler(room.table_page)),
        Route("/money", handler(room.money_page)),
        Route("/money/export.csv", handler(room.money_csv)),
        Route("/events", _events(console)),
        Route("/tournaments", handler(tournaments.list_page)),
        Route("/tournaments", handler(tournaments.create, form=True), methods=["POST"]),
        Route("/tournaments/{event}", handler(tournaments.event_page)),
        Route("/tournaments/{event}/live", handler(tournaments.event_live)),
        Route(
            "/tournaments/{event}/{step}", handler(tournaments.step, form=True), methods=["POST"]
        ),
        Route("/incidents", handler(_queue)),
        Route("/incidents/export.csv", handler(_export_csv)),
        Route("/incidents/export.json", handler(_export_json)),
        Route("/incidents/{station}/{incident:int}", handler(_incident)),
        Route("/incidents/{station}/{incident:int}/workflow", handler(_incident_workflow)),
        Route(
            "/incidents/{station}/{incident:int}/{step}",
            handler(_incident_step, form=True),
            methods=["POST"],
        ),
        Route("/tables/{station}/clear-call", handler(_clear_call, form=True), methods=["POST"]),
        Route("/tables/{station}/alarms", handler(_alarms)),
        Route(
            "/tables/{station}/alarms/{alarm:int}/clear",
            handler(_clear_alarm, form=True),
            methods=["POST"],
        ),
        Route("/hands", handler(_hands)),
        Route("/hands/{station}/{hand:int}", handler(_hand)),
        Route("/hands/{station}/{hand:int}/reveal", handler(_reveal, form=True), methods=["POST"]),
        Route(
            "/hands/{station}/{hand:int}/export.phh",
            handler(_hand_phh, form=True),
            methods=["POST"],
        ),
        Route("/hands/{station}/export.phhs", handler(_hands_phh, form=True), methods=["POST"]),
        Route("/audit", handler(_audit)),
        Route("/accounts", handler(_accounts)),
        Route("/accounts", handler(_accounts_post, form=True), methods=["POST"]),
        Route("/healthz", _health(console)),
        Mount("/static", app=static, name="static"),
    ]

    async def forbidden(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return await run_in_threadpool(_error_page, console, request, exc)

    async def database_away(request: Request, exc: Exception) -> Response:
        log.warning("console: %s %s: the database is not answering (%s)", request.method,
                    request.url.path, exc)  # fmt: skip
        page = HTTPException(503, DATABASE_AWAY, headers={"retry-after": "5"})
        return await run_in_threadpool(_error_page, console, request, page)

    async def bad_value(request: Request, exc: Exception) -> Response:
        log.info("console: %s %s refused: %s", request.method, request.url.path, exc)
        page = HTTPException(400, "a value in this request is out of range or not allowed")
        return await run_in_threadpool(_error_page, console, request, page)

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: forbidden,
            psycopg.OperationalError: database_away,
            psycopg.DataError: bad_value,
        },
    )
    app.add_middleware(RefuseNul)
    app.add_middleware(SecurityHeaders)
    return app


def _error_page(console: Console, request: Request, exc: HTTPException) -> Response:
    current = None
    if exc.status_code != 503:  # the database is away: no session to look up
        with contextlib.suppress(Exception):
            current = console.session(request)
    page = console.render(
        request,
        "error.html",
        current,
        status_code=exc.status_code,
        message=exc.detail,
        code=exc.status_code,
    )
    page.headers.update(exc.headers or {})
    return page


def refuse_bad_form(form: FormData) -> None:
    for key, value in form.multi_items():
        if "\x00" in key or (isinstance(value, str) and "\x00" in value):
            raise HTTPException(400, NUL_REFUSED)


# --- sign-in ----------------------------------------------------------------------------------


def _home(console: Console, request: Request) -> Response:
    console.need(request)
    return RedirectResponse("/map", 303)


def _login_page(
    console: Console, request: Request, message: str = "", status: int = 200
) -> Response:
    token = secrets.token_urlsafe(24)
    response = console.render(
        request, "login.html", None, status_code=status, login_token=token, message=message
    )
    response.set_cookie(
        LOGIN_COOKIE,
        token,
        max_age=3600,
        httponly=True,
        samesite="strict",
        secure=console.cfg.console.secure_cookies,
    )
    return response


def _login_post(console: Console) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        form = await request.form()
        refuse_bad_form(form)
        return await run_in_threadpool(_login, console, request, form)

    return endpoint


def _login(console: Console, request: Request, form: FormData) -> Response:
    given = str(form.get("login_token", ""))
    cookie = request.cookies.get(LOGIN_COOKIE, "")
    if not cookie or not _same_origin(request) or not hmac.compare_digest(given, cookie):
        return _login_page(console, request, "The sign-in form was out of date: try again.", 403)
    name = str(form.get("name", "")).strip()[:64]
    password = str(form.get("password", ""))[:500]
    try:
        with console.conn() as conn:
            token, current = accounts.sign_in(
                conn, name, password, console.cfg.console, _address(request)
            )
    except SignInError as exc:
        return _login_page(console, request, str(exc), 401)
    response = RedirectResponse("/map", 303)
    response.set_cookie(
        COOKIE,
        token,
        max_age=console.cfg.console.session_max_h * 3600,
        httponly=True,
        samesite="strict",
        secure=console.cfg.console.secure_cookies,
    )
    response.delete_cookie(LOGIN_COOKIE)
    log.info("console: %s signed in (%s)", current.account, current.role.value)
    return response


def _logout(console: Console, request: Request) -> Response:
    current = console.need(request)
    _check_csrf(request, request.state.form, current)
    with console.conn() as conn:
        accounts.sign_out(conn, current, _address(request))
    response = RedirectResponse("/login", 303)
    response.delete_cookie(COOKIE)
    return response


# --- the map and the live stream --------------------------------------------------------------


def _events(console: Console) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        current = await run_in_threadpool(console.session, request)
        if current is None:
            return PlainTextResponse("sign in first", 401)
        queue = console.hub.subscribe()

        async def stream() -> AsyncIterator[str]:
            import asyncio  # noqa: PLC0415

            loop = asyncio.get_running_loop()
            checked = loop.time()
            try:
                yield "retry: 2000\n\n"
                while True:
                    try:
                        event = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        event = None
                    if loop.time() - checked > SESSION_CHECK_S:
                        checked = loop.time()
                        if await run_in_threadpool(console.session, request) is None:
                            yield "event: signed_out\ndata: {}\n\n"
                            return
                    if event is not None:
                        yield f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
            finally:
                console.hub.unsubscribe(queue)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    return endpoint


def _health(console: Console) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        ready = console.listener is None or console.listener.ready.is_set()
        return PlainTextResponse("ok" if ready else "starting", 200 if ready else 503)

    return endpoint


def _clear_call(console: Console, request: Request) -> Response:
    current = console.need(request, Action.CLEAR_CALL)
    form = request.state.form
    _check_csrf(request, form, current)
    station = request.path_params["station"]
    with console.conn() as conn:
        command_queue.clear_call(
            conn,
            current,
            station,
            _int(str(form.get("seq", ""))),
            str(form.get("note", "")),
            address=_address(request),
            console=console.name,
        )
    back = str(form.get("back") or "/map")
    return RedirectResponse(
        back if back.startswith("/") and not back.startswith("//") else "/map", 303
    )


def _alarms(console: Console, request: Request, message: str = "", status: int = 200) -> Response:
    current = console.need(request)
    station = request.path_params["station"]
    with console.conn() as conn:
        if not alarms.station_known(conn, station):
            raise HTTPException(404, f"no table {station} in the central store")
        found = alarms.of_station(conn, station)
    return console.render(
        request,
        "alarms.html",
        current,
        status_code=status,
        station=station,
        alarms=found,
        message=message,
        may_clear=alarms.MAY_CLEAR,
        reason_max=alarms.REASON_MAX,
    )


def _clear_alarm(console: Console, request: Request) -> Response:
    """Clear a chain alarm with the reason given (the role is checked in `alarms.clear`, which
    records the clearing on the alarm and in the audit log)."""
    current = console.need(request)
    form = request.state.form
    _check_csrf(request, form, current)
    station = request.path_params["station"]
    ident = int(request.path_params["alarm"])
    try:
        with console.conn() as conn:
            found = alarms.get(conn, ident)
            if found is None or found.station != station:
                raise HTTPException(404, f"no alarm {ident} at table {station}")
            alarms.clear(
                conn, ident, person=current.account, role=current.role,
                reason=str(form.get("reason", "")), via=alarms.Via.CONSOLE, station=station,
                address=_address(request),
            )  # fmt: skip
    except alarms.AlarmRefusedError as exc:
        raise HTTPException(403, str(exc)) from None
    except alarms.AlarmError as exc:
        status = 409 if isinstance(exc, alarms.AlarmClearedError) else 400
        return _alarms(console, request, str(exc), status)
    log.info("console: %s cleared alarm %d at %s", current.account, ident, station)
    return RedirectResponse(f"/tables/{station}/alarms#alarm-{ident}", 303)


# --- incidents --------------------------------------------------------------------------------


def _queue(console: Console, request: Request) -> Response:
    current = console.need(request)
    f = queue_filter(request.query_params)
    with console.conn() as conn:
        rows, total = views.queue(conn, f)
        tables = views.station_ids(conn)
        rules = sorted(views.rule_ids(conn))
    return console.render(
        request,
        "queue.html",
        current,
        rows=rows,
        total=total,
        f=f,
        tables=tables,
        rules=rules,
        states=views.STATES,
        limit=views.QUEUE_LIMIT,
        rulings=sorted(views_rulings()),
    )


def views_rulings() -> set[str]:
    from station.central.console.records import SEVERITY  # noqa: PLC0415

    return set(SEVERITY)


def _export_csv(console: Console, request: Request) -> Response:
    return _export(console, request, "csv")


def _export_json(console: Console, request: Request) -> Response:
    return _export(console, request, "json")


def _export(console: Console, request: Request, kind: str) -> Response:
    current = console.need(request, Action.EXPORT)
    f = queue_filter(request.query_params)
    with console.conn() as conn:
        found = views.records(conn, f)
        accounts.audit(
            conn,
            current.account,
            current.role.value,
            f"export.incidents.{kind}",
            target=json.dumps(f.query(), sort_keys=True),
            detail={"incidents": len(found)},
            address=_address(request),
        )
    stamp = datetime.now().astimezone().strftime("%Y%m%d-%H%M%S")
    if kind == "csv":
        body, media = exports.incidents_csv(found), "text/csv; charset=utf-8"
    else:
        body, media = exports.incidents_json(found), "application/json"
    name = f"incidents-{console.cfg.site}-{stamp}.{kind}"
    return Response(
        body,
        media_type=media,
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


def _incident_context(console: Console, request: Request, current: Session) -> dict[str, Any]:
    station = request.path_params["station"]
    incident = int(request.path_params["incident"])
    with console.conn() as conn:
        page = views.incident_page(conn, station, incident)
        if page is None:
            raise HTTPException(404, f"no incident {incident} at table {station}")
        recall = views.load_hand(conn, station, page.record.hand)
        centre = health.centre(conn, console.probe)
        tile = floor.floor_map(conn, centre, console.cfg.console.offline_after_s, station)
    offers = command_queue.offers(page, current)
    return {
        "t": tile[0] if tile else None,
        "page": page,
        "rec": page.record,
        "recall": recall,
        "offers": offers,
        "event_lines": views.event_lines(page.events, recall),
        "rulings": sorted(views_rulings()),
    }


def _incident(console: Console, request: Request) -> Response:
    current = console.need(request)
    return console.render(
        request, "incident.html", current, **_incident_context(console, request, current)
    )


def _incident_workflow(console: Console, request: Request) -> Response:
    current = console.need(request)
    return console.render(
        request, "_workflow.html", current, **_incident_context(console, request, current)
    )


def _incident_step(console: Console, request: Request) -> Response:
    step = request.path_params["step"]
    action = {"rule": Action.RULE, "review": Action.REVIEW, "close": Action.CLOSE}.get(step)
    if action is None:
        raise HTTPException(404, "no such step")
    current = console.need(request, action)
    form = request.state.form
    _check_csrf(request, form, current)
    station = request.path_params["station"]
    incident = int(request.path_params["incident"])
    with console.conn() as conn:
        page = views.incident_page(conn, station, incident)
        if page is None:
            raise HTTPException(404, f"no incident {incident} at table {station}")
        try:
            # Typed text is cleaned as the station cleans it (escape sequences, control and
            # bidirectional characters out), so the console's records and audit read as the
            # journal does.
            fields = {k: clean_text(str(v), k) for k, v in form.items()}
        except TextError as exc:
            raise HTTPException(400, str(exc)) from None
        try:
            command_queue.step(
                conn,
                current,
                page,
                action,
                fields,
                address=_address(request),
                console=console.name,
            )
        except command_queue.StepRefusedError as exc:
            raise HTTPException(409, str(exc)) from None
    return RedirectResponse(f"/incidents/{station}/{incident}", 303)


# --- hands ------------------------------------------------------------------------------------


def _hands(console: Console, request: Request) -> Response:
    current = console.need(request)
    params = request.query_params
    station = params.get("table", "")
    hand = _int(params.get("hand"), 0)
    at = _filter_time(params, "at")
    with console.conn() as conn:
        tables = views.station_ids(conn)
        if station and at is not None and not hand:
            found = views.hand_at(conn, station, at)
            if found is not None:
                return RedirectResponse(f"/hands/{station}/{found}", 303)
        if station and hand:
            return RedirectResponse(f"/hands/{station}/{hand}", 303)
        recent = views.recent_hands(conn, station) if station else []
    return console.render(
        request,
        "hands.html",
        current,
        tables=tables,
        station=station,
        recent=recent,
        at=params.get("at", ""),
        not_found=bool(station and at is not None),
    )


def _hand(console: Console, request: Request, reveal: bool = False) -> Response:
    current = console.need(request)
    station = request.path_params["station"]
    hand = int(request.path_params["hand"])
    with console.conn() as conn:
        recall = views.load_hand(conn, station, hand)
        if recall is None:
            raise HTTPException(404, f"hand {hand} of table {station} is not in the central store")
        incidents = views.incidents_of_hand(conn, station, hand)
    return console.render(
        request,
        "hand.html",
        current,
        station=station,
        recall=recall,
        reveal=reveal,
        incidents=incidents,
        message="",
    )


def _password_again(console: Console, request: Request, current: Session, what: str) -> None:
    """Hole cards need the signed-in person's password again (a wrong one counts towards the
    lockout); the reveal is audited before anything is shown."""
    form = request.state.form
    _check_csrf(request, form, current)
    with console.conn() as conn:
        ok = accounts.check_password(
            conn, current, str(form.get("password", ""))[:500], console.cfg.console,
            purpose=what, address=_address(request),
        )  # fmt: skip
    if not ok:
        raise HTTPException(403, "wrong password: the hole cards stay hidden")


def _reveal(console: Console, request: Request) -> Response:
    current = console.need(request, Action.REVEAL)
    station = request.path_params["station"]
    hand = int(request.path_params["hand"])
    _password_again(console, request, current, f"reveal {station} hand {hand}")
    with console.conn() as conn:
        accounts.audit(
            conn, current.account, current.role.value, "hand.revealed", station=station,
            target=str(hand), address=_address(request),
        )  # fmt: skip
    log.info("console: %s revealed the hole cards of %s hand %d", current.account, station, hand)
    return _hand(console, request, reveal=True)


def _hand_phh(console: Console, request: Request) -> Response:
    """A finished hand as PHH: its hole cards are in it, so the password is asked again and
    the export audited as a reveal (as `station journal export --phh` journals one)."""
    current = console.need(request, Action.EXPORT)
    station = request.path_params["station"]
    hand = int(request.path_params["hand"])
    with console.conn() as conn:
        recall = views.load_hand(conn, station, hand)
    if recall is None:
        raise HTTPException(404, f"hand {hand} of table {station} is not in the central store")
    body, skipped = exports.hands_phh([recall])
    if not body:
        raise HTTPException(409, "; ".join(skipped) or "nothing to export")
    _password_again(console, request, current, f"export {station} hand {hand} as PHH")
    with console.conn() as conn:
        accounts.audit(
            conn, current.account, current.role.value, "export.hands.phh", station=station,
            target=str(hand), detail={"hole_cards": True}, address=_address(request),
        )  # fmt: skip
    return Response(
        body,
        media_type="text/plain; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{station}-hand-{hand}.phh"'},
    )


def _hands_phh(console: Console, request: Request) -> Response:
    """Finished hands `first`..`last` of a table as one PHHS file (password again, audited)."""
    current = console.need(request, Action.EXPORT)
    station = request.path_params["station"]
    form = request.state.form
    first = _int(str(form.get("first", "")), 0)
    last = _int(str(form.get("last", "")), first)
    if first < 1 or last < first or last - first >= 500:
        raise HTTPException(400, "hands first..last: at most 500, in order")
    _password_again(console, request, current, f"export {station} hands {first}-{last} as PHH")
    with console.conn() as conn:
        recalls = [r for h in range(first, last + 1) if (r := views.load_hand(conn, station, h))]
        body, skipped = exports.hands_phhs(recalls)
        accounts.audit(
            conn, current.account, current.role.value, "export.hands.phh", station=station,
            target=f"{first}-{last}", detail={"hands": len(recalls), "skipped": skipped,
                                               "hole_cards": True},
            address=_address(request),
        )  # fmt: skip
    if not body:
        raise HTTPException(409, "; ".join(skipped) or "no finished hand in that range")
    return Response(
        body,
        media_type="text/plain; charset=utf-8",
        headers={
            "content-disposition": f'attachment; filename="{station}-hands-{first}-{last}.phhs"'
        },
    )


# --- audit and accounts -----------------------------------------------------------------------


def _audit(console: Console, request: Request) -> Response:
    current = console.need(request, Action.AUDIT)
    params = request.query_params
    before = _int(params.get("before"), 0) or None
    with console.conn() as conn:
        rows = views.audit_log(
            conn,
            account=params.get("account", ""),
            action=params.get("action", ""),
            before=before,
        )
    return console.render(
        request,
        "audit.html",
        current,
        rows=rows,
        account=params.get("account", ""),
        action=params.get("action", ""),
    )


def _accounts(console: Console, request: Request, message: str = "", status: int = 200) -> Response:
    current = console.need(request, Action.ACCOUNTS)
    with console.conn() as conn:
        found = accounts.list_accounts(conn)
    return console.render(
        request,
        "accounts.html",
        current,
        status_code=status,
        accounts=found,
        roles=[r.value for r in Role],
        message=message,
    )


def _accounts_post(console: Console, request: Request) -> Response:
    current = console.need(request, Action.ACCOUNTS)
    form = request.state.form
    _check_csrf(request, form, current)
    what = str(form.get("what", ""))
    name = str(form.get("name", "")).strip()
    by, role = current.account, current.role.value
    try:
        with console.conn() as conn:
            match what:
                case "add":
                    accounts.add_account(
                        conn,
                        name,
                        Role(str(form.get("role", ""))),
                        str(form.get("password", "")),
                        by=by,
                        by_role=role,
                    )
                case "password":
                    accounts.set_password(
                        conn, name, str(form.get("password", "")), by=by, by_role=role
                    )
                case "unlock":
                    accounts.unlock(conn, name, by=by, by_role=role)
                case "disable" | "enable":
                    accounts.set_active(conn, name, what == "enable", by=by, by_role=role)
                case _:
                    raise accounts.AccountError(f"unknown change {what!r}")
    except (accounts.AccountError, WeakPasswordError, ValueError) as exc:
        return _accounts(console, request, str(exc), 400)
    return _accounts(console, request, f"{name}: done")


__all__ = ["create_app"]
