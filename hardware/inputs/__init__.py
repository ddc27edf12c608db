"""Table inputs and outputs: key panel, puck and seat sensors, LEDs, buzzer. Package (mixed).

gpiozero (lgpio on the Pi, MockFactory in tests and the demo) is the raw edge source only; the
timing (debounce, long press, stable-for-N-ms, read-back) is ours, on an injected clock. Modules,
one concept each (the first line of each says whether it is pure or an edge adapter):

| module | what |
|---|---|
| `names` | key, button and output names as data (the catalog's keys copied, not imported) |
| `pinmap`, `pinmap_load` | the pin-map model; reading and validating the TOML |
| `debounce` | `Debouncer`, `ButtonTimer` (press, long press, stuck) |
| `panel` | the dealer panel's entry logic (`PANEL.md`) |
| `sensors` | `PuckTracker`, `SeatTracker` |
| `events` | the records this layer emits and how they map to engine events |
| `gpio`, `factories` | gpiozero devices and pin factories per chip |
| `table` | `TableInputs`: everything above wired together |
| `signals` | LED and buzzer patterns and their driver |
| `emulator`, `keyboard` | scripted and interactive emulated panels on mock pins |

This package imports nothing at the top so that `import hardware.inputs.pinmap_load` stays light.
"""
