"""The journal's code vocabularies: row codes, actor roles, modes, tilts, incident states. Pure.

The enum values are the stable strings stored in the journal; never rename one, only add.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Code(StrEnum):
    """What a journal row records. The prefix names the family."""

    # Input events, exactly as the table produced them (payload: formats.session.event_to_dict).
    INPUT_SETUP = "input.setup"
    INPUT_SEAT = "input.seat"
    INPUT_PUCK = "input.puck"
    INPUT_KEY = "input.key"
    INPUT_DRAW = "input.draw"
    INPUT_ZONE = "input.zone"
    INPUT_CLOCK = "input.clock"  # the tournament clock set (the event's clock, a level's end)
    INPUT_END = "input.end"  # end of input (Table.finish); payload {"type": "end"}
    # Decisions of the rules engine (payload: formats.decisions.decision_to_dict), ref = input seq.
    DECISION_INCIDENT = "decision.incident"
    DECISION_PROMPT = "decision.prompt"
    DECISION_HAND_END = "decision.hand_end"
    DECISION_DRAW = "decision.draw"
    DECISION_ACTION = "decision.action"
    # Derived by the recorder from the engine after an input (re-derived at recovery).
    HAND_START = "table.hand_start"
    ENGINE_FAULT = "station.engine_fault"
    # The table between hands and the operational fold, written with the input that ended a
    # hand (resume_rows): where a start-up resumes. Checked against replay, never re-derived.
    TABLE_RESUME = "table.resume"
    # The station's own life.
    JOURNAL_CREATED = "station.journal_created"
    BOOT = "station.boot"
    RECOVERED = "station.recovered"
    HISTORY_CHECKED = "station.history_checked"  # the journal since the last verified anchor
    SCRUB = "station.scrub"  # the full re-derivation of the journal: progress and result
    CONFIG_LOADED = "station.config_loaded"
    CLOCK_STEP = "clock.step"
    INPUT_REFUSED = "station.input_refused"  # a dealer key the station would not take (not fed)
    WITNESS_STARTED = "station.witness_started"  # the head witness is kept from this row on
    # People and credentials.
    PERSON_ADDED = "people.added"
    PIN_CHANGED = "people.pin_changed"
    ROLE_CHANGED = "people.role_changed"
    PERSON_DISABLED = "people.disabled"
    LOGIN = "auth.login"
    LOGOUT = "auth.logout"
    VERIFIED = "auth.verified"  # a credential checked for one command (CLI, floor screen)
    AUTH_FAILED = "auth.failed"
    LOCKOUT = "auth.lockout"
    AUTH_REFUSED = "auth.refused"  # attempt while locked out, or role not allowed
    MODE_CHANGED = "mode.changed"
    # Escalation, tilts and links.
    FLOOR_CALL_RAISED = "floor.call_raised"
    FLOOR_CALL_CLEARED = "floor.call_cleared"
    TILT_RAISED = "tilt.raised"
    TILT_CLEARED = "tilt.cleared"
    LINK_DOWN = "link.down"
    LINK_UP = "link.up"
    # Incident workflow.
    INCIDENT_RULED = "incident.ruled"
    INCIDENT_REVIEWED = "incident.reviewed"
    INCIDENT_CLOSED = "incident.closed"
    # Access to restricted data.
    RECALL_REVEALED = "recall.revealed"
    # Tournaments: the centre's commands as given, and what the table did about them.
    TOURNAMENT_CLOCK = "tournament.clock"  # the event's clock (its input.clock row: `input`)
    TOURNAMENT_MOVE_ORDERED = "tournament.move_ordered"  # a player to move out (balancing)
    TOURNAMENT_ARRIVAL_ORDERED = "tournament.arrival_ordered"  # a player to seat here
    TOURNAMENT_MOVED_OUT = "tournament.moved_out"  # the seat emptied: he left with his chips
    TOURNAMENT_MOVED_IN = "tournament.moved_in"  # the seat filled: he is seated with his chips
    TOURNAMENT_MOVE_CANCELLED = "tournament.move_cancelled"  # an ordered move called off (why)
    TOURNAMENT_HAND_FOR_HAND = "tournament.hand_for_hand"  # hand-for-hand on or off
    TOURNAMENT_RELEASED = "tournament.released"  # a hand-for-hand round may be dealt
    TOURNAMENT_HOLDING = "tournament.holding"  # the table waits to deal a round's hand
    TOURNAMENT_ROUND_DEALT = "tournament.round_dealt"  # the hand that plays a round
    TOURNAMENT_SEATS_DRAWN = "tournament.seats_drawn"  # the draw's players at this table
    TOURNAMENT_ELIMINATED = "tournament.eliminated"  # players out in a hand, by player


INPUT_CODES: Final = frozenset(
    {
        Code.INPUT_SETUP,
        Code.INPUT_SEAT,
        Code.INPUT_PUCK,
        Code.INPUT_KEY,
        Code.INPUT_DRAW,
        Code.INPUT_ZONE,
        Code.INPUT_CLOCK,
        Code.INPUT_END,
    }
)
INPUT_CODE_BY_TYPE: Final = {
    "setup": Code.INPUT_SETUP,
    "seat": Code.INPUT_SEAT,
    "puck": Code.INPUT_PUCK,
    "key": Code.INPUT_KEY,
    "draw": Code.INPUT_DRAW,
    "zone": Code.INPUT_ZONE,
    "clock": Code.INPUT_CLOCK,
    "end": Code.INPUT_END,
}
DECISION_CODE_BY_TYPE: Final = {
    "incident": Code.DECISION_INCIDENT,
    "prompt": Code.DECISION_PROMPT,
    "hand_end": Code.DECISION_HAND_END,
    "draw": Code.DECISION_DRAW,
    "action": Code.DECISION_ACTION,
}
# Rows the recorder derives from an input row inside the same transaction; recovery re-derives
# them and compares.
DERIVED_CODES: Final = frozenset(
    {*DECISION_CODE_BY_TYPE.values(), Code.HAND_START, Code.ENGINE_FAULT}
)


class ActorRole(StrEnum):
    """The `role` column: a person's role, or the kind of machine that produced the row."""

    DEALER = "dealer"
    FLOOR = "floor"
    TECHNICIAN = "technician"
    ADMIN = "admin"
    DEVICE = "device"  # shoe, bet-zone sensors, key panel, puck and seat sensors
    ENGINE = "engine"  # the rules engine (decisions)
    STATION = "station"  # the station software itself (boot, recovery, tilts it detects)


