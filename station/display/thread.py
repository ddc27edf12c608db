"""The display thread: owns pygame, redraws on change, never lets a fault reach the core.
Edge adapter.

Why a thread and not a process: the core hands over frozen snapshots; in the same process that
costs one reference under a lock (`LatestBox.put`), with no pickling and no second interpreter
(the daemon's memory bar is 80 MB, and a second Python with pygame would take ~30 MB of it). The
isolation we need is from *faults and slowness*, which a thread gives when (1) the publisher only
ever touches the box and an Event, never pygame, and (2) every exception in the render loop is
caught, logged and followed by a fault screen and a restart of the video subsystem. What a thread
cannot contain is a crash inside SDL's C code; a segfault there would take the daemon down, and
systemd's restart then replays the journal. If that ever shows up on the Pi, the same
`DisplayThread` API can be backed by a child process reading snapshots from a pipe.

pygame is imported inside the thread (and `pgrender`/`pgevents` with it), so importing
`station.display` stays light.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from station.display.dealer_signin import SIGN_IN_PHASES
from station.display.inbox import ScreenInbox
from station.display.model import ScreenModel
from station.display.nav import (
    Command,
    DealerSignIn,
    NavContext,
    NavInput,
    NavState,
    PinVerifier,
    Tick,
    deny_all,
    handle,
    no_sign_in,
)
from station.display.panel import PANEL_10_1, PanelConfig
from station.display.screens import DisplayInputs, inputs_used, screen_model
from station.display.table_shape import DEFAULT_TABLE, TableShape
from station.display.theme import DEFAULT_THEME, TextRole, Theme

if TYPE_CHECKING:
    import pygame

log = logging.getLogger(__name__)

POLL_S = 0.05  # how often the display looks for touch/keys while in use (20 Hz: responsive)
IDLE_POLL_S = 0.1  # ... and once nobody has touched it for IDLE_AFTER_S (halves its idle CPU)
IDLE_AFTER_S = 10.0


def poll_interval(now: float, last_touch_at: float | None) -> float:
    """How long the render loop may sleep before it looks for touch input again: quick while
    someone is using the screen, slower once it has been left alone (the dealer works the key
    panel; the first tap after a quiet spell waits at most IDLE_POLL_S). A publish from the
    core wakes the loop at once either way."""
    if last_touch_at is not None and now - last_touch_at < IDLE_AFTER_S:
        return POLL_S
    return IDLE_POLL_S


RESTART_AFTER = 3  # consecutive faults before the video subsystem is restarted
Builder = Callable[[NavState, DisplayInputs, PanelConfig, Theme], ScreenModel]


class DisplayThread(ScreenInbox):
    """The table display. `publish*` may be called from any thread and never blocks on drawing."""

    def __init__(
        self,
        panel: PanelConfig = PANEL_10_1,
        driver: str | None = None,
        *,
        theme: Theme = DEFAULT_THEME,
        verify_pin: PinVerifier = deny_all,
        sign_in: DealerSignIn = no_sign_in,
        on_command: Callable[[Command], None] | None = None,
        build: Builder = screen_model,
        fullscreen: bool | None = None,
        table: TableShape = DEFAULT_TABLE,
    ) -> None:
        super().__init__()
        self.panel = panel
        self.driver = driver  # "kmsdrm" on the Pi, "dummy" in tests; None: SDL decides
        self.theme = theme
        self.verify_pin = verify_pin
        self.sign_in = sign_in
        self.on_command = on_command
        self.build = build
        self.table = table
        self.fullscreen = driver == "kmsdrm" if fullscreen is None else fullscreen
        self._inputs: queue.SimpleQueue[NavInput] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._drawn = threading.Condition()
        self._thread: threading.Thread | None = None
        # observable state (read by tests, the bench and the diagnostics page)
        self.nav = NavState()
        self.frames = 0
        self.faults = 0
        self.last_fault = ""
        self.drawn_version = 0  # the snapshot version on the glass
        self.last_model: ScreenModel | None = None
        self.cpu_s = 0.0  # this thread's CPU time so far

    # the core's side ----------------------------------------------------------------------
    def post_input(self, event: NavInput) -> None:
        """A navigation input from outside pygame (dealer keys on GPIO)."""
        self._inputs.put(event)
        self._wake.set()

    # lifecycle ----------------------------------------------------------------------------
    def start(self) -> DisplayThread:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="display", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait_drawn(self, version: int, timeout: float = 5.0) -> bool:
        """Wait until the snapshot `version` (or a newer one) is on the glass."""
        with self._drawn:
            return self._drawn.wait_for(lambda: self.drawn_version >= version, timeout)

    def wait_frames(self, count: int, timeout: float = 5.0) -> bool:
        with self._drawn:
            return self._drawn.wait_for(lambda: self.frames >= count, timeout)

    # the render thread --------------------------------------------------------------------
    def _open(self) -> pygame.Surface:
        if self.driver is not None:
            os.environ["SDL_VIDEODRIVER"] = self.driver
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame  # noqa: PLC0415 (lazy: pygame stays out of the core)

        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if self.fullscreen else 0
        surface = pygame.display.set_mode((self.panel.width_px, self.panel.height_px), flags)
        pygame.display.set_caption("Dealer Station")
        if self.fullscreen:
            pygame.mouse.set_visible(False)
        return surface

    def _run(self) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame  # noqa: PLC0415 (lazy: pygame stays out of the core)

        from station.display.pgevents import translate  # noqa: PLC0415 (lazy: pygame stays out of the core)
        from station.display.pgrender import Painter  # noqa: PLC0415 (lazy: pygame stays out of the core)

        surface: pygame.Surface | None = None
        painter = Painter(self.theme)
        drawn_key: tuple[Any, ...] | None = None
        streak = 0
        touched_at: float | None = None
        while not self._stop.is_set():
            try:
                if surface is None:
                    surface = self._open()
                    drawn_key = None
                self._wake.wait(poll_interval(time.monotonic(), touched_at))
                self._wake.clear()
                now = time.monotonic()
                inputs = [translate(e, *surface.get_size(), now) for e in pygame.event.get()]
                if any(inputs):
                    touched_at = now
                while True:
                    try:
                        posted = self._inputs.get_nowait()  # stamped now: the core's clock
                        inputs.append(replace(posted, at=now))
                    except queue.Empty:
                        break
                inputs.append(Tick(now))
                drawn_key = self._step(surface, painter, [i for i in inputs if i], drawn_key)
                streak = 0
            except Exception as exc:  # a renderer fault must never reach the core
                self.faults += 1
                streak += 1
                self.last_fault = f"{type(exc).__name__}: {exc}"
                log.exception("display fault %d (streak %d)", self.faults, streak)
                drawn_key = None
                if surface is not None:
                    surface = self._fault_screen(surface, painter)
                if streak >= RESTART_AFTER:
                    self._close()
                    surface = None
                    self._stop.wait(min(5.0, 0.2 * streak))  # back off; stop() still wins
            finally:
                self.cpu_s = time.thread_time()
        self._close()

    def _step(
        self,
        surface: pygame.Surface,
        painter: Any,
        inputs: list[NavInput],
        drawn_key: tuple[Any, ...] | None,
    ) -> tuple[Any, ...]:
        import pygame  # noqa: PLC0415 (lazy: pygame stays out of the core)

        sv, snap = self._snapshot.get()
        fv, floor = self._floor.get()
        dv, diag = self._diag.get()
        tv, status = self._status.get()
        data = DisplayInputs(snap, floor, diag, status, self.table)
        ctx = NavContext(
            self.verify_pin,
            floor,
            diag,
            snap.floor_call,
            self.sign_in,
            status.dealers,
            snap.phase in SIGN_IN_PHASES,
        )
        for event in inputs:
            self.nav, commands = handle(self.nav, event, self.last_model, ctx)
            for command in commands:
                self._emit(command)
        versions = {"snapshot": sv, "floor": fv, "diag": dv, "status": tv}
        used = inputs_used(self.nav)
        key = (self.nav, *(versions[name] for name in used))
        if key == drawn_key:
            if "snapshot" not in used and self.drawn_version != sv:
                with self._drawn:  # a screen that shows no snapshot is never behind one
                    self.drawn_version = sv
                    self._drawn.notify_all()
            return key
        model = self.build(self.nav, data, self.panel, self.theme)
        painter.paint(surface, model)
        pygame.display.flip()
        with self._drawn:
            self.last_model = model
            self.frames += 1
            self.drawn_version = sv
            self._drawn.notify_all()
        return key

    def _emit(self, command: Command) -> None:
        if self.on_command is None:
            return
        try:
            self.on_command(command)
        except Exception:
            log.exception("display: on_command failed for %r", command)

    def _fault_screen(self, surface: pygame.Surface, painter: Any) -> pygame.Surface | None:
        """Show that the display is in fault (plain text, nothing that could fail again)."""
        try:
            import pygame  # noqa: PLC0415 (lazy: pygame stays out of the core)

            surface.fill((0, 0, 0))
            img = painter.font(painter.theme.font_px(TextRole.TEXT, self.panel)).render(
                "DISPLAY FAULT - RESTARTING", True, (255, 255, 255)
            )
            surface.blit(img, (20, 20))
            pygame.display.flip()
            return surface
        except Exception:
            log.exception("display: fault screen failed too")
            return None

    def _close(self) -> None:
        try:
            import pygame  # noqa: PLC0415 (lazy: pygame stays out of the core)

            pygame.display.quit()
        except Exception:
            log.exception("display: closing pygame failed")
