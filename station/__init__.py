"""Dealer Station: the application (rules engine, journal, display, daemon, CLI)."""

from station import native as _native
from station.version import VERSION

__version__ = VERSION

_native.activate()  # the compiled engine, when built from this source
