"""What the display asks of the core: PIN checks and the floor's and technician's commands,
each journaled with the person who gave it. Application service over the journal; core thread.

The PIN pad asks for a PIN only, while the journal authenticates a name and a PIN: the pad of a
role signs in the person the config names (`[people] floor_pad`/`tech_pad`), or the only
active person with that role. A successful PIN opens a screen session for its role; the
session's credential is kept in memory (never logged or journaled) until the display signs out,
because journal operations such as clearing CALL FLOOR re-check it.

A screen key (CHIP RACE, FORFEIT) is an input, not an operation: the core records it through
the `Recorder` like a panel key, as the person `signed_in` names.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from station.config.model import PeopleConfig
from station.config.registry import format_deck
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
from station.display.pinpad import Role
from station.journal import ActorRole, Authenticated, StationOps, authenticate
from station.journal.exc import AuthError, JournalError, WorkflowError
from station.journal.people import list_people
from station.journal.workflow import incidents, rule

log = logging.getLogger(__name__)

ROLE_ALLOWED = {
    Role.FLOOR: frozenset({ActorRole.FLOOR}),
    Role.TECH: frozenset({ActorRole.TECHNICIAN, ActorRole.ADMIN}),
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
        enrol_dir: Path | None = None,
    ) -> None:
        self.ops = ops
        self.journal = ops.journal
        self.people = people
        self.deck_scan = deck_scan
        self.enrol_dir = enrol_dir
        self.sessions: dict[Role, ScreenSession] = {}
        self.changed = False  # the floor's view of incidents changed (refresh it)

    def pad_person(self, role: Role) -> str | None:
        named = self.people.floor_pad if role is Role.FLOOR else self.people.tech_pad
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

    def check_pin(self, role: Role, pin: str) -> bool:
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

    def signed_in(self, role: Role) -> Authenticated | None:
        """Who holds `role`'s screen session now (None, logged, when nobody does)."""
        session = self._session(role)
        return session.who if session is not None else None

    def _session(self, role: Role) -> ScreenSession | None:
        session = self.sessions.get(role)
        if session is None:
            log.warning("%s command without a signed-in %s", role.value, role.value)
        return session

    def _rule(self, role: Role, hand: int, event: int, rule_id: str, ruling: str | None) -> None:
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
        if self.enrol_dir is None:
            log.warning("deck %s enrolled but no registry folder is configured", deck)
            return
        path = self.enrol_dir / f"enrolled-{deck}.toml"
        path.write_text(format_deck(deck, deck, dict(cards)), encoding="utf-8")
        log.info(
            "deck %s (%d cards) saved to %s: add it to the registry file", deck, len(cards), path
        )
