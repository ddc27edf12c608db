"""What the display asks of the core: PIN checks and the floor's and technician's commands,
each journaled with the person who gave it. Application service over the journal; core thread.

The PIN pad asks for a PIN only, while the journal authenticates a name and a PIN: the pad of a
role signs in the person the config names (`[people] floor_pad`/`tech_pad`), or the only
active person with that role. A successful PIN opens a screen session for its role; the
session's credential is kept in memory (never logged or journaled) until the display signs out,
because journal operations such as clearing CALL FLOOR re-check it.

The dealer's sign-in names the person (picked on the screen): their PIN signs them in as the
table's dealer, a LOGIN row through `StationOps.login` (dealers only, between hands), which
logs the dealer before them out as replaced; a refusal is answered in the words the PIN pad
shows. That session is the journal's (idle logout, the rake report per dealer), not the screen's.

A screen key (CHIP RACE, FORFEIT) is an input, not an operation: the core records it through
the `Recorder` like a panel key, as the person `signed_in` names.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from station.config.model import PeopleConfig
from station.config.registry import DECK_ID, RegistryError, describe, save_deck
from station.daemon.operations import StationOps
from station.display.dealer_signin import (
    AFTER_THIS_HAND,
    NOT_A_DEALER,
    SIGN_IN_PHASES,
    WRONG_PIN,
    locked_words,
)
from station.display.nav import (
    AcknowledgeIncident,
    ClearFloorCall,
    Command,
    PinRejected,
    RuleIncident,
    SaveDeckRegistry,
    SignedIn,
    SignedOut,
    StartDeckScan,
)
from station.display.pinpad import PadAccess
from station.incidents.exc import WorkflowError
from station.incidents.workflow import incidents, rule
from station.journal import ActorRole
from station.journal.exc import JournalError
from station.people.exc import AuthError, LockedOutError, RoleRefusedError
from station.people.staff import Authenticated, authenticate, list_people

log = logging.getLogger(__name__)

ROLE_ALLOWED = {
    PadAccess.FLOOR: frozenset({ActorRole.FLOOR}),
    PadAccess.TECHNICIAN: frozenset({ActorRole.TECHNICIAN, ActorRole.ADMIN}),
    PadAccess.DEALER: frozenset({ActorRole.DEALER}),
}


@dataclass(frozen=True, slots=True)
class ScreenSession:
    who: Authenticated
    pin: str = field(repr=False)


class DisplayCommands:
    def __init__(
        self,
        ops: StationOps,
        people: PeopleConfig,
        *,
        deck_scan: Callable[[], None] | None = None,
        registry_file: Path | None = None,
        deck_back: str = "",
    ) -> None:
        self.ops = ops
        self.journal = ops.journal
        self.people = people
        self.deck_scan = deck_scan
        self.registry_file = registry_file  # where enrolled decks go (the one the station reads)
        self.deck_back = deck_back  # the back colour of the decks in play
        self.sessions: dict[PadAccess, ScreenSession] = {}
        self.changed = False  # the floor's view of incidents changed (refresh it)

    def pad_person(self, role: PadAccess) -> str | None:
        named = self.people.floor_pad if role is PadAccess.FLOOR else self.people.tech_pad
        if named is not None:
            return named
        allowed = ROLE_ALLOWED[role]
        found = [p.name for p in list_people(self.journal) if p.active and p.role in allowed]
        if len(found) == 1:
            return found[0]
        log.warning(
            "%s PIN pad: %d people could sign in; name one in [people] of the config",
            role.value,
            len(found),
        )
        return None

    def dealers(self) -> tuple[str, ...]:
        """The active people with role dealer, by name: whom the sign-in page offers."""
        return tuple(
            p.name for p in list_people(self.journal) if p.active and p.role is ActorRole.DEALER
        )

    def sign_in_dealer(self, name: str, pin: str) -> str:
        """Sign `name` in as the table's dealer: "" when done (the LOGIN is journaled), else
        why not, in the PIN pad's words (each failed attempt journaled by `authenticate`)."""
        if self.ops.recorder.snapshot().phase not in SIGN_IN_PHASES:
            log.info("dealer sign-in of %s refused: a hand is in play", name)
            return AFTER_THIS_HAND
        try:
            self.ops.login(
                name, pin, purpose="dealer sign-in", allowed=ROLE_ALLOWED[PadAccess.DEALER]
            )
        except LockedOutError as exc:
            log.warning("dealer sign-in: %s", exc)
            return locked_words(exc.remaining_s)
        except RoleRefusedError as exc:
            log.warning("dealer sign-in: %s", exc)
            return NOT_A_DEALER
        except AuthError as exc:
            log.warning("dealer sign-in: %s", exc)
            return WRONG_PIN
        return ""

    def check_pin(self, role: PadAccess, pin: str) -> bool:
        if role is PadAccess.DEALER:
            return False  # a dealer signs in by name (`sign_in_dealer`)
        name = self.pad_person(role)
        if name is None:
            return False
        try:
            who = authenticate(
                self.journal, name, pin, purpose=f"{role.value} screen", allowed=ROLE_ALLOWED[role]
            )
        except AuthError as exc:
            log.warning("%s PIN pad: %s", role.value, exc)
            return False
        self.sessions[role] = ScreenSession(who, pin)
        return True

    def handle(self, command: Command) -> None:
        try:
            self._handle(command)
        except (AuthError, WorkflowError) as exc:
            log.warning("display command %s refused: %s", type(command).__name__, exc)
        except JournalError:
            raise  # nothing was recorded: the core stops
        self.changed = True

    def _handle(self, command: Command) -> None:
        match command:
            case SignedIn(role=role):
                log.info("%s screen opened", role.value)
            case SignedOut(role=role):
                self.sessions.pop(role, None)
                log.info("%s screen closed", role.value)
            case PinRejected(role=role):
                log.info("%s PIN pad: PIN refused", role.value)
            case ClearFloorCall(role=role):
                session = self._session(role)
                if session is not None:
                    self.ops.clear_floor_call(session.who.person, session.pin, "cleared at table")
            case AcknowledgeIncident(hand=hand, event=event, rule=rule_id, role=role):
                self._rule(role, hand, event, rule_id, None)
            case RuleIncident(hand=hand, event=event, rule=rule_id, ruling=ruling, role=role):
                self._rule(role, hand, event, rule_id, ruling.value)
            case StartDeckScan():
                if self.deck_scan is not None:
                    self.deck_scan()
                    log.info("deck scan requested")
            case SaveDeckRegistry(deck=deck, cards=cards):
                self._save_deck(deck, cards)

    def signed_in(self, role: PadAccess) -> Authenticated | None:
        """Who holds `role`'s screen session now (None, logged, when nobody does)."""
        session = self._session(role)
        return session.who if session is not None else None

    def _session(self, role: PadAccess) -> ScreenSession | None:
        session = self.sessions.get(role)
        if session is None:
            log.warning("%s command without a signed-in %s", role.value, role.value)
        return session

    def _rule(
        self, role: PadAccess, hand: int, event: int, rule_id: str, ruling: str | None
    ) -> None:
        session = self._session(role)
        if session is None:
            return
        for rec in incidents(self.journal).values():
            if (
                rec.hand == hand
                and rec.rule == rule_id
                and (event in rec.events or event == rec.id)
            ):
                text = ruling if ruling is not None else rec.engine_ruling
                rule(self.journal, rec.id, session.who, text)
                log.info("incident %d ruled %s by %s", rec.id, text, session.who.person)
                return
        log.warning("no incident %s of hand %d at input %d to rule", rule_id, hand, event)

    def _save_deck(self, deck: str, cards: tuple[tuple[str, str], ...]) -> None:
        """Enrolment on the DIAG screen: the deck goes into the registry file the station reads
        (`StationConfig.registry_in_use`), validated and replaced atomically; the running engine
        keeps the registry it started with (a journal replays with one registry), so the deck is
        in use from the next start."""
        path = self.registry_file
        if path is None:
            log.warning("deck %s enrolled but the station has no registry file to write", deck)
            return
        back = self.deck_back or deck
        deck_id = deck if DECK_ID.match(deck) else _free_id(path, back)
        try:
            registry = save_deck(path, deck_id, back, dict(cards))
        except RegistryError as exc:
            log.error("deck %s not saved in the registry %s: %s", deck_id, path, exc)
            return
        except OSError as exc:
            log.error("deck %s not saved in the registry %s: %s", deck_id, path, exc.strerror)
            return
        log.warning(
            "deck %s (%d cards, back %s) saved in the registry %s (%s); in use from the next "
            "start (systemctl restart dealer-station)",
            deck_id,
            len(cards),
            back,
            path,
            describe(registry),
        )


def _free_id(path: Path, back: str) -> str:
    """`BACK-N`, the first N no deck of the registry file uses."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", back).strip("-") or "deck"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    n = 1
    while f'id = "{stem}-{n}"' in text:
        n += 1
    return f"{stem}-{n}"
