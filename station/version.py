"""The station software's version, in one place (the CLI's --version, the boot and recovery rows
the journal writes). Pure data: a leaf that imports nothing, so any layer may read it."""

VERSION = "0.2.0.dev0"
