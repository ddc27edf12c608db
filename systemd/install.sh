#!/bin/sh
# Install (or upgrade) Dealer Station on Raspberry Pi OS (Bookworm, 64-bit) from this checkout.
#
#   sudo STATION_ID=T07 SHOE_SERIAL=DS-SHOE-0001 ZONES_SERIAL=DS-ZONE-0001 systemd/install.sh
#   sudo FLEET_BROKER_IP=10.20.0.5 ... systemd/install.sh   (a station with a [fleet] section)
#
# The table's station id comes first, before anything is created: STATION_ID, or asked at the
# terminal; a journal belongs to one station id for good. Run again (an upgrade, or after editing
# the config) it takes the id from the installed config and needs no STATION_ID.
#
# What it does (each step is idempotent, so running it again upgrades in place):
#   0. settles the station id (and refuses one that is not valid, or one that differs from an
#      existing journal's) before it touches the system
#   1. the OS packages pygame-ce's kmsdrm driver loads at run time (libdrm, libgbm, libEGL) and venv
#   2. a static system user `dealer` (no login, no home) in the groups dialout gpio video input, and
#      the group `dealer-floor` (the service's group: its members read the journal and `station
#      diag`); FLOOR_USERS="alice bob" adds those accounts to it
#   3. a virtualenv in /opt/dealer-station/venv with this package and its `pi` extra (lgpio),
#      /usr/local/bin/station pointing at its `station`, and the rules engine compiled for this Pi
#      with mypyc (`native` extra; one C file per engine module, -O2: fits a 2 GB Pi 4; if the
#      build fails the station runs the same engine as Python, and `station diag` says why)
#   4. /etc/dealer-station/station.toml from station/config/example.toml with this station id
#      (journal readable by the floor group), if there is none yet; set [table] in it
#   5. the pin map's boot settings (`station config overlays`: I2C, an mcp23017 overlay per
#      expander, SPI and the UART off) into /boot/firmware/config.txt between two marker lines,
#      the previous file kept as config.txt.dealer-station.bak; OVERLAYS=print only prints them
#   6. the udev rule (stable /dev/dealer/shoe and /dev/dealer/betzones by USB serial number)
#   7. the systemd unit (and, with FLEET_BROKER_IP, the drop-in that lets the journal forwarder
#      reach that broker and nothing else); `station config check` as the service user
#   8. the journal (for the config's station id) and its first admin, on a new table: the PIN from
#      ADMIN_PIN, else asked at the terminal, else made up and printed once (ADMIN_NAME, default
#      "admin")
#   9. enable and (re)start the service; not while [table] is still the example's (NLHE 1/2, nine
#      seats) unless you say so at the prompt or with ENABLE=yes
#
# INSTALL_ROOT=DIR installs into DIR instead of / (every path above under DIR, the config's
# journal path too): the tests run the whole script that way, with the system's commands
# (apt-get, useradd, systemctl, udevadm, ...) replaced by recorders.
set -eu

ROOT=${INSTALL_ROOT:-}
PREFIX=$ROOT/opt/dealer-station
CONF=$ROOT/etc/dealer-station
STATE=$ROOT/var/lib/dealer-station
UNIT=$ROOT/etc/systemd/system/dealer-station.service
RULES=$ROOT/etc/udev/rules.d/99-dealer-station.rules
BIN=$ROOT/usr/local/bin
SRC=$(cd "$(dirname "$0")/.." && pwd)
EXAMPLE=$SRC/station/config/example.toml

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo)" >&2
    exit 2
fi

echo "== station id"
# `station_id` of a config file ("" when it has none)
config_id() { sed -n 's/^station_id *= *"\([^"]*\)".*/\1/p' "$1" | head -n 1; }
# the [table] section of a config (its lines up to the next section that is not [table.*])
table_of() { awk '/^\[/ {on = ($0 ~ /^\[table[].]/)} on' "$1"; }
EXAMPLE_ID=$(config_id "$EXAMPLE")
INSTALLED_ID=""
[ -f "$CONF/station.toml" ] && INSTALLED_ID=$(config_id "$CONF/station.toml")
# The installed config left as the example (its id and table untouched) settles nothing.
if [ "$INSTALLED_ID" = "$EXAMPLE_ID" ] &&
    [ "$(table_of "$CONF/station.toml")" = "$(table_of "$EXAMPLE")" ]; then
    INSTALLED_ID=""
