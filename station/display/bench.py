"""Idle cost of the display: `python -m station.display.bench [--seconds S]`. Edge adapter.

Starts the display thread (dummy SDL driver unless SDL_VIDEODRIVER says otherwise), draws one
snapshot, then leaves it idle and reports the CPU the display thread and the whole process used,
as a share of one core, on one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Sequence

from station.display import scenes
from station.display.panel import PANEL_10_1
from station.display.thread import DisplayThread


def measure_idle(seconds: float = 5.0) -> dict[str, float]:
    driver = os.environ.get("SDL_VIDEODRIVER", "dummy")
    thread = DisplayThread(PANEL_10_1, driver).start()
    try:
        version = thread.publish(scenes.three_way_allin())
        if not thread.wait_drawn(version, timeout=10):
            raise RuntimeError(f"display did not draw: {thread.last_fault}")
        frames0, thread0 = thread.frames, thread.cpu_s
        wall0, proc0 = time.monotonic(), time.process_time()
        threading.Event().wait(seconds)  # idle: nothing published
        wall = time.monotonic() - wall0
        return {
            "idle_s": round(wall, 2),
            "display_thread_cpu_pct": round(100 * (thread.cpu_s - thread0) / wall, 3),
            "process_cpu_pct": round(100 * (time.process_time() - proc0) / wall, 3),
            "redraws_while_idle": thread.frames - frames0,
        }
    finally:
        thread.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m station.display.bench", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    print(json.dumps({"bench": "display_idle", **measure_idle(args.seconds)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
