"""The station daemon (`station run`): the composition root, the single-threaded core loop, the
systemd notification protocol and journald logging. Package.

Modules: `daemon` (the composition root), `core` (the loop), `items` (what the queue carries),
`translate` (adapter records -> engine events, LEDs, status; pure), `display_requests` (display
commands), `views` (floor and diagnostics data), `sink` (display sinks: thread, frames, none),
`resume` (where a restart resumes), `notify` (sd_notify), `logsetup` (journald),
`operations` (`StationOps`: logins, modes, CALL FLOOR, tilts, links). The command is
`station.cli.run`.
"""
