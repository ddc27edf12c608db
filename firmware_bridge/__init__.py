"""The shoe and bet-zone link: bytes and messages, not poker. Imports nothing from `station`.

The wire protocol is written down in `firmware_bridge/PROTOCOL.md`. This is the API the daemon
uses::

    from firmware_bridge import CardDrawn, DeviceKind, LinkState, SerialOpener, ShoeLink

    link = ShoeLink(
        SerialOpener("/dev/dealer/shoe"),   # opened anew for every (re)connect
        on_message=events.put,              # every device event exactly once, in order
        on_link_state=events.put,           # LinkStateChange: UP, DOWN or REFUSED (+ reason)
        clock=time.monotonic,               # the clock that stamps `at` on everything
        expect=DeviceKind.SHOE,             # refuse a bet-zone board plugged into the shoe port
        resume={"DS-E661...": 4711},        # optional: serial -> last event id already journaled
    )
    link.start()        # one named daemon thread; never raises for a device problem
    ...
    link.stats()        # LinkStats snapshot for the diagnostics screen
    link.request_deck_scan()
    link.stop()

Callbacks run on the link's thread, in event order, and should only put the item on the
station's queue. An event is acknowledged to the device after `on_message` returns; the
idempotency key of every event is `(boot_id, event_id)` (event ids also keep increasing across
device reboots, so `event_id` alone orders one device's events). Within one `DeviceLink` every
event is delivered exactly once. A new process starts without a cursor: the device then replays
everything its log still holds (up to 256 events), so pass `resume` (serial -> last event id
journaled) or drop keys already journaled. The bet-zone board uses the
same class (`DeviceLink` is its general name) with `expect=DeviceKind.BET_ZONES`.

Messages (frozen dataclasses, `firmware_bridge.messages`): `CardDrawn(tag, face_up,
device_ticks, boot_id, event_id, at)`, `DeckScan`, `ShoeStatus`, `BetZoneTotals(seat, amount,
chips, ...)`, `SensorFault`, `DeviceRebooted` (in order with the draws), `EventsLost` (never
expected; never silent), and `Snapshot` (device state after every (re)connect, before the replay).
`at` is host monotonic seconds, estimated from the device clock.

`probe(opener)` identifies a device once (for `station config check` / `station diag`) and raises
`IncompatibleDeviceError` with the versions seen when the station must refuse it.

Modules: `wire` (shared with the firmware: constants, CRC, codec), `codec`, `messages`,
`retransmit`, `inbox`, `clocksync`, `session` (all pure), `status` (records), `transport`
(pyserial) and `link` (the supervisor thread), `exc`.
"""

from firmware_bridge.codec import DecodeError, Frame, FrameDecoder, Garbage, encode
from firmware_bridge.exc import (
    BridgeError,
    IncompatibleDeviceError,
    LinkTimeoutError,
    PortError,
    ProtocolError,
)
from firmware_bridge.link import DeviceLink, ShoeLink, probe
from firmware_bridge.messages import (
    BetZoneTotals,
    Capability,
    CardDrawn,
    DeckScan,
    DeviceEvent,
    DeviceIdentity,
    DeviceKind,
    DeviceRebooted,
    EventsLost,
    Fault,
    LossReason,
    Message,
    Sensor,
    SensorFault,
    ShoeStatus,
    Snapshot,
    ZoneReading,
)
from firmware_bridge.session import Session
from firmware_bridge.status import Direction, FrameRecord, LinkState, LinkStateChange, LinkStats
from firmware_bridge.transport import Port, PortOpener, SerialOpener, SerialPort

__all__ = [
    "BetZoneTotals",
    "BridgeError",
    "Capability",
    "CardDrawn",
    "DecodeError",
    "DeckScan",
    "DeviceEvent",
    "DeviceIdentity",
    "DeviceKind",
    "DeviceLink",
    "DeviceRebooted",
    "Direction",
    "EventsLost",
    "Fault",
    "Frame",
    "FrameDecoder",
    "FrameRecord",
    "Garbage",
    "IncompatibleDeviceError",
    "LinkState",
    "LinkStateChange",
    "LinkStats",
    "LinkTimeoutError",
    "LossReason",
    "Message",
    "Port",
    "PortError",
    "PortOpener",
    "ProtocolError",
    "Sensor",
    "SensorFault",
    "SerialOpener",
    "SerialPort",
    "Session",
    "ShoeLink",
    "ShoeStatus",
    "Snapshot",
    "ZoneReading",
    "encode",
    "probe",
]
