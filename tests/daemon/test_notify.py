"""sd_notify: READY=1, STATUS= and a watchdog petted from the core loop only, at half of
WATCHDOG_USEC, that stops when the core is wedged. A fake NOTIFY_SOCKET: a real AF_UNIX
datagram socket in a temp folder, as systemd's."""

from __future__ import annotations

import itertools
import os
import socket
import statistics
import threading
import time
from pathlib import Path

from hardware.inputs.emulator import InputEmulator
from hardware.inputs.factories import close_factories, mock_factories
from hardware.inputs.pinmap_load import default_pinmap
from station.daemon.daemon import Overrides
from station.daemon.items import GpioEdges, Item
from station.daemon.notify import Notifier, sd_notify, watchdog_interval_s
from tests.daemon.conftest import NotifyListener, Running, start_daemon, write_config

WATCHDOG_USEC = 300_000  # systemd's WatchdogSec=0.3: the core must pet every 0.15 s


def test_sd_notify_sends_one_datagram_to_a_path_socket(notify: NotifyListener) -> None:
    assert sd_notify("READY=1\nSTATUS=up", {"NOTIFY_SOCKET": str(notify.path)})
    got = notify.recv(1.0)
    assert got is not None and got[1] == "READY=1\nSTATUS=up"


def test_sd_notify_handles_the_abstract_namespace() -> None:
    name = f"dealer-station-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(1.0)
        assert sd_notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(64) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    assert not sd_notify("READY=1", {})
    assert not sd_notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert not sd_notify("READY=1", {"NOTIFY_SOCKET": "relative/path"})
    Notifier({}).ready("no systemd")  # a no-op, not an error


def test_the_watchdog_interval_is_half_of_watchdog_usec() -> None:
    assert watchdog_interval_s({"WATCHDOG_USEC": "10000000"}) == 5.0
    assert watchdog_interval_s({}) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "0"}) is None
    mine = {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval_s(mine) == 1.0
    # systemd armed the watchdog for another process (we were forked by it): not ours.
    assert watchdog_interval_s({"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"}) is None


def _pets(notify: NotifyListener, seconds: float) -> list[float]:
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        item = notify.recv(left)
        if item is not None and "WATCHDOG=1" in item[1]:
            times.append(item[0])
    return times


def test_ready_status_and_watchdog_from_the_core_and_none_when_it_is_wedged(
    tmp_path: Path, notify: NotifyListener, daemons: list[Running]
) -> None:
    pinmap = default_pinmap()
    factories = mock_factories(pinmap)
    panel = InputEmulator(pinmap, factories)
    panel.idle()
    wedge, wedged, release = threading.Event(), threading.Event(), threading.Event()

    def on_item(item: Item) -> None:
        # The test's wedge: a key press makes the core block (as a deadlock or a hung call
        # inside the core would).
        if isinstance(item, GpioEdges) and wedge.is_set():
            wedged.set()
            release.wait(10)

    env = {"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": str(WATCHDOG_USEC)}
    try:
        running = start_daemon(
            write_config(tmp_path),
            Overrides(factories=factories, environ=env, on_item=on_item),
        )
        daemons.append(running)

        first = notify.until("READY=1", 5.0)
        ready = first[-1][1]
        assert ready.startswith("READY=1\nSTATUS=hand 0 ")
        statuses = [m for _, m in notify.until("STATUS=hand 0 between", 5.0) if "STATUS=" in m]
        assert statuses, "the status follows the table (set up from the config: between hands)"

        pets = _pets(notify, 1.2)
        gaps = [b - a for a, b in itertools.pairwise(pets)]
        interval = WATCHDOG_USEC / 2e6
        print(
            f"\n{ready!r}; {len(pets)} WATCHDOG=1 in 1.2 s, every "
            f"{statistics.mean(gaps):.3f} s (max {max(gaps):.3f} s; expected {interval} s)"
        )
        assert len(pets) >= 6, pets
        assert abs(statistics.mean(gaps) - interval) < 0.04, gaps
        assert max(gaps) < 2 * interval, gaps

        wedge.set()
        panel.press("FLOOR", time.monotonic(), 0.05)
        panel.run_until(time.monotonic() + 1.0)
        assert wedged.wait(2.0), "the key press reached the core"
        # A pet the core sent just before it blocked may still be on its way: let one interval
        # pass, then there must be none at all.
        _pets(notify, interval)
        assert _pets(notify, 5 * interval) == [], "a wedged core must not pet the watchdog"
        print(f"wedged core: no WATCHDOG=1 for {5 * interval:.2f} s")

        release.set()
        assert _pets(notify, 4 * interval), "petting resumes once the core runs again"
        assert running.stop() == "test over"
    finally:
        release.set()
        for running in daemons:
            if running.thread.is_alive():
                running.stop()
        daemons.clear()
        close_factories(factories)
    stopping = notify.until("STOPPING=1", 2.0)
    assert stopping[-1][1].startswith("STOPPING=1")


def test_a_listener_that_stops_reading_never_blocks_the_sender(tmp_path: Path) -> None:
    # `station bench idle` found it: a NOTIFY_SOCKET nobody read for a minute filled up, the
    # core blocked inside a watchdog pet, and SIGTERM could not stop it. Now a notification
    # that cannot go is dropped (and said again by the next one); this loop would hang before.
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        environ = {"NOTIFY_SOCKET": str(path)}
        sent = [sd_notify("WATCHDOG=1", environ) for _ in range(5000)]
        assert sent[0] and not sent[-1]  # the first went; once the queue was full, dropped
        notifier = Notifier(environ)
        notifier.watchdog()  # dropped too, logged once, never raised
        sock.recv(64)  # the listener reads again: there is room
        assert sd_notify("WATCHDOG=1", environ)
