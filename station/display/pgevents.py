"""pygame events -> navigation inputs (touch, mouse, keyboard). Edge adapter."""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from station.display.nav import KeyIn, NavInput, NavKey, Tap

_KEYS: dict[int, str] = {
    pygame.K_UP: NavKey.UP,
    pygame.K_DOWN: NavKey.DOWN,
    pygame.K_LEFT: NavKey.LEFT,
    pygame.K_RIGHT: NavKey.RIGHT,
    pygame.K_RETURN: NavKey.SELECT,
    pygame.K_KP_ENTER: NavKey.SELECT,
    pygame.K_ESCAPE: NavKey.BACK,
    pygame.K_BACKSPACE: NavKey.BACK,
    pygame.K_F2: NavKey.FLOOR,
    pygame.K_F3: NavKey.TECH,
}
_KEYS.update({getattr(pygame, f"K_{d}"): d for d in "0123456789"})
_KEYS.update({getattr(pygame, f"K_KP{d}"): d for d in "0123456789"})


def translate(event: pygame.event.Event, width: int, height: int, at: float) -> NavInput | None:
    """One pygame event as a navigation input, or None when it means nothing to us.

    A finger press becomes a tap at its position (SDL gives it normalised to 0..1). SDL also
    synthesises a mouse press from each touch; those carry `touch=True` and are ignored, so a
    tap counts once.
    """
    if event.type == pygame.FINGERDOWN:
        return Tap(event.x * width, event.y * height, at)
    if event.type == pygame.MOUSEBUTTONDOWN:
        if getattr(event, "touch", False) or event.button != 1:
            return None
        x, y = event.pos
        return Tap(x, y, at)
    if event.type == pygame.KEYDOWN:
        key = _KEYS.get(event.key)
        return KeyIn(key, at) if key is not None else None
    return None
