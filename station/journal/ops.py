"""Operational state that is not engine state: mode, who is logged in, an open CALL FLOOR, open
tilts. A fold over journal rows, so a restart rebuilds it by replay exactly. Pure.

- CALL FLOOR opens on a `floor.call_raised` row, on a FLOOR key press and on an engine incident
  whose ruling is `floor`; only a `floor.call_cleared` row (a floor credential) closes it.
- Tilts open on `tilt.raised`, `link.down` (one per device) and `station.engine_fault`; they close
  on `tilt.cleared` or, for a link, `link.up`. Critical tilts block play until a floor or
  technician credential clears them (standards-ux requirement 12).
- Technician mode blocks hand play (25 CFR 547.8(b)(3)).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from station.journal.codes import CRITICAL_TILTS, ActorRole, Code, Mode, TiltCode
from station.journal.rows import LogRow


@dataclass(frozen=True, slots=True)
class SessionInfo:
    person: str
    role: str
    since_seq: int
    since_utc: str


@dataclass(frozen=True, slots=True)
class FloorCall:
    seq: int  # the row that raised it
    hand: int
    reason: str
    raised_utc: str


@dataclass(frozen=True, slots=True)
class OpenTilt:
    key: str  # the tilt code, or "link_lost:<device>"
    code: str
    detail: str
    critical: bool
    seq: int
    raised_utc: str


@dataclass(frozen=True, slots=True)
class OpState:
    mode: Mode = Mode.PLAY
    sessions: Mapping[str, SessionInfo] = field(default_factory=dict)
    floor_call: FloorCall | None = None
    tilts: Mapping[str, OpenTilt] = field(default_factory=dict)
    last_seq: int = 0

    @property
    def dealer(self) -> str | None:
        """The person logged in as the table's dealer, if any."""
        for s in self.sessions.values():
            if s.role == ActorRole.DEALER:
                return s.person
        return None

    @property
    def why_play_stops(self) -> tuple[str, ...]:
        """Why hand play must not go on now (empty when it may)."""
        reasons: list[str] = []
        if self.mode is Mode.TECHNICIAN:
            reasons.append("technician mode")
        if self.floor_call is not None:
            reasons.append("CALL FLOOR")
        reasons.extend(f"tilt {t.key}" for t in self.tilts.values() if t.critical)
        return tuple(reasons)


_DEVICE_INPUTS: Final = frozenset({Code.INPUT_DRAW, Code.INPUT_ZONE})


def tilt_key(code: str, device: str | None = None) -> str:
    return f"{code}:{device}" if device else code


