"""Serving the floor console until it is stopped: migrate the database, run uvicorn on
`[console] listen:port` (HTTPS with `tls_cert`/`tls_key`), tell systemd READY=1 once it accepts
connections and its first catch-up of the stored rows is done. Edge adapter (network, signals).
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from station.central.config import CentralConfig


def serve(cfg: CentralConfig, log_level: str) -> int:
    import psycopg  # noqa: PLC0415
    import uvicorn  # noqa: PLC0415

    from station.central.console.app import create_app  # noqa: PLC0415
    from station.central.schema import SchemaError, migrate  # noqa: PLC0415
    from station.daemon.notify import Notifier  # noqa: PLC0415

    logging.basicConfig(
        level=log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        with psycopg.connect(cfg.conninfo(), autocommit=True) as conn:
            migrate(conn)
    except (psycopg.Error, SchemaError) as exc:
        print(f"station central console: database: {exc}", file=sys.stderr)
        return 1
    app = create_app(cfg)
    c = cfg.console
    config = uvicorn.Config(
        app,
        host=c.listen,
        port=c.port,
        log_level=log_level,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=3,
        ssl_certfile=str(c.tls_cert) if c.tls_cert else None,
        ssl_keyfile=str(c.tls_key) if c.tls_key else None,
    )
    server = uvicorn.Server(config)
    notifier = Notifier()

    def tell_systemd() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.1)
        console = getattr(app.state, "console", None)
        listener = getattr(console, "listener", None)
        if listener is not None:
            listener.ready.wait(300)
        if server.started:
            scheme = "https" if c.tls_cert else "http"
            notifier.ready(f"console on {scheme}://{c.listen}:{c.port}")

    threading.Thread(target=tell_systemd, name="notify", daemon=True).start()
    # uvicorn handles SIGTERM/SIGINT (a graceful shutdown), then raises the signal again to
    # the handler it found: make that a no-op, so the console exits 0 after a clean stop.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda _sig, _frame: None)
    server.run()
    notifier.stopping()
    return 0
