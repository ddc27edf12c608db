"""Pin maps, one TOML file per table revision (package data). Pure data.

`rev-a.toml` is the embedded default; load it with `hardware.inputs.pinmap_load.default_pinmap()`.
"""