fi
ID=${STATION_ID:-$INSTALLED_ID}
if [ -z "$ID" ]; then
    if [ -t 0 ]; then
        printf "This table's station id (letters, digits, '-', '_'; e.g. T07). The journal "
        printf 'belongs to it for good: '
        read -r ID
    else
        echo "install.sh: which table is this? Give its station id: STATION_ID=T07" \
            "systemd/install.sh (nothing was installed)" >&2
        exit 2
    fi
fi
if ! printf '%s\n' "$ID" | grep -Eqx '[A-Za-z0-9][A-Za-z0-9_-]{0,31}'; then
    echo "install.sh: station id '$ID': letters, digits, '-' and '_', up to 32, starting" \
        "with a letter or digit (nothing was installed)" >&2
    exit 2
fi
JOURNAL=$STATE/journal.sqlite
if [ -f "$CONF/station.toml" ]; then
    JOURNAL_PATH=$(sed -n 's/^path *= *"\([^"]*\)".*/\1/p' "$CONF/station.toml" | tail -n 1)
    case "$JOURNAL_PATH" in /*) JOURNAL=$JOURNAL_PATH ;; ?*) JOURNAL=$CONF/$JOURNAL_PATH ;; esac
fi
if [ -n "$INSTALLED_ID" ] && [ "$ID" != "$INSTALLED_ID" ] && [ -f "$JOURNAL" ]; then
    cat >&2 <<EOT
install.sh: STATION_ID=$ID, but this table is station $INSTALLED_ID: $CONF/station.toml says
so and $JOURNAL is its journal. A journal is the record of one station and keeps the id it
was created with (its hash chain covers it). Either:
  - this is still table $INSTALLED_ID: run install.sh without STATION_ID (or with $INSTALLED_ID); or
  - the table was renamed to $ID: keep $INSTALLED_ID's journal as its record and start a new one:
      systemctl stop dealer-station
      for f in $JOURNAL*; do mv "\$f" "\$f.$INSTALLED_ID"; done
    (forward or copy the old one off the Pi first if the site keeps them centrally), then run
    STATION_ID=$ID install.sh again: it sets station_id, makes the new journal and its admin.
Nothing was changed.
EOT
    exit 2
fi
echo "station $ID"

echo "== packages"
apt-get update -q
apt-get install -y -q python3-venv python3-dev gcc libdrm2 libgbm1 libegl1 i2c-tools

echo "== user and the floor group"
if ! id dealer >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/dealer-station --no-create-home \
        --shell /usr/sbin/nologin --comment "Dealer Station" dealer
fi
# dealer-floor: the service's group (Group= in the unit), so its members read the journal and
# the diagnostics socket; add floor staff and technicians with FLOOR_USERS="alice bob".
getent group dealer-floor >/dev/null || groupadd --system dealer-floor
usermod -a -G dealer-floor dealer
for person in ${FLOOR_USERS:-}; do
    if id "$person" >/dev/null 2>&1; then
        usermod -a -G dealer-floor "$person" && echo "added $person to dealer-floor"
    else
        echo "install.sh: no user $person to add to dealer-floor" >&2
    fi
done
for group in dialout gpio video input; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" dealer
    else
        echo "install.sh: group $group does not exist (not Raspberry Pi OS?)" >&2
    fi
done

echo "== virtualenv"
install -d -m 0755 "$PREFIX" "$BIN"
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv "$PREFIX/venv"
WAS_RUNNING=no
if [ -x "$PREFIX/venv/bin/station" ]; then
    # an upgrade: stop the station before its files are replaced; it starts again at the end
    echo "installed before: $("$PREFIX/venv/bin/station" --version 2>/dev/null || echo unknown)"
    if systemctl is-active --quiet dealer-station; then
        WAS_RUNNING=yes
        systemctl stop dealer-station
        echo "stopped the running station for the upgrade"
    fi
fi
"$PREFIX/venv/bin/python" -m pip install --quiet --upgrade pip
EXTRAS=pi,native
[ -n "${FLEET_BROKER_IP:-}" ] && EXTRAS=pi,native,fleet
"$PREFIX/venv/bin/python" -m pip install --quiet "$SRC[$EXTRAS]"
echo "installing: $("$PREFIX/venv/bin/station" --version)"
echo "== compiled engine (mypyc)"
# One C file per engine module at -O2: at most about 200 MB for the compiler and 850 MB for the
# whole build with mypyc's own process, measured on aarch64 under emulation (docs/table.md,
# "What the Pi runs"); the whole engine in one file at -O3 took about 780 MB for the compiler.
"$PREFIX/venv/bin/python" -m station.native_build build ||
    echo "install.sh: the compiled engine was not built: the station runs the engine as Python" \
        "(about half as fast; \`station diag\` says why)" >&2
"$PREFIX/venv/bin/python" -m station.native_build status
install -m 0644 "$SRC/README.md" "$PREFIX/README.md"
install -d -m 0755 "$PREFIX/docs" && cp -r "$SRC/docs/." "$PREFIX/docs/" # what README links to
ln -sf "$PREFIX/venv/bin/station" "$BIN/station" # `station ...` for people at the Pi

echo "== config"
install -d -m 0750 -o root -g dealer-floor "$CONF"
if [ ! -f "$CONF/station.toml" ]; then
    # the example, with this station's id, the journal where the unit keeps its state and
    # readable by the floor group (files 0640)
    example=$(mktemp)
    sed -e "s/^station_id = \"$EXAMPLE_ID\"/station_id = \"$ID\"/" \
        -e "s#^path = \"/var/lib/dealer-station/journal.sqlite\"#path = \"$JOURNAL\"#" \
        -e 's/^# group_read = true /group_read = true   /' "$EXAMPLE" > "$example"
    install -m 0640 -o root -g dealer-floor "$example" "$CONF/station.toml"
    rm -f "$example"
    echo "installed $CONF/station.toml for station $ID: set [table] (game, stakes, seats) in it"
elif [ "$(config_id "$CONF/station.toml")" != "$ID" ]; then
    # no journal yet (checked above): the id is still free to set
    sed -i "s/^station_id *= *\"[^\"]*\"/station_id = \"$ID\"/" "$CONF/station.toml"
    echo "set station_id = \"$ID\" in $CONF/station.toml"
fi
chgrp dealer-floor "$CONF/station.toml"

echo "== boot settings for the pin map"
BOOT=$ROOT/boot/firmware/config.txt
[ -f "$BOOT" ] || BOOT=$ROOT/boot/config.txt
OVERLAY_LINES=$("$PREFIX/venv/bin/station" config overlays --config "$CONF/station.toml") || {
    echo "install.sh: the pin map of $CONF/station.toml is not valid (station config check says why)" >&2
    OVERLAY_LINES=""
}
if [ -n "$OVERLAY_LINES" ]; then
    if [ "${OVERLAYS:-write}" = print ] || [ ! -f "$BOOT" ]; then
        echo "add these lines to the Pi's config.txt, then reboot:"
        echo "$OVERLAY_LINES"
    else
        begin=$(echo "$OVERLAY_LINES" | head -n 1)
        end=$(echo "$OVERLAY_LINES" | tail -n 1)
        new=$(mktemp)
        # the file without an earlier block of ours, then the block as the pin map wants it now
        awk -v b="$begin" -v e="$end" '$0 == b {skip = 1} !skip {print} $0 == e {skip = 0}' "$BOOT" > "$new"
        printf '%s\n' "$OVERLAY_LINES" >> "$new"
        if cmp -s "$new" "$BOOT"; then
            echo "$BOOT already has the pin map's settings"
        else
            cp -p "$BOOT" "$BOOT.dealer-station.bak"
            cat "$new" > "$BOOT"
            echo "wrote the pin map's settings into $BOOT (previous: $BOOT.dealer-station.bak);" \
                "reboot for them to take effect"
        fi
        rm -f "$new"
        if grep -q "console=serial0" "$ROOT/boot/firmware/cmdline.txt" 2>/dev/null &&
            echo "$OVERLAY_LINES" | grep -q "^enable_uart=0"; then
            echo "install.sh: remove console=serial0,... from /boot/firmware/cmdline.txt" \
                "(header pins 14 and 15 are inputs of the pin map)" >&2
        fi
    fi
fi

echo "== udev"
install -d -m 0755 "$(dirname "$RULES")"
sed -e "s/DS-SHOE-\*/${SHOE_SERIAL:-DS-SHOE-*}/" -e "s/DS-ZONE-\*/${ZONES_SERIAL:-DS-ZONE-*}/" \
    "$SRC/systemd/99-dealer-station.rules" > "$RULES"
