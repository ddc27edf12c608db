"""Station configuration checks: what `station config check` validates before play. Package.

`checks` holds the framework (a list of named checks, each returning problems as
`FILE: KEY: problem`); `pinmap_check` the pin-map check; `cli` the command. The daemon's own
config (station.toml, deck registry, profile) plugs in as more entries of `checks.CHECKS`.
"""
