"""`station diag`: the technician's diagnostics from a terminal (links, GPIO inputs, journal
health, outbox, clock), from the running daemon's status socket or from the journal alone.
Package."""