PERSON_ROLES: Final = frozenset(
    {ActorRole.DEALER, ActorRole.FLOOR, ActorRole.TECHNICIAN, ActorRole.ADMIN}
)
ENGINE_ACTOR: Final = "engine"
STATION_ACTOR: Final = "station"


class Mode(StrEnum):
    PLAY = "play"
    TECHNICIAN = "technician"  # diagnostics; blocks hand play (25 CFR 547.8(b)(3))
    REVIEW = "review"  # floor review / recall on the table screen


class TiltCode(StrEnum):
    """Tilt catalogue (standards-ux requirement 11). Critical ones need a credential to clear."""

    LINK_LOST = "link_lost"
    UNKNOWN_CARD = "unknown_card"
    JOURNAL_INTEGRITY = "journal_integrity"
    REPLAY_MISMATCH = "replay_mismatch"
    ENGINE_FAULT = "engine_fault"
    CONFIG_INVALID = "config_invalid"
    CODE_HASH = "code_hash"
    CLOCK_UNSYNCED = "clock_unsynced"
    STORAGE_FULL = "storage_full"
    TAMPER = "tamper"


CRITICAL_TILTS: Final = frozenset(
    {
        TiltCode.JOURNAL_INTEGRITY,
        TiltCode.REPLAY_MISMATCH,
        TiltCode.ENGINE_FAULT,
        TiltCode.CONFIG_INVALID,
        TiltCode.CODE_HASH,
        TiltCode.STORAGE_FULL,
        TiltCode.TAMPER,
    }
)


class IncidentState(StrEnum):
    OPEN = "open"
    RULED = "ruled"
    REVIEWED = "reviewed"
    CLOSED = "closed"
