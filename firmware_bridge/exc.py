"""Every exception of the shoe link, one root per family (gpiozero style). Pure.

Garbage on the line is never an exception: the decoder counts it. These are for broken programs
(`ProtocolError`), ports that cannot be opened or went away (`PortError`) and devices the station
must refuse (`IncompatibleDeviceError`). Each leaf also inherits the builtin it refines, so a
caller may catch either.
"""

from __future__ import annotations


class BridgeError(Exception):
    """Root of every error raised by `firmware_bridge`."""


class ProtocolError(BridgeError, ValueError):
    """A frame or message that this program tried to build is not valid (a bug, not line noise)."""


class PortError(BridgeError, OSError):
    """The serial port could not be opened, or it failed while open (unplugged, I/O error)."""


class LinkTimeoutError(BridgeError, TimeoutError):
    """The device did not complete the handshake in time."""


class IncompatibleDeviceError(BridgeError, ConnectionError):
    """The device speaks a protocol version (or is a kind of device) the station cannot use."""
