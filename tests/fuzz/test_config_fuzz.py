"""Fuzzing the config loader: station.toml, the pin map and the deck registry it names, from any
bytes and from mutants of the shipped files (a value of the wrong type, a line cut short, a key
twice, a key or section nobody knows). Property: a valid config or the documented error with
every problem as `FILE: KEY: reason` naming the file it is in (`ConfigError`, and
`PinMapError`/`RegistryError` from their own parsers), never another exception, never a hang;
and nothing is swallowed: every unknown key put in is named.
"""

from __future__ import annotations

import math
import re
import tempfile
from importlib import resources
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hardware.inputs.exc import PinMapError
from hardware.inputs.pinmap_load import default_pinmap_path, parse_pinmap
from station.config.registry import RegistryError, parse_registry
from station.config.station_toml import ConfigError, load_station, parse_station
from station.demo.rig import registry_toml
from tests.fuzz.budget import budget, hang_guard

EXAMPLE = Path(str(resources.files("station.config").joinpath("example.toml")))
PINMAP = Path(default_pinmap_path())
SOURCE = Path("/etc/dealer-station/station.toml")
ASSIGNMENT = re.compile(r"^(\s*)([A-Za-z0-9_\"-]+)(\s*=\s*)(.*)$")
FUZZ = budget(150)

# TOML values as text, of every type (and a few that are not TOML at all).
toml_values = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(
        lambda f: "nan" if math.isnan(f) else ("inf" if f == math.inf else repr(f))
    ),
    st.booleans().map(lambda b: "true" if b else "false"),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
    st.sampled_from(
        [
            "[]",
            "[1, 2, 99]",
            '["a", 1]',
            "{}",
            "{ a = 1 }",
            "1979-05-27T07:32:00Z",
            "07:32:00",
            '"/dev/null"',
            '""',
            "0x20",
            "-0",
            "[[1]]",
            "not toml",
            '"7"',
            '"10.1"',
        ]
    ),
)


@st.composite
def mutants(draw: st.DrawFn, text: str) -> str:
    """`text` with 1-4 mutations of its lines."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "unknown", "section", "dup", "cut", "drop"]))
        m = ASSIGNMENT.match(lines[i])
        if kind == "value" and m is not None:
            lines[i] = m.group(1) + m.group(2) + m.group(3) + draw(toml_values)
        elif kind == "unknown":
            lines.insert(i, f"{draw(st.from_regex(r'[a-z_]{1,10}', fullmatch=True))} = 1")
        elif kind == "section":
            lines.insert(i, f"[{draw(st.from_regex(r'[a-z_.]{1,12}', fullmatch=True))}]")
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:
            del lines[i]
    return "\n".join(lines)


def _named(problems: list[str], file: Path | str) -> None:
    assert problems
    for problem in problems:
        assert problem.startswith(f"{file}: "), problem
        assert problem.count(": ") >= 2, problem


@hang_guard(30)
@FUZZ
@given(st.binary(max_size=300))
def test_station_toml_from_any_bytes(data: bytes) -> None:
    try:
        parse_station(data, SOURCE)
    except ConfigError as exc:
        _named([str(p) for p in exc.problems], SOURCE)


@hang_guard(30)
@FUZZ
@given(mutants(EXAMPLE.read_text(encoding="utf-8")))
def test_a_mutated_station_toml_is_valid_or_refused_by_key(text: str) -> None:
    try:
        parse_station(text.encode("utf-8"), SOURCE)
    except ConfigError as exc:
        _named([str(p) for p in exc.problems], SOURCE)


@hang_guard(30)
@FUZZ
@given(mutants(PINMAP.read_text(encoding="utf-8")))
def test_a_mutated_pin_map_is_valid_or_refused_by_key(text: str) -> None:
    try:
        parse_pinmap(text, "pinmap.toml")
    except PinMapError as exc:
        assert exc.problems
        _named(str(exc).split("\n"), "pinmap.toml")


@hang_guard(30)
@FUZZ
@given(mutants(registry_toml()))
def test_a_mutated_deck_registry_is_valid_or_refused_by_key(text: str) -> None:
    try:
        parse_registry(text, "decks.toml")
    except RegistryError as exc:
        _named([str(p) for p in exc.problems], "decks.toml")


TABLE = """\
station_id = "FUZZ"
[table]
game = "nlhe"
seats = [1, 2, 3]
[table.stakes]
sb = 1
bb = 2
[shoe]
port = "shoe"
[betzones]
port = "betzones"
[inputs]
backend = "mock"
pinmap = "pinmap.toml"
[registry]
file = "decks.toml"
[display]
driver = "none"
[journal]
path = "journal.sqlite"
"""


@hang_guard(60)
@budget(60)
@given(
    mutants(TABLE) | st.just(TABLE),
    mutants(PINMAP.read_text(encoding="utf-8")) | st.just(PINMAP.read_text(encoding="utf-8")),
    mutants(registry_toml()) | st.just(registry_toml()),
)
def test_a_config_folder_of_mutants_loads_or_names_every_file_at_fault(
    station: str, pinmap: str, registry: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = {"station.toml": station, "pinmap.toml": pinmap, "decks.toml": registry}
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        try:
            load_station(folder / "station.toml")
        except ConfigError as exc:
            assert exc.problems
            named = {Path(p.file).name for p in exc.problems}
            assert named <= set(files), named


@hang_guard(30)
@FUZZ
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "table", "table.stakes", "shoe", "betzones", "inputs", "journal"]),
            st.from_regex(r"zz[a-z_]{0,8}", fullmatch=True),
        ),
        min_size=1,
        max_size=6,
        unique_by=lambda t: t,
    )
)
def test_every_unknown_key_is_named_none_swallowed(extra: list[tuple[str, str]]) -> None:
    lines = TABLE.replace('pinmap = "pinmap.toml"\n', "").split("\n")
    for section, key in extra:
        at = 1 if not section else lines.index(f"[{section}]") + 1
        lines.insert(at, f"{key} = 1")
    try:
        parse_station("\n".join(lines).encode(), SOURCE)
    except ConfigError as exc:
        keys = {p.key for p in exc.problems if p.message.startswith("unknown key")}
        assert keys == {f"{s}.{k}" if s else k for s, k in extra}, exc.problems
    else:
        raise AssertionError("unknown keys were accepted")