class OpsTracker:
    """Folds rows into the operational state, one at a time."""

    def __init__(self) -> None:
        self.mode = Mode.PLAY
        self.sessions: dict[str, SessionInfo] = {}
        self.floor_call: FloorCall | None = None
        self.tilts: dict[str, OpenTilt] = {}
        self.last_seq = 0
        # device -> serial -> the highest event id journaled from it (a device row's actor is
        # `device:serial:event_id`): where a restarted station resumes each device's events.
        self.device_events: dict[str, dict[str, int]] = {}

    def copy(self) -> OpsTracker:
        """An independent fold in the same state (the records it holds are immutable)."""
        other = OpsTracker()
        other.mode, other.floor_call, other.last_seq = self.mode, self.floor_call, self.last_seq
        other.sessions, other.tilts = dict(self.sessions), dict(self.tilts)
        other.device_events = {d: dict(per) for d, per in self.device_events.items()}
        return other

    def to_doc(self) -> dict[str, Any]:
        """The fold as the `ops` part of a `table.resume` row (JOURNAL.md, "The resume
        document"): mode, sessions, CALL FLOOR, open tilts, each device's resume cursor."""
        fc = self.floor_call
        return {
            "mode": self.mode.value,
            "sessions": {
                p: {"role": s.role, "since_seq": s.since_seq, "since_utc": s.since_utc}
                for p, s in sorted(self.sessions.items())
            },
            "floor_call": None
            if fc is None
            else {"seq": fc.seq, "hand": fc.hand, "reason": fc.reason, "raised_utc": fc.raised_utc},
            "tilts": {
                k: {
                    "code": t.code,
                    "detail": t.detail,
                    "critical": t.critical,
                    "seq": t.seq,
                    "raised_utc": t.raised_utc,
                }
                for k, t in sorted(self.tilts.items())
            },
            "devices": {
                d: dict(sorted(per.items())) for d, per in sorted(self.device_events.items())
            },
        }

    @classmethod
    def from_doc(cls, doc: object, last_seq: int) -> OpsTracker:
        """The fold `to_doc` wrote, as it stood after row `last_seq`; ValueError naming the
        first field that is not what `to_doc` writes."""
        ops = cls()
        ops.last_seq = last_seq
        d = _obj(doc, "ops", {"mode", "sessions", "floor_call", "tilts", "devices"})
        try:
            ops.mode = Mode(d.get("mode", Mode.PLAY.value))
        except ValueError:
            raise ValueError(f"ops.mode: unknown mode {d.get('mode')!r}") from None
        for person, raw in _obj(d.get("sessions", {}), "ops.sessions", None).items():
            s = _obj(raw, f"ops.sessions.{person}", {"role", "since_seq", "since_utc"})
            ops.sessions[person] = SessionInfo(
                person, _text(s, "role"), _int(s, "since_seq"), _text(s, "since_utc")
            )
        raw_fc = d.get("floor_call")
        if raw_fc is not None:
            fc = _obj(raw_fc, "ops.floor_call", {"seq", "hand", "reason", "raised_utc"})
            ops.floor_call = FloorCall(
                _int(fc, "seq"), _int(fc, "hand"), _text(fc, "reason"), _text(fc, "raised_utc")
            )
        for key, raw in _obj(d.get("tilts", {}), "ops.tilts", None).items():
            t = _obj(raw, f"ops.tilts.{key}", {"code", "detail", "critical", "seq", "raised_utc"})
            critical = t.get("critical")
            if type(critical) is not bool:
                raise ValueError(f"ops.tilts.{key}.critical: not true or false")
            ops.tilts[key] = OpenTilt(
                key, _text(t, "code"), _text(t, "detail"), critical, _int(t, "seq"),
                _text(t, "raised_utc"),
            )  # fmt: skip
        for device, raw in _obj(d.get("devices", {}), "ops.devices", None).items():
            per = _obj(raw, f"ops.devices.{device}", None)
            ops.device_events[device] = {serial: _int(per, serial) for serial in per}
        return ops

    def state(self) -> OpState:
        return OpState(
            mode=self.mode,
            sessions=MappingProxyType(dict(self.sessions)),
            floor_call=self.floor_call,
            tilts=MappingProxyType(dict(self.tilts)),
            last_seq=self.last_seq,
        )

    def apply(self, row: LogRow) -> None:
        self.last_seq = row.seq
        code = row.code
        if row.role == ActorRole.DEVICE and code in _DEVICE_INPUTS:
            self._device_event(row.actor)
        elif code == Code.INPUT_KEY:
            if '"FLOOR"' in row.payload and row.data().get("key") == "FLOOR":
                self._raise_floor(row, "FLOOR key")
        elif code == Code.DECISION_INCIDENT:
            d = row.data()
            if d.get("ruling") == "floor":
                self._raise_floor(row, f"incident {d.get('rule')}")
        elif code in _HANDLERS:
            _HANDLERS[code](self, row)

    def _device_event(self, actor: str) -> None:
        device, _, rest = actor.partition(":")
        serial, _, event_id = rest.partition(":")
        if serial and event_id.isdigit():
            per = self.device_events.setdefault(device, {})
            per[serial] = max(per.get(serial, 0), int(event_id))

    def _raise_floor(self, row: LogRow, reason: str) -> None:
        if self.floor_call is None:
            self.floor_call = FloorCall(row.seq, row.hand, reason, row.recorded_utc)

    def _floor_raised(self, row: LogRow) -> None:
        self._raise_floor(row, str(row.data().get("reason", "")))

    def _floor_cleared(self, row: LogRow) -> None:
        self.floor_call = None

    def _login(self, row: LogRow) -> None:
        d = row.data()
        person = str(d["person"])
        self.sessions[person] = SessionInfo(person, str(d["role"]), row.seq, row.recorded_utc)

    def _logout(self, row: LogRow) -> None:
        self.sessions.pop(str(row.data()["person"]), None)

    def _disabled(self, row: LogRow) -> None:
        self.sessions.pop(str(row.data()["name"]), None)

    def _mode(self, row: LogRow) -> None:
        self.mode = Mode(row.data()["mode"])

    def _tilt_raised(self, row: LogRow) -> None:
        d = row.data()
        code = str(d["tilt"])
        key = tilt_key(code, d.get("device"))
        critical = code in CRITICAL_TILTS
        self.tilts[key] = OpenTilt(
            key, code, str(d.get("detail", "")), critical, row.seq, row.recorded_utc
        )

    def _tilt_cleared(self, row: LogRow) -> None:
        d = row.data()
        self.tilts.pop(tilt_key(str(d["tilt"]), d.get("device")), None)

    def _link_down(self, row: LogRow) -> None:
        device = str(row.data()["device"])
        key = tilt_key(TiltCode.LINK_LOST, device)
        self.tilts[key] = OpenTilt(
            key, TiltCode.LINK_LOST, device, False, row.seq, row.recorded_utc
        )

    def _link_up(self, row: LogRow) -> None:
        self.tilts.pop(tilt_key(TiltCode.LINK_LOST, str(row.data()["device"])), None)

    def _engine_fault(self, row: LogRow) -> None:
        key = TiltCode.ENGINE_FAULT.value
        detail = str(row.data().get("error", ""))
        self.tilts[key] = OpenTilt(key, key, detail, True, row.seq, row.recorded_utc)


def _obj(raw: object, where: str, known: set[str] | None) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: not an object")
    for key in raw:
        if known is not None and key not in known:
            raise ValueError(f"{where}.{key}: unknown field")
    return raw


def _int(d: dict[str, Any], key: str) -> int:
    v = d.get(key)
    if type(v) is not int:
        raise ValueError(f"{key}: not a whole number")
    return v


def _text(d: dict[str, Any], key: str) -> str:
    v = d.get(key)
    if type(v) is not str:
        raise ValueError(f"{key}: not text")
    return v


_HANDLERS: dict[str, Callable[[OpsTracker, LogRow], None]] = {
    Code.FLOOR_CALL_RAISED: OpsTracker._floor_raised,
    Code.FLOOR_CALL_CLEARED: OpsTracker._floor_cleared,
    Code.LOGIN: OpsTracker._login,
    Code.LOGOUT: OpsTracker._logout,
    Code.PERSON_DISABLED: OpsTracker._disabled,
    Code.MODE_CHANGED: OpsTracker._mode,
    Code.TILT_RAISED: OpsTracker._tilt_raised,
    Code.TILT_CLEARED: OpsTracker._tilt_cleared,
    Code.LINK_DOWN: OpsTracker._link_down,
    Code.LINK_UP: OpsTracker._link_up,
    Code.ENGINE_FAULT: OpsTracker._engine_fault,
}
