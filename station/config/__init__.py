"""Station configuration: `station.toml` (schema, model, loader), the deck registry file, and
the checks of `station config check`. Package.

`model` holds the typed records; `schema` the TOML walker that reports every problem as `FILE:
KEY: reason`; `station_toml` loads a config with the pin map and registry it names;
`registry` reads and writes the deck registry file; `checks` is the check framework, with
`pinmap_check` and `station_check` as its entries; `cli` is the command. `example.toml`
documents the format.
"""
