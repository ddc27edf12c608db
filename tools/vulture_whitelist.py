"""What the dead-code check (vulture, run by `./dev test`) cannot see being used. Not imported.

Each name here is used, but not by a Python call vulture can follow: a library calls it back, a
template or a serializer reads it by name, a device runs it, or it is a value of a stored
vocabulary. Anything else that vulture reports is dead: remove it, do not add it here.
"""

from typing import Any

_: Any = object()  # never imported: the attribute reads below are for vulture to see

# Callbacks and hooks a library calls, attributes a library reads.
_.on_connect  # paho-mqtt callbacks (station/fleet/paho_transport.py, tests/fleet)
_.on_connect_fail
_.on_disconnect
_.on_publish
_.on_subscribe
_.SessionExpiryInterval  # a paho MQTT 5 property
_.when_changed  # gpiozero's edge callback (hardware/inputs/gpio.py)
_.autocommit  # psycopg's connection mode (station/central/ingest.py)
_.formatter_class  # argparse (station/cli/reference.py)
_.script_args  # setuptools (station/native_build.py)
_.card_count  # PokerKit reads a hand type's class attributes (tests/differential/pk_games.py)
_.board_card_count
_.hole_card_count
_.reducer_override  # pickle.Pickler's hook (station/journal/checkpoint.py)
_.last_known  # HeadSource, a Protocol (station/journal/witness.py)
_.HeadSource

# Named in a string and loaded by name: `lazy("station.config.station_check:check_station")`.
_.check_station
_.check_registry

# pytest: module marks, fixtures used through @pytest.mark.usefixtures("..."), conftest hooks,
# and the node id attribute xdist reads under a pytest before 9.2 (tests/conftest.py).
_.pytest_addoption
_.pytest_collection_modifyitems
_._nodeid
_.pytestmark
_.font_init
_.open_umask

# Read by name: dataclasses.asdict (the diagnostics' JSON: station/diag/model.py),
# dataclasses.fields (the rake report's figures, the emulator's fault counts), Jinja2
# templates (the floor console: station/central/console/templates).
_.pending_rows
_.oldest_pending_utc
_.oldest_pending_age_s
_.uptime_s
_.hands_raked
_.wrong_drops
_.garbage_to_device
_.bitflip_to_device
_.drop_to_device
_.last_row_age_s
_.floor_call_reason
_.floor_call_age_s
_.state_words
_.severity_name
_.observability
_.created_at
_.created_by
_.replied_at
_.average  # the tournament's live view (station/central/tournament/board.py)
_.winner_name  # the same view: the won event's clock names the winner
_.rules_source
_.centre_text  # a table's link, forwarding and pending commands in words (floor.Tile)
_.forwarding_text
_.pending_text
_.not_heard  # the map's summary (floor.Room)
# The console's records mirror their database rows (station/central/console): these columns
# are read into the record but not shown yet.
_.expires_at
_.status_age_s

# Fields of the link protocol's messages, decoded from every frame (firmware_bridge/PROTOCOL.md);
# the host does not act on these yet.
_.face_sensor_fault
_.zone_fault
_.as_of_event_id

# Values of stored or published vocabularies (read back by value from journals, sessions, the
# rule catalog): a member no code raises today still names what an old journal may hold.
_.CLOCK_UNSYNCED  # TiltCode
_.STATION_LINK_DOWN  # Rule (the catalog's station rules)
_.STATION_ZONE_OVER_STACK
_.TOURN_ELIMINATION_ORDER  # Rule: no incident; the order is in hand_end.eliminated
_.TOURN_BUTTON  # Rule: no incident; the button the draw gives is the check
_.CLUBS  # Suit
_.BLUE  # the Okabe-Ito palette, complete (station/display/colour.py)

# The shoe and bet-zone firmware (MicroPython, hardware/firmware): the bet-zone board's entry
# point (its main.py passes the board's own zone sensors; deploy.py writes only the shoe's),
# protocols named in string annotations (MicroPython
# has no `typing`), and the stand-in of MicroPython's `machine` module its tests run against.
_.main_bet_zones
_.ZoneSensor
_.HostUART
_.Store
_.HARD_RESET
_.DEEPSLEEP_RESET
_.SOFT_RESET
_.PULL_DOWN

# Rule-profile and game settings the catalog decides (docs/RULES-CATALOG.md names them) that
# the engine does not read yet: each profile plays the default. A known gap, not dead code:
# implementing or dropping each is a rules decision.
_.max_draw
_.redeal_burn
_.stud_min_cards_at_showdown
_.missed_blind_live_only_bb
_.require_explicit_checks
