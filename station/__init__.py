"""Dealer Station: the application (rules engine, journal, display, daemon, CLI)."""

__version__ = "0.1.0"
