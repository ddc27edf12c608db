"""The transport the forwarder and the ingest use: `paho_factory` builds the paho-mqtt one,
importing it only when called (paho is an optional extra, and `station.fleet.paho_transport`
imports it at once). Edge adapter (by way of the transport it builds).
"""

from __future__ import annotations

from station.fleet.transport import Transport, TransportEvents, TransportSettings


def paho_factory(settings: TransportSettings, events: TransportEvents) -> Transport:
    """The paho-mqtt transport (imported here, lazily: it is an optional extra)."""
    from station.fleet.paho_transport import PahoTransport  # noqa: PLC0415

    return PahoTransport(settings, events)
