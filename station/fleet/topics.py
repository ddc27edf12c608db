"""The fleet's MQTT topic tree. Pure.

Everything of one site lives under `casino/<site>/`, one level per station (its station id,
which is also its certificate's CN and MQTT user name):

- `casino/<site>/<station>/events` (station → central, QoS 1): a batch of consecutive journal
  rows (`messages.encode_rows`);
- `.../hello` (station → central, QoS 1): the station's journal head at each connect; the
  centre answers on `acks` with its own head;
- `.../status` (station → central, QoS 1, retained): online and the outbox figures;
  `offline` is the Last Will;
- `.../replies` (station → central, QoS 1): a command's receipt (`messages.Reply`);
- `.../acks` (central → station, QoS 1): the stored head after the central commit
  (`messages.Ack`);
- `.../commands` (central → station, QoS 1): a command from the floor console
  (`messages.Command`);
- `casino/<site>/_central/status` (central → every station, QoS 1, retained): the ingest's
  presence, `offline` as its Last Will.

`_central` cannot be a station id (ids start with a letter or digit). The broker's ACL
(`station.central.broker`) enforces the directions per certificate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

ROOT: Final = "casino"
CENTRAL: Final = "_central"
STATION_WRITES: Final = ("events", "hello", "status", "replies")
STATION_READS: Final = ("acks", "commands")


@dataclass(frozen=True, slots=True)
class StationTopics:
    site: str
    station: str

    def _t(self, leaf: str) -> str:
        return f"{ROOT}/{self.site}/{self.station}/{leaf}"

    @property
    def events(self) -> str:
        return self._t("events")

    @property
    def hello(self) -> str:
        return self._t("hello")

    @property
    def status(self) -> str:
        return self._t("status")

    @property
    def replies(self) -> str:
        return self._t("replies")

    @property
    def acks(self) -> str:
        return self._t("acks")

    @property
    def commands(self) -> str:
        return self._t("commands")


def central_status(site: str) -> str:
    return f"{ROOT}/{site}/{CENTRAL}/status"


def ingest_subscriptions(site: str) -> list[str]:
    """What the central ingest subscribes to."""
    return [f"{ROOT}/{site}/+/{leaf}" for leaf in STATION_WRITES]


def parse(topic: str) -> tuple[str, str, str] | None:
    """(site, station, leaf) of a station topic; None for anything else."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[2] == CENTRAL:
        return None
    return parts[1], parts[2], parts[3]
