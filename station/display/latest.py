"""A thread-safe "latest value" box with a version counter. Pure (no I/O; a lock only).

The core puts each new frozen record in; the render thread reads whatever is newest. Putting
never waits for the reader, so a slow or stuck display cannot hold up the core or the journal.
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

V = TypeVar("V")


class LatestBox(Generic[V]):
    def __init__(self, value: V) -> None:
        self._lock = threading.Lock()
        self._value = value
        self._version = 0

    def put(self, value: V) -> int:
        """Store `value`; returns its version (1, 2, ...)."""
        with self._lock:
            self._value = value
            self._version += 1
            return self._version

    def get(self) -> tuple[int, V]:
        with self._lock:
            return self._version, self._value

    @property
    def version(self) -> int:
        with self._lock:
            return self._version
