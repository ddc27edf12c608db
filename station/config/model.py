"""The station config (`station.toml`) as typed, frozen records. Pure.

`station.config.station_toml` reads and validates the file into these; the daemon reads nothing
else. The format is documented in `station/config/example.toml`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from station.display.panel import PANEL_10_1, PanelConfig
from station.display.table_shape import DEFAULT_TABLE, TableShape
from station.display.theme import Deck, Theme
from station.engine.events import Setup, Stakes
from station.engine.levels import Schedule
from station.engine.rake import RakeSchedule


class GpioBackend(StrEnum):
    LGPIO = "lgpio"  # the Raspberry Pi (5): gpiozero over lgpio, one factory per gpiochip
    MOCK = "mock"  # gpiozero MockFactory pins: development, the demo, tests


class DisplayDriver(StrEnum):
    KMSDRM = "kmsdrm"  # the Pi's panel without X (SDL kmsdrm)
    DUMMY = "dummy"  # SDL's off-screen driver (tests, a station without a panel)
    AUTO = "auto"  # let SDL choose (a window on a desktop)
    NONE = "none"  # no display thread at all


class LogLevel(StrEnum):
    DEBUG = "debug"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class TableConfig:
    game: str
    profile: str
    stakes: Stakes
    seats: tuple[int, ...]  # seat numbers in play
    stacks: Mapping[int, int]  # tracked stacks; seats not listed are not tracked
    button: int | None = None
    deck: str | None = None  # back colour in play (default: the registry's first deck)
    rules: Mapping[str, object] = field(default_factory=dict)
    rake: RakeSchedule | None = None  # [table.rake]: the house's take; None: no rake
    tournament: Schedule | None = None  # [tournament]: the structure (stakes come from it)

    def setup(self) -> Setup:
        """The engine's setup event for this table."""
        return Setup(
            game=self.game,
            profile=self.profile,
            stakes=self.stakes,
            seats={s: self.stacks.get(s) for s in self.seats},
            button=self.button,
            deck=self.deck,
            rules=dict(self.rules),
            rake=self.rake,
            tournament=self.tournament,
        )


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """A USB serial device (shoe or bet-zone board). `port=None`: not fitted at this table."""

    port: str | None
    baudrate: int = 115200


@dataclass(frozen=True, slots=True)
class BetZoneConfig:
    device: DeviceConfig
    settle_s: float = 0.4
    unstable_s: float = 3.0


@dataclass(frozen=True, slots=True)
class InputsConfig:
    backend: GpioBackend = GpioBackend.LGPIO
    pinmap: Path | None = None  # None: the embedded revision A map


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    driver: DisplayDriver = DisplayDriver.KMSDRM
    panel: PanelConfig = PANEL_10_1
    table: TableShape = DEFAULT_TABLE  # the table's shape and where its seats are
    deck: Deck = Deck.FOUR_COLOUR  # how the screen colours the suits

    @property
    def theme(self) -> Theme:
        """The screen's theme for this display (its deck's suit colours)."""
        return Theme(deck=self.deck)


@dataclass(frozen=True, slots=True)
class PeopleConfig:
    """Who the PIN pad signs in. The pad asks for a PIN only; when a role has more than one
    person, the config names the one its pad is for."""

    floor_pad: str | None = None
    tech_pad: str | None = None


@dataclass(frozen=True, slots=True)
class FleetConfig:
    """`[fleet]`: forward the journal to the site's central store over MQTT
    (`station.fleet`). No `[fleet]` section: the station keeps everything local."""

    site: str  # topics casino/<site>/<station_id>/...
    host: str
    port: int
    ca: Path  # the site CA (verifies the broker)
    cert: Path  # this station's client certificate (CN = station_id)
    key: Path
    window: int = 1000  # rows sent and not yet acknowledged, at most
    batch: int = 100  # rows per MQTT message, at most
    resend_s: float = 5.0  # unacknowledged rows are sent again after this (doubling to 60 s)
    keepalive_s: int = 30  # the broker declares a silent station offline after 1.5x this


@dataclass(frozen=True, slots=True)
class ScrubConfig:
    """`[journal] scrub_*`: the full re-derivation of the journal (`station.journal.scrub`),
    in a process of its own at idle priority."""

    every_h: int = 24  # a scrub this many hours after the last one began (0: no schedule)
    after_upgrade: bool = True  # and one as soon as the code that derives rows has changed
    duty: float = 0.5  # the share of the time it works (it rests the rest)


@dataclass(frozen=True, slots=True)
class StationConfig:
    source: Path  # the file it came from (messages, the journal's config row)
    sha256: str  # of the file's bytes
    station_id: str
    table: TableConfig
    shoe: DeviceConfig
    betzones: BetZoneConfig
    inputs: InputsConfig
    registry: Path | None  # None: `enrolled_registry` when it exists, else the embedded one
    display: DisplayConfig
    journal: Path
    log_level: LogLevel = LogLevel.INFO
    people: PeopleConfig = PeopleConfig()
    fleet: FleetConfig | None = None
    journal_group_read: bool = False  # journal files 0640 (a group of floor tools reads them)
    scrub: ScrubConfig = ScrubConfig()

    @property
    def enrolled_registry(self) -> Path:
        """Where decks enrolled on the screen go when the config names no registry file:
        `decks.toml` beside the journal (the state folder the service may write)."""
        return self.journal.parent / "decks.toml"

    @property
    def registry_in_use(self) -> Path | None:
        """The registry file the station reads: the configured one, else the enrolled decks'
        file when there is one; None: the embedded emulated registry."""
        if self.registry is not None:
            return self.registry
        return self.enrolled_registry if self.enrolled_registry.is_file() else None

    @property
    def journal_mode(self) -> int:
        """The mode new journal files are created with."""
        return 0o640 if self.journal_group_read else 0o600
