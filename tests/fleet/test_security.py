"""Stations hold a TLS client certificate and nothing else (standards-ux requirement 23): no
anonymous MQTT, no certificate from another CA, and station A's certificate can neither
publish on station B's topics nor read B's acknowledgements or events (the broker's ACL)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from station.central.certs import issue
from station.fleet.forwarder import FleetState
from station.fleet.messages import encode_rows
from tests.fleet.conftest import SITE, RunningIngest, append, forwarder, new_journal, wait_until
from tests.fleet.test_chain import chain


class Client:
    """A raw MQTT client with a given identity (or none), recording what it receives."""

    def __init__(
        self, services: Any, cert: Path | None, key: Path | None, ca: Path, client_id: str = ""
    ) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.received: list[tuple[str, bytes]] = []
        self.pubacks: dict[int, str] = {}
        self.subacks: set[int] = set()
        self.connected = threading.Event()
        self.failed = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        c.tls_set(
            ca_certs=str(ca),
            certfile=str(cert) if cert else None,
            keyfile=str(key) if key else None,
        )
        c.on_connect = self._on_connect
        c.on_connect_fail = lambda *_a: self.failed.set()
        c.on_disconnect = lambda *_a: self.failed.set()
        c.on_message = lambda _c, _u, m: self.received.append((m.topic, bytes(m.payload)))
        c.on_publish = self._on_publish
        c.on_subscribe = lambda _c, _u, mid, _reasons, _p: self.subacks.add(mid)
        self.c = c
        self.c.connect_async("127.0.0.1", services.broker.port)
        self.c.loop_start()

    def _on_connect(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        (self.failed if reason.is_failure else self.connected).set()

    def _on_publish(self, _c: Any, _u: Any, mid: int, reason: Any, _p: Any) -> None:
        self.pubacks[mid] = str(reason)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def as_station(services: Any, station: str, client_id: str = "") -> Client:
    ident = services.broker.identity(station)
    client = Client(services, ident.cert, ident.key, ident.ca, client_id)
    assert client.connected.wait(10), f"{station} did not connect"
    return client


def test_station_a_cannot_publish_on_b_s_topics_nor_read_b_s_acks_or_events(
    services: Any, ingest: RunningIngest, tmp_path: Path
) -> None:
    a = as_station(services, "TA")
    try:
        mids = {
            a.c.subscribe(topic, qos=1)[1]
            for topic in (
                f"casino/{SITE}/TB/acks",
                f"casino/{SITE}/+/acks",
                f"casino/{SITE}/+/events",
                "#",
            )
        }
        wait_until(lambda: mids <= a.subacks, what="the SUBACKs")  # subscribed before B sends
        # A publishes rows of B's on B's topic: the broker refuses (PUBACK "Not authorized")
        # and the ingest never sees them.
        info = a.c.publish(f"casino/{SITE}/TB/events", encode_rows(chain(3, station="TB")), qos=1)
        wait_until(lambda: info.mid in a.pubacks, what="the PUBACK")
        assert a.pubacks[info.mid] == "Not authorized"

        # B forwards for real: its rows are stored and acknowledged, and A hears nothing of it.
        path = tmp_path / "b.sqlite"
        journal = new_journal(path, "TB")
        append(journal, 5)
        fwd = forwarder(services, path, "TB")
        fwd.start()
        try:
            wait_until(lambda: fwd.status().acked_seq == journal.head()[0], what="B's rows acked")
        finally:
            fwd.stop()
            journal.close()
        time.sleep(0.5)
        assert [t for t, _ in a.received if "/TB/" in t] == []
        stored = ingest.query("SELECT count(*), max(seq) FROM rows WHERE station_id = 'TB'")
        assert stored == [(6, 6)]  # B's own 6 rows, none of A's forgery
    finally:
        a.close()


def test_a_station_can_use_its_own_topics(services: Any, ingest: RunningIngest) -> None:
    """The other side of the ACL: the same client publishes its own events (PUBACK Success:
    authorised, and the ingest subscribes)."""
    a = as_station(services, "TA")
    try:
        info = a.c.publish(f"casino/{SITE}/TA/events", encode_rows(chain(1, station="TA")), qos=1)
        wait_until(lambda: info.mid in a.pubacks, what="the PUBACK")
        assert a.pubacks[info.mid] == "Success"
    finally:
        a.close()


def test_no_anonymous_client_and_no_certificate_from_another_ca(
    services: Any, tmp_path: Path
) -> None:
    ca = services.broker.identity("TA").ca
    anonymous = Client(services, None, None, ca)
    other = issue(tmp_path / "rogue", SITE, "TA")  # right name, wrong CA
    rogue = Client(services, other.cert, other.key, ca)
    try:
        for client in (anonymous, rogue):
            assert client.failed.wait(15), "the broker let it in"
            assert not client.connected.is_set()
    finally:
        anonymous.close()
        rogue.close()


def test_a_forwarder_with_a_foreign_certificate_never_delivers(
    services: Any, tmp_path: Path
) -> None:
    from station.config.model import FleetConfig
    from station.fleet.factory import paho_factory
    from station.fleet.forwarder import Forwarder

    path = tmp_path / "j.sqlite"
    journal = new_journal(path, "TC")
    append(journal, 3)
    other = issue(tmp_path / "rogue", SITE, "TC")
    ca = services.broker.identity("TC").ca
    cfg = FleetConfig(SITE, "127.0.0.1", services.broker.port, ca, other.cert, other.key)
    fwd = Forwarder(path, "TC", cfg, paho_factory)
    fwd.start()
    try:
        time.sleep(2)
        assert fwd.status().state is FleetState.CONNECTING
        assert fwd.status().acked_seq == 0
    finally:
        fwd.stop()
        journal.close()


def test_a_certificate_cannot_take_over_another_client_s_id(
    services: Any, ingest: RunningIngest, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 31: TA's certificate connecting with client id `station-TB`, then with the
    ingest's, used to knock TB and the ingest off the broker (MQTT drops the older session of
    a client id). The broker now names every client by its certificate
    (`use_username_as_clientid`): an impostor can only ever replace a session of its own."""
    victim = as_station(services, "TB", client_id="station-TB")
    ingest_id = f"svc.ingest-{SITE}"
    assert ingest.ingest.transport.connected
    impostors = []
    try:
        for _ in range(3):
            for taken in ("station-TB", ingest_id):
                impostor = as_station(services, "TA", client_id=taken)  # it is let in, as TA
                impostors.append(impostor)
                time.sleep(0.3)
        time.sleep(1.0)
        assert not victim.failed.is_set(), "TB was knocked off the broker"
        assert victim.connected.is_set()
        assert ingest.ingest.transport.connected
        lost = [r for r in caplog.records if "broker connection lost" in r.getMessage()]
        assert lost == [], "the ingest was knocked off the broker"
        # TB still works: its own publication is authorised and acknowledged by the broker
        info = victim.c.publish(
            f"casino/{SITE}/TB/events", encode_rows(chain(1, station="TB")), qos=1
        )
        wait_until(lambda: info.mid in victim.pubacks, what="TB's PUBACK")
        assert victim.pubacks[info.mid] == "Success"
    finally:
        victim.close()
        for impostor in impostors:
            impostor.close()


