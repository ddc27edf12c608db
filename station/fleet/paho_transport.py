"""The MQTT transport over paho-mqtt 2.x (VERSION2 callbacks, MQTT 5, TLS client certificate).
Edge adapter (network).

paho's own network thread (`loop_start`) connects, reconnects with a doubling delay between
`reconnect_min_s` and `reconnect_max_s`, and calls us back; we subscribe on every connect (a
clean session forgets subscriptions) and hand everything to the `TransportEvents` receiver.
paho keeps its session in memory only, so nothing here is a durability layer: the journal is.
"""

from __future__ import annotations

import logging
import ssl
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from station.fleet.transport import TransportEvents, TransportSettings

log = logging.getLogger(__name__)


class PahoTransport:
    def __init__(self, settings: TransportSettings, events: TransportEvents) -> None:
        self.s = settings
        self.events = events
        self._connected = threading.Event()
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=settings.client_id, protocol=mqtt.MQTTv5
        )
        client.tls_set(
            ca_certs=str(settings.ca),
            certfile=str(settings.cert),
            keyfile=str(settings.key),
            cert_reqs=ssl.CERT_REQUIRED,
            tls_version=ssl.PROTOCOL_TLS_CLIENT,
        )
        client.reconnect_delay_set(
            max(1, round(settings.reconnect_min_s)), max(1, round(settings.reconnect_max_s))
        )
        client.max_inflight_messages_set(settings.max_inflight)
        if settings.will is not None:
            w = settings.will
            client.will_set(w.topic, w.payload, qos=1, retain=w.retain)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    def start(self) -> None:
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        if self.s.session_expiry_s:
            props.SessionExpiryInterval = self.s.session_expiry_s
        self.client.connect_async(
            self.s.host,
            self.s.port,
            keepalive=self.s.keepalive_s,
            clean_start=self.s.session_expiry_s == 0,
            properties=props,
        )
        self.client.loop_start()

    def stop(self) -> None:
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()
        self._connected.clear()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> bool:
        if not self._connected.is_set():
            return False
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        return info.rc == MQTTErrorCode.MQTT_ERR_SUCCESS

    # --- paho's thread ----------------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("MQTT connect to %s:%s refused: %s", self.s.host, self.s.port, reason)
            self.events.disconnected(str(reason))
            return
        for topic in self.s.subscriptions:
            client.subscribe(topic, qos=1)
        self._connected.set()
        self.events.connected()

    def _on_disconnect(
        self, _c: mqtt.Client, _u: Any, _flags: Any, reason: Any, _props: Any
    ) -> None:
        was = self._connected.is_set()
        self._connected.clear()
        if was:
            self.events.disconnected(str(reason))

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        self.events.message(message.topic, bytes(message.payload))
