"""Screen navigation: a pure state machine fed by taps, keys and clock ticks. Pure.

Inputs are `Tap(x, y)` (touch or mouse, already in panel pixels), `KeyIn(key)` (dealer keys or a
keyboard, as `NavKey` names or digits) and `Tick(at)`. A tap is resolved against the screen model
on show, so what is hit is exactly what was drawn. The output is the next `NavState` plus
`Command`s for the core (acknowledge, rule, clear the floor call, enter a screen key, save a
deck...), which the daemon journals with the role that issued them. PINs are checked by an
injected `verify_pin(role, pin)`; floor and technician screens need their own credential. The
dealer signs in as the table's dealer from the dealer screen (`dealer_signin`: the name, then
the PIN, checked and journaled by the injected `sign_in(name, pin)`, which answers in words
when it refuses). Signed-in screens fall back to the dealer screen (signing out) after
`IDLE_TIMEOUT_S` without input. On a small panel the dealer screen has a second page, SEATS
(every seat's stack and bet), which a touch below its status strip opens and closes and which
closes by itself after `SEATS_TIMEOUT_S`, so the glance numbers are never away for long.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from station.display import floor_keys
from station.display.dealer_layout import ACTION_DETAILS, ACTION_SEATS, ACTION_TABLE
from station.display.diag_view import IO_DOWN, IO_UP, DiagCursor, DiagnosticsData
from station.display.floor_keys import ScreenKey
from station.display.floor_view import FloorCursor, FloorData
from station.display.model import ScreenModel
from station.display.pinpad import DIGITS, PadAccess, PinPadState, press
from station.engine.decisions import Ruling

IDLE_TIMEOUT_S = 120.0
PAGE_ON = "dealer:on"  # a key's "next page": the page turn the screen on show offers
SEATS_TIMEOUT_S = 20.0  # a look at the stacks, then back to the glance numbers


DIAG_PAGES = ("links", "io", "deck", "sys")  # the diagnostics tabs, left to right
# the dealer screen's page turns (small panels)
DEALER_PAGES = (ACTION_SEATS, ACTION_DETAILS, ACTION_TABLE)


class Screen(StrEnum):
    DEALER = "dealer"
    SEATS = "seats"  # the dealer screen's seat page (small panels)
    DETAILS = "details"  # ... and the page with the alerts' texts the first had no room for
    PIN = "pin"
    FLOOR = "floor"
    DIAG = "diag"
    SIGNIN = "signin"  # the dealer's sign-in: the names to pick from


SCREEN_ROLE = {Screen.FLOOR: PadAccess.FLOOR, Screen.DIAG: PadAccess.TECHNICIAN}


class NavKey(StrEnum):
    UP = "UP"
    DOWN = "DOWN"
    LEFT = "LEFT"
    RIGHT = "RIGHT"
    SELECT = "SELECT"  # the dealer panel's CONFIRM
    BACK = "BACK"  # the dealer panel's CANCEL
    FLOOR = "FLOOR_REVIEW"  # open floor review (asks for the floor PIN)
    TECH = "DIAGNOSTICS"  # open diagnostics (asks for the technician PIN)


@dataclass(frozen=True, slots=True)
class Tap:
    x: float
    y: float
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class KeyIn:
    key: str  # a NavKey value or one digit
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Tick:
    at: float


NavInput = Tap | KeyIn | Tick


# commands for the core ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SignedIn:
    role: PadAccess


@dataclass(frozen=True, slots=True)
class SignedOut:
    role: PadAccess


@dataclass(frozen=True, slots=True)
class PinRejected:
    role: PadAccess


@dataclass(frozen=True, slots=True)
class AcknowledgeIncident:
    hand: int
    event: int
    rule: str
    role: PadAccess


@dataclass(frozen=True, slots=True)
class RuleIncident:
    hand: int
    event: int
    rule: str
    ruling: Ruling
    role: PadAccess


@dataclass(frozen=True, slots=True)
class ClearFloorCall:
    role: PadAccess


@dataclass(frozen=True, slots=True)
class StartDeckScan:
    role: PadAccess


@dataclass(frozen=True, slots=True)
class SaveDeckRegistry:
    deck: str
    cards: tuple[tuple[str, str], ...]  # (tag, card code), confirmed by the technician
    role: PadAccess


Command = (
    SignedIn
    | SignedOut
    | PinRejected
    | AcknowledgeIncident
    | RuleIncident
    | ClearFloorCall
    | ScreenKey
    | StartDeckScan
    | SaveDeckRegistry
)

PinVerifier = Callable[[PadAccess, str], bool]
DealerSignIn = Callable[[str, str], str]  # (name, PIN) -> "" signed in, else why not in words


def deny_all(role: PadAccess, pin: str) -> bool:
    """The verifier when none is configured: no credential opens anything."""
    return False


def no_sign_in(name: str, pin: str) -> str:
    """The dealer sign-in when none is configured: nobody signs in."""
    return "NO SIGN-IN AT THIS STATION"


@dataclass(frozen=True, slots=True)
class NavContext:
    verify_pin: PinVerifier = deny_all
    floor: FloorData = field(default_factory=FloorData)
    diag: DiagnosticsData = field(default_factory=DiagnosticsData)
    floor_call: bool = False
    sign_in: DealerSignIn = no_sign_in
    dealers: tuple[str, ...] = ()  # the names the sign-in page shows, in its order
    can_sign_in: bool = True  # between hands (`dealer_signin.SIGN_IN_PHASES`)


@dataclass(frozen=True, slots=True)
class NavState:
    screen: Screen = Screen.DEALER
    pin: PinPadState | None = None
    pending: Screen | None = None  # the screen the PIN pad opens
    role: PadAccess | None = None  # who is signed in
    floor: FloorCursor = field(default_factory=FloorCursor)
    diag: DiagCursor = field(default_factory=DiagCursor)
    signin_top: int = 0  # the first row of names on the sign-in page
    last_input_at: float = 0.0


Outcome = tuple[NavState, tuple[Command, ...]]


def handle(state: NavState, event: NavInput, model: ScreenModel | None, ctx: NavContext) -> Outcome:
    """One input: resolve it to an action against the screen on show, then act."""
    match event:
        case Tick(at=at):
            paged = state.screen in (Screen.SEATS, Screen.DETAILS)
            timeout = SEATS_TIMEOUT_S if paged else IDLE_TIMEOUT_S
            if state.screen is not Screen.DEALER and at - state.last_input_at >= timeout:
                return _to_dealer(state)
            return state, ()
        case Tap(x=x, y=y, at=at):
            action = model.hit(x, y) if model is not None else None
        case KeyIn(key=key, at=at):
            action = key_action(state, key)
            if action == PAGE_ON:  # whichever page the one on show turns to
                turns = [a for a in model.actions() if a in DEALER_PAGES] if model else []
                action = turns[0] if turns else None  # a large panel has one page: no turn
            if action in (IO_UP, IO_DOWN):  # the row to scroll to is on the screen's button
                mine = [a for a in model.actions() if a.startswith(f"{action}:")] if model else []
                action = mine[0] if mine else None
    state = replace(state, last_input_at=at)
    if action is None:
        return state, ()
    return act(state, action, ctx)


def key_action(state: NavState, key: str) -> str | None:
    """What a key means on the current screen."""
    if state.screen is Screen.PIN:
        if len(key) == 1 and key in DIGITS:
            return f"pin:{key}"
        if key == NavKey.SELECT:
            return "pin:ok"
        if key == NavKey.BACK:
            return "pin:del" if state.pin is not None and state.pin.digits else "pin:cancel"
        return None
    if key == NavKey.FLOOR:
        return "nav:floor"
    if key == NavKey.TECH:
        return "nav:diag"
    if state.screen is Screen.FLOOR:
        page = state.floor.page
        if page == "recall":
            recall: dict[str, str | None] = {
                NavKey.LEFT: "recall:prev",
                NavKey.UP: "recall:prev",
                NavKey.RIGHT: "recall:next",
                NavKey.DOWN: "recall:next",
                NavKey.BACK: "floor:back",
            }
            return recall.get(key)
        if page in ("incidents", "hands"):
            lists: dict[str, str | None] = {
                NavKey.UP: "floor:prev",
                NavKey.DOWN: "floor:next",
                NavKey.SELECT: "floor:open",
                NavKey.LEFT: "floor:incidents",
                NavKey.RIGHT: "floor:hands",
                NavKey.BACK: "nav:dealer",
            }
            return lists.get(key)
        if page == "incident":
            detail: dict[str, str | None] = {
                NavKey.SELECT: "incident:ack",
                NavKey.BACK: "floor:back",
                NavKey.UP: "floor:up",
                NavKey.DOWN: "floor:down",
            }
            return detail.get(key)
        if page in ("race", "forfeit-amount"):
            if len(key) == 1 and key in DIGITS:
                return f"entry:{key}"
            if key == NavKey.SELECT:
                return "race:start" if page == "race" else "forfeit:confirm"
            if key == NavKey.BACK:  # as on the PIN pad: a digit first, then the page
                return "entry:del" if state.floor.digits else "floor:back"
            return None
        return "floor:back" if key == NavKey.BACK else None
    if state.screen is Screen.DIAG:
        pages = DIAG_PAGES
        i = pages.index(state.diag.page) if state.diag.page in pages else 0
        diag: dict[str, str | None] = {
            NavKey.LEFT: f"diag:{pages[(i - 1) % len(pages)]}",
            NavKey.RIGHT: f"diag:{pages[(i + 1) % len(pages)]}",
            NavKey.SELECT: "enrol:confirm" if state.diag.page == "deck" else None,
            NavKey.BACK: "nav:dealer",
            NavKey.UP: IO_UP,  # a page that scrolls says to which row (see `handle`)
            NavKey.DOWN: IO_DOWN,
        }
        return diag.get(key)
    if state.screen is Screen.SIGNIN:
        signin: dict[str, str | None] = {
            NavKey.UP: "signin:up",
            NavKey.DOWN: "signin:down",
            NavKey.BACK: "signin:cancel",
        }
        return signin.get(key)
    if state.screen in (Screen.SEATS, Screen.DETAILS):
        if key in (NavKey.UP, NavKey.BACK):
            return ACTION_TABLE
        return PAGE_ON if key == NavKey.DOWN else None
    return PAGE_ON if key == NavKey.DOWN else None  # the dealer screen


def _to_dealer(state: NavState) -> Outcome:
    out: tuple[Command, ...] = (SignedOut(state.role),) if state.role is not None else ()
    return NavState(last_input_at=state.last_input_at), out


def _open(state: NavState, screen: Screen) -> Outcome:
    role = SCREEN_ROLE[screen]
    if state.role is role:
        return replace(state, screen=screen, pin=None, pending=None), ()
    return replace(state, screen=Screen.PIN, pin=PinPadState(role), pending=screen), ()


def act(state: NavState, action: str, ctx: NavContext) -> Outcome:
    """Apply one resolved action ("pin:7", "nav:floor", "incident:ack", ...)."""
    verb, _, arg = action.partition(":")
    match verb:
        case "nav":
            if arg == "dealer":
                return _to_dealer(state)
            if arg == "signin":
                if state.screen not in (Screen.DEALER, Screen.SEATS, Screen.DETAILS):
                    return state, ()
                return replace(state, screen=Screen.SIGNIN, signin_top=0), ()
            return _open(state, Screen.FLOOR if arg == "floor" else Screen.DIAG)
        case "dealer":
            pages = {"table": Screen.DEALER, "seats": Screen.SEATS, "details": Screen.DETAILS}
            dealer = (Screen.DEALER, Screen.SEATS, Screen.DETAILS)
            if arg in pages and state.screen in dealer:
                return replace(state, screen=pages[arg]), ()
            return state, ()
        case "pin":
            return _pin(state, arg, ctx)
        case "signin" if state.screen is Screen.SIGNIN:
            return _signin(state, arg, ctx)
        case "floor" | "incident" | "ruling" | "recall" | "entry" | "race" | "forfeit":
            if state.role is not PadAccess.FLOOR or state.screen is not Screen.FLOOR:
                return state, ()
            return _floor(state, verb, arg, ctx)
        case "diag" | "enrol":
            if state.role is not PadAccess.TECHNICIAN or state.screen is not Screen.DIAG:
                return state, ()
            return _diag(state, verb, arg, ctx)
    return state, ()


def _pin(state: NavState, arg: str, ctx: NavContext) -> Outcome:
    pin = state.pin
    if state.screen is not Screen.PIN or pin is None or state.pending is None:
        return state, ()
    if arg == "cancel":
        return replace(state, screen=Screen.DEALER, pin=None, pending=None), ()
    if arg == "ok" and pin.role is PadAccess.DEALER:
        if not pin.digits:
            return replace(state, pin=replace(pin, message="ENTER YOUR PIN, THEN OK")), ()
        words = ctx.sign_in(pin.person, pin.digits)
        if not words:
            return NavState(last_input_at=state.last_input_at), (SignedIn(PadAccess.DEALER),)
        refused = PinPadState(pin.role, "", words, pin.person)
        return replace(state, pin=refused), (PinRejected(pin.role),)
    if arg == "ok":
        if pin.digits and ctx.verify_pin(pin.role, pin.digits):
            target = state.pending
            fresh = NavState(screen=target, role=pin.role, last_input_at=state.last_input_at)
            signed_out = (SignedOut(state.role),) if state.role is not None else ()
            return fresh, (*signed_out, SignedIn(pin.role))
        wrong = PinPadState(pin.role, "", "WRONG PIN")
        return replace(state, pin=wrong), (PinRejected(pin.role),)
    return replace(state, pin=press(pin, arg.upper())), ()


def _signin(state: NavState, arg: str, ctx: NavContext) -> Outcome:
    """The dealer sign-in page: scroll, cancel, or a name picked (its PIN pad opens)."""
    match arg.split(":"):
        case ["cancel"]:
            return replace(state, screen=Screen.DEALER, signin_top=0), ()
        case ["up" | "down" as way]:
            step = 1 if way == "down" else -1
            return replace(state, signin_top=max(0, state.signin_top + step)), ()
        case ["pick", index] if index.isdigit() and ctx.can_sign_in:
            if int(index) < len(ctx.dealers):
                pad = PinPadState(PadAccess.DEALER, person=ctx.dealers[int(index)])
                return replace(state, screen=Screen.PIN, pin=pad, pending=Screen.DEALER), ()
    return state, ()


def _floor(state: NavState, verb: str, arg: str, ctx: NavContext) -> Outcome:
    cur, data = state.floor, ctx.floor
    role = PadAccess.FLOOR
    incidents, hands = data.incidents, data.hands

    def go(**changes: object) -> Outcome:
        return replace(state, floor=replace(cur, **changes)), ()  # type: ignore[arg-type]

    def clamp(i: int, n: int) -> int:
        return max(0, min(i, n - 1)) if n else 0

    inc = incidents[clamp(cur.incident, len(incidents))] if incidents else None
    if verb in ("entry", "race", "forfeit"):
        page, keys = floor_keys.act(cur, verb, arg)
        return replace(state, floor=page), keys
    match verb, arg:
        case "floor", "incidents":
            return go(page="incidents", top=0)
        case "floor", "hands":
            return go(page="hands", top=0)
        case "floor", "race" | "forfeit":
            return replace(state, floor=floor_keys.open_page(cur, arg)), ()
        case "floor", "clear_call":
            return state, (ClearFloorCall(role),) if ctx.floor_call else ()
        case "floor", "back":
            if cur.page in floor_keys.BACK:
                return replace(
                    state, floor=floor_keys.open_page(cur, floor_keys.BACK[cur.page])
                ), ()
            back = {"incident": "incidents", "ruling": "incident", "recall": "hands"}
            if cur.page in back:
                return go(page=back[cur.page], top=0)
            return _to_dealer(state)
        case "floor", "up" | "down":
            step = -4 if arg == "up" else 4
            return go(top=max(0, cur.top + step))
        case "floor", "prev" | "next":
            d = -1 if arg == "prev" else 1
            if cur.page == "hands":
                return go(hand=clamp(cur.hand + d, len(hands)))
            return go(incident=clamp(cur.incident + d, len(incidents)))
        case "floor", "open":
            if cur.page == "hands" and hands:
                return go(page="recall", step=0)
            if cur.page == "incidents" and incidents:
                return go(page="incident", top=0)
            return state, ()
        case "floor", _ if arg.startswith("incident:"):
            index = clamp(int(arg.split(":")[1]), len(incidents))
            return go(page="incident", incident=index, top=0)
        case "floor", _ if arg.startswith("scroll:") and arg[7:].isdigit():
            return go(top=int(arg[7:]))
        case "floor", _ if arg.startswith("hand:"):
            return go(page="recall", hand=clamp(int(arg.split(":")[1]), len(hands)), step=0)
        case "incident", "ack" if inc is not None:
            return state, (AcknowledgeIncident(inc.hand, inc.event, inc.rule, role),)
        case "incident", "uphold" if inc is not None:
            try:
                ruling = Ruling(inc.ruling)
            except ValueError:
                return state, ()
            return state, (RuleIncident(inc.hand, inc.event, inc.rule, ruling, role),)
        case "incident", "change" if inc is not None:
            return go(page="ruling", top=0)
        case "ruling", _ if inc is not None and arg in Ruling.__members__.values():
            new, _ = go(page="incident", top=0)
            return new, (RuleIncident(inc.hand, inc.event, inc.rule, Ruling(arg), role),)
        case "recall", _ if hands:
            n = len(hands[clamp(cur.hand, len(hands))].steps)
            target = {"first": 0, "prev": cur.step - 1, "next": cur.step + 1, "last": n - 1}
            if arg in target:
                return go(step=clamp(target[arg], n))
    return state, ()


def _diag(state: NavState, verb: str, arg: str, ctx: NavContext) -> Outcome:
    cur = state.diag
    role = PadAccess.TECHNICIAN
    enrol = ctx.diag.enrolment

    def go(**changes: object) -> Outcome:
        return replace(state, diag=replace(cur, **changes)), ()  # type: ignore[arg-type]

    if verb == "diag" and arg in DIAG_PAGES:
        return go(page=arg, top=0)
    row = arg.partition(":")[2]
    if verb == "diag" and arg.startswith(("up:", "down:")) and row.isdigit():
        return go(top=int(row))
    if verb != "enrol":
        return state, ()
    if arg == "scan":
        new, _ = go(page="deck", confirmed=0, rejected=())
        return new, (StartDeckScan(role),)
    if enrol is None:
        return state, ()
    n = len(enrol.scanned)
    if arg == "confirm" and cur.confirmed < n:
        return go(confirmed=cur.confirmed + 1)
    if arg == "reject" and cur.confirmed < n:
        return go(confirmed=cur.confirmed + 1, rejected=(*cur.rejected, cur.confirmed))
    if arg == "save" and n and cur.confirmed >= n and not cur.rejected and not enrol.scanning:
        return state, (SaveDeckRegistry(enrol.deck, enrol.scanned, role),)
    return state, ()