@pytest.mark.parametrize("name", ["svc.ingest", "_central"])
def test_no_station_id_can_be_a_service_identity_or_the_central_topic(name: str) -> None:
    from station.config.station_toml import STATION_ID

    assert not STATION_ID.match(name)


def test_an_ingest_waiting_for_the_site_stays_off_the_broker(
    services: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Every ingest presents the same certificate, so the broker gives them the same client
    id: an ingest that waits for the site's lock while connected would knock the active one
    off (and be knocked off in turn). A standby connects only once it holds the site, and an
    ingest that lost its database session (and with it the site) leaves the broker while it
    waits to hold the site again."""
    import zlib

    import psycopg

    from station.central.config import load_central
    from station.central.ingest import Ingest
    from tests.fleet.conftest import start_ingest

    active = start_ingest(services)
    key = zlib.crc32(f"ingest:{SITE}".encode())
    standby_stop = threading.Event()
    standby = Ingest(load_central(active.cfg.source))
    thread = threading.Thread(target=standby.run, args=(standby_stop,), daemon=True)
    thread.start()
    holder = psycopg.connect(active.cfg.conninfo(), autocommit=True)
    try:
        time.sleep(2.0)
        assert not standby.ready.is_set()  # waiting for the site, off the broker
        assert not standby.transport.connected
        assert active.ingest.transport.connected
        # the active ingest loses its database session; someone else holds the site meanwhile:
        # the holder queues for the lock first (a blocking pg_advisory_lock, granted the moment
        # the active session dies, before either ingest's next try), then the session holding
        # the site's lock, the active ingest's, is ended from another connection
        queued = threading.Thread(
            target=lambda: holder.execute("SELECT pg_advisory_lock(%s)", (key,)), daemon=True
        )
        queued.start()
        with psycopg.connect(active.cfg.conninfo(), autocommit=True) as killer:
            wait_until(
                lambda: bool(killer.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s"
                    " AND NOT granted", (key,),
                ).fetchone()[0]),  # type: ignore[index]
                10, "the holder queued for the site's lock",
            )  # fmt: skip
            killer.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks"
                " WHERE locktype = 'advisory' AND objid = %s AND granted",
                (key,),
            )
        queued.join(10)
        assert not queued.is_alive(), "the site's lock never came to the holder"
        wait_until(lambda: not active.ingest.transport.connected, 15, "the waiting ingest off")
        time.sleep(1.0)
        assert not active.ingest.transport.connected and not standby.transport.connected
        holder.execute("SELECT pg_advisory_unlock(%s)", (key,))
        wait_until(
            lambda: active.ingest.transport.connected or standby.transport.connected, 30,
            "one ingest back on the broker",
        )  # fmt: skip
        caplog.clear()
        time.sleep(3.0)
        on = [i.transport.connected for i in (active.ingest, standby)]
        assert on.count(True) == 1, on  # one ingest on the broker, and it stays there
        lost = [r for r in caplog.records if "broker connection lost" in r.getMessage()]
        assert lost == []
    finally:
        holder.close()
        standby_stop.set()
        thread.join(15)
        active.halt()
