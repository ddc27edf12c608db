"""Dealer Station: the application (rules engine, journal, display, daemon, CLI)."""

from station import native as _native

__version__ = "0.1.0"

_native.activate()  # the compiled engine, when built from this source