chmod 0644 "$RULES"
udevadm control --reload
udevadm trigger --subsystem-match=tty --action=add

echo "== systemd"
install -d -m 0755 "$(dirname "$UNIT")"
install -m 0644 "$SRC/systemd/dealer-station.service" "$UNIT"
if [ -n "${FLEET_BROKER_IP:-}" ]; then
    install -d -m 0755 "$UNIT.d"
    sed -e "s/@BROKER_IP@/$FLEET_BROKER_IP/" "$SRC/systemd/dealer-station-fleet.conf" \
        > "$UNIT.d/fleet.conf"
    chmod 0644 "$UNIT.d/fleet.conf"
fi
systemctl daemon-reload
# as the service runs: user dealer, group dealer-floor (what it creates, the floor group reads)
station() { runuser -u dealer -g dealer-floor -- "$PREFIX/venv/bin/station" "$@"; }
install -d -m 0750 -o dealer -g dealer-floor "$STATE"
if ! station config check --config "$CONF/station.toml"; then
    echo "install.sh: fix $CONF/station.toml, then run install.sh again" >&2
    exit 1
fi

echo "== journal and the first admin"
if [ -f "$JOURNAL" ]; then
    OWNER=$(station journal status --json --journal "$JOURNAL" |
        "$PREFIX/venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["station_id"])')
    echo "the journal of station $OWNER goes on: $JOURNAL"
else
    station journal init --config "$CONF/station.toml" --group-read
fi
if [ "$(station journal users list --json --journal "$JOURNAL")" = "[]" ]; then
    ADMIN=${ADMIN_NAME:-admin}
    if [ -n "${ADMIN_PIN:-}" ]; then
        printf '%s\n' "$ADMIN_PIN" |
            station journal users add "$ADMIN" --role admin --pin-stdin --journal "$JOURNAL"
    elif [ -t 0 ]; then
        echo "the first admin, $ADMIN: choose a PIN (6-12 digits, not a simple pattern)"
        stty -echo
        printf 'PIN: '; read -r pin1; printf '\nagain: '; read -r pin2; echo
        stty echo
        [ "$pin1" = "$pin2" ] || { echo "install.sh: the two PINs differ" >&2; exit 1; }
        printf '%s\n' "$pin1" |
            station journal users add "$ADMIN" --role admin --pin-stdin --journal "$JOURNAL"
    else
        station journal users add "$ADMIN" --role admin --generate-pin --journal "$JOURNAL"
    fi
    echo "enrol the floor and technicians: sudo -u dealer station journal users add NAME" \
        "--role floor --person $ADMIN --config /etc/dealer-station/station.toml"
fi

echo "== service"
if [ "$(table_of "$CONF/station.toml")" = "$(table_of "$EXAMPLE")" ] &&
    [ "${ENABLE:-}" != yes ] && [ "$WAS_RUNNING" != yes ]; then
    answer=no
    if [ -t 0 ]; then
        printf "[table] is still the example's (NLHE 1/2, 9 seats). Start the service on it "
        printf 'anyway? [y/N] '
        read -r answer
    fi
    case "$answer" in
        y | Y | yes) ;;
        *)
            echo "not enabled: set [table] in $CONF/station.toml, then:"
            echo "  systemctl enable --now dealer-station"
            exit 0
            ;;
    esac
fi
systemctl enable dealer-station
# an upgrade: the running daemon (the old version) stops, the new one replays the journal
systemctl restart dealer-station
systemctl --no-pager status dealer-station || true
echo "logs: journalctl -u dealer-station -f   (warnings only: add -p warning)"
echo "links, inputs, journal, versions: station diag --config /etc/dealer-station/station.toml"
