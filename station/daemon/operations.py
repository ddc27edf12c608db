"""Operational commands of the daemon's core: log in and out, change mode, raise and clear CALL
FLOOR and tilts, report links and config. Application service over the journal (edge).

Every command is one journal transaction; the operational state (`Recorder.ops`) follows from
the committed rows, so whatever is shown after a command is already on record, and a restart
rebuilds the same state by replay. Credentials are checked by `people.authenticate`, which
journals failures and lockouts itself.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable, Mapping
from typing import Final

from station.incidents.exc import TransitionError
from station.journal.codes import (
    PERSON_ROLES,
    STATION_ACTOR,
    ActorRole,
    Code,
    Mode,
    TiltCode,
)
from station.journal.ops import tilt_key
from station.journal.recorder import Recorder
from station.journal.rows import Entry, LogRow
from station.journal.text import TextError, clean_text
from station.people.staff import Authenticated, authenticate

log = logging.getLogger(__name__)

IDLE_LOGOUT_S: Final = 120.0  # standards-ux requirement 30
STORAGE_RESERVE_BYTES: Final = 256 * 2**20  # requirement 7: block new hands rather than drop
# data. About three weeks of a busy table's journal (some 13 MB a day), so the technician has
# time; the disk itself may be much larger.
F, T, A = ActorRole.FLOOR, ActorRole.TECHNICIAN, ActorRole.ADMIN
MODE_ROLES: Final = {
    Mode.TECHNICIAN: frozenset({T, A}),
    Mode.REVIEW: frozenset({F, A}),
    Mode.PLAY: frozenset({F, T, A}),
}


class StationOps:
    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.journal = recorder.journal
        self._active_ns: dict[str, int] = {}

    # --- sessions -----------------------------------------------------------------------------

    def login(
        self,
        name: str,
        pin: str,
        *,
        purpose: str = "login",
        allowed: Iterable[ActorRole] = PERSON_ROLES,
    ) -> Authenticated:
        """Start a session. A dealer logging in replaces the dealer before them. `allowed`
        narrows who may (the dealer screen's sign-in: dealers only)."""
        who = authenticate(self.journal, name, pin, purpose=purpose, allowed=allowed)
        entries: list[Entry] = []
        if who.role is ActorRole.DEALER:
            previous = self.recorder.ops.state().dealer
            if previous is not None and previous != name:
                entries.append(_logout(previous, ActorRole.DEALER, "replaced"))
        entries.append(who.entry(Code.LOGIN, {"person": name, "role": who.role.value}))
        self.journal.append(entries)
        self._active_ns[name] = self.journal.clock.monotonic_ns()
        log.info("%s logged in as %s", name, who.role.value)
        return who

    def logout(self, name: str, reason: str = "logout") -> LogRow | None:
        session = self.recorder.ops.state().sessions.get(name)
        if session is None:
            return None
        self._active_ns.pop(name, None)
        log.info("%s logged out (%s)", name, reason)
        return self.journal.append([_logout(name, ActorRole(session.role), reason)])[0]

    def touch(self, name: str) -> None:
        """The person did something at the station: their idle timer restarts."""
        self._active_ns[name] = self.journal.clock.monotonic_ns()

    def table_active(self) -> None:
        """The table recorded an input: that is the signed-in dealer's activity (a dealer
        dealing is never idle, though their hands are on the cards, not the screen)."""
        for session in self.recorder.ops.sessions.values():
            if session.role == ActorRole.DEALER:
                self._active_ns[session.person] = self.journal.clock.monotonic_ns()

    def expire_idle(self) -> list[str]:
        """End sessions idle longer than IDLE_LOGOUT_S. Sessions rebuilt after a restart count
        as active from the first call after it."""
        now = self.journal.clock.monotonic_ns()
        ended = []
        for name in list(self.recorder.ops.state().sessions):
            since = self._active_ns.setdefault(name, now)
            if (now - since) / 1e9 > IDLE_LOGOUT_S:
                self.logout(name, "idle")
                ended.append(name)
        return ended

    # --- mode ---------------------------------------------------------------------------------

    def set_mode(self, mode: Mode, name: str, pin: str) -> LogRow:
        who = authenticate(
            self.journal, name, pin, purpose=f"mode {mode.value}", allowed=MODE_ROLES[mode]
        )
        previous = self.recorder.ops.state().mode
        rows = self.journal.append(
            [
                who.entry(
                    Code.MODE_CHANGED,
                    {"mode": mode.value, "previous": previous.value, "person": name},
                ),
            ]
        )
        log.info("mode %s -> %s by %s", previous.value, mode.value, name)
        return rows[-1]

    # --- CALL FLOOR ---------------------------------------------------------------------------

    def raise_floor_call(self, actor: str, role: ActorRole, reason: str) -> LogRow | None:
        if self.recorder.ops.floor_call is not None:
            return None
        log.warning("CALL FLOOR raised (%s)", reason)
        entry = Entry(Code.FLOOR_CALL_RAISED, {"reason": reason}, actor, role)
        return self.journal.append([entry])[0]

    def clear_floor_call(self, name: str, pin: str, note: str = "") -> LogRow:
        """Only a floor credential clears CALL FLOOR."""
        call = self.recorder.ops.floor_call
        if call is None:
            raise TransitionError("there is no CALL FLOOR to clear")
        who = authenticate(self.journal, name, pin, purpose="clear CALL FLOOR", allowed={F})
        return self.clear_floor_call_as(who, note)

    def clear_floor_call_as(
        self, who: Authenticated, note: str = "", via: Mapping[str, object] | None = None
    ) -> LogRow:
        """Clear CALL FLOOR for a floor person whose credential was checked elsewhere (the
        floor console's sign-in); `via` adds keys to the row's payload (`{"via": "console",
        "command": N}`)."""
        call = self.recorder.ops.floor_call
        if call is None:
            raise TransitionError("there is no CALL FLOOR to clear")
        if who.role is not F:
            raise TransitionError(f"{who.person} is {who.role.value}: only a floor person clears")
        payload = {"raised_seq": call.seq, "note": _note(note), **(via or {})}
        rows = self.journal.append([who.entry(Code.FLOOR_CALL_CLEARED, payload)])
        log.info("CALL FLOOR cleared by %s", who.person)
        return rows[-1]

    # --- tilts and links ----------------------------------------------------------------------

    def raise_tilt(self, code: TiltCode, detail: str = "", device: str | None = None) -> LogRow:
        log.warning("tilt %s raised", tilt_key(code.value, device))
        payload: dict[str, object] = {"tilt": code.value, "detail": detail}
        if device is not None:
            payload["device"] = device
        entry = Entry(Code.TILT_RAISED, payload, STATION_ACTOR, ActorRole.STATION)
        return self.journal.append([entry])[0]

    def clear_tilt(self, key: str, name: str, pin: str, note: str = "") -> LogRow:
        """A floor or technician credential clears a tilt (critical or not)."""
        tilt = self.recorder.ops.tilts.get(key)
        if tilt is None:
            raise TransitionError(f"there is no open tilt {key}")
        who = authenticate(self.journal, name, pin, purpose=f"clear tilt {key}", allowed={F, T})
        payload: dict[str, object] = {"tilt": tilt.code, "note": _note(note)}
        if ":" in key:
            payload["device"] = key.split(":", 1)[1]
        rows = self.journal.append([who.entry(Code.TILT_CLEARED, payload)])
        log.info("tilt %s cleared by %s", key, name)
        return rows[-1]

    def link_down(self, device: str, detail: str = "", *, never_up: bool = False) -> LogRow:
        """The device's link is down: lost, or (`never_up`) never came up since the start."""
        if never_up:
            log.warning("%s not connected (no link since the start: %s)", device, detail)
        else:
            log.warning("link to %s lost", device)
        entry = Entry(
            Code.LINK_DOWN, {"device": device, "detail": detail}, device, ActorRole.DEVICE
        )
        return self.journal.append([entry])[0]

    def link_up(self, device: str, detail: str = "") -> LogRow:
        log.info("link to %s up", device)
        entry = Entry(Code.LINK_UP, {"device": device, "detail": detail}, device, ActorRole.DEVICE)
        return self.journal.append([entry])[0]

    def config_loaded(self, path: str, sha256: str, version: str | None = None) -> LogRow:
        payload = {"path": path, "sha256": sha256, "version": version}
        entry = Entry(Code.CONFIG_LOADED, payload, STATION_ACTOR, ActorRole.STATION)
        return self.journal.append([entry])[0]

    def check_storage(
        self, reserve_bytes: int = STORAGE_RESERVE_BYTES, tilt_at: float = 1.0
    ) -> LogRow | None:
        """Raise the storage tilt when the journal's disk has less than `reserve_bytes` free
        or is at least `tilt_at` full (a critical tilt: new hands stop rather than data being
        dropped); while it is open, nothing more is said."""
        usage = shutil.disk_usage(self.journal.path.parent)
        used = 1 - usage.free / usage.total if usage.total else 1.0
        low = usage.free < reserve_bytes or used >= tilt_at
        if not low or TiltCode.STORAGE_FULL.value in self.recorder.ops.tilts:
            return None
        free_mb = usage.free / 2**20
        return self.raise_tilt(
            TiltCode.STORAGE_FULL,
            f"{free_mb:.0f} MB free on the journal's disk ({used:.0%} used): free space",
        )


def _logout(name: str, role: ActorRole, reason: str) -> Entry:
    return Entry(Code.LOGOUT, {"person": name, "reason": reason}, name, role)


def _note(text: str) -> str:
    try:
        return clean_text(text, "the note")
    except TextError as exc:
        raise TransitionError(str(exc)) from None
