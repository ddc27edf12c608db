#!/bin/sh
# Install Dealer Station on Raspberry Pi OS (Bookworm, 64-bit; Raspberry Pi 5) from this checkout.
#
#   sudo SHOE_SERIAL=DS-SHOE-0001 ZONES_SERIAL=DS-ZONE-0001 systemd/install.sh
#   sudo FLEET_BROKER_IP=10.20.0.5 ... systemd/install.sh   (a station with a [fleet] section)
#
# What it does (each step is idempotent, so running it again upgrades in place):
#   1. the OS packages pygame-ce's kmsdrm driver loads at run time (libdrm, libgbm, libEGL) and venv
#   2. a static system user `dealer` (no login, no home) in the groups dialout gpio video input, and
#      the group `dealer-floor` (the service's group: its members read the journal and `station
#      diag`); FLOOR_USERS="alice bob" adds those accounts to it
#   3. a virtualenv in /opt/dealer-station/venv with this package and its `pi` extra (lgpio),
#      /usr/local/bin/station pointing at its `station`, and the rules engine compiled for this Pi
#      with mypyc (`native` extra; a few minutes on a Pi 5; if it fails the station runs the same
#      engine as Python, about half as fast)
#   4. /etc/dealer-station/station.toml from station/config/example.toml (journal readable by the
#      floor group), if there is none yet
#   5. the pin map's boot settings (`station config overlays`: I2C, an mcp23017 overlay per
#      expander, SPI and the UART off) into /boot/firmware/config.txt between two marker lines,
#      the previous file kept as config.txt.dealer-station.bak; OVERLAYS=print only prints them
#   6. the udev rule (stable /dev/dealer/shoe and /dev/dealer/betzones by USB serial number)
#   7. the systemd unit (and, with FLEET_BROKER_IP, the drop-in that lets the journal forwarder
#      reach that broker and nothing else); `station config check` as the service user
#   8. the journal and its first admin, on a new table: the PIN from ADMIN_PIN, else asked at the
#      terminal, else made up and printed once (ADMIN_NAME, default "admin")
#   9. enable and start the service; not on the example config's table (station T01, NLHE 1/2)
#      unless you say so at the prompt or with ENABLE=yes
# A journal that belongs to another station id than the config's (a renamed table) stops the
# install with what to do about it.
set -eu

PREFIX=/opt/dealer-station
CONF=/etc/dealer-station
STATE=/var/lib/dealer-station
UNIT=/etc/systemd/system/dealer-station.service
RULES=/etc/udev/rules.d/99-dealer-station.rules
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo)" >&2
    exit 2
fi

echo "== packages"
apt-get update -q
apt-get install -y -q python3-venv python3-dev gcc libdrm2 libgbm1 libegl1 i2c-tools

echo "== user and the floor group"
if ! id dealer >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE" --no-create-home \
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
install -d -m 0755 "$PREFIX"
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/python" -m pip install --quiet --upgrade pip
EXTRAS=pi,native
[ -n "${FLEET_BROKER_IP:-}" ] && EXTRAS=pi,native,fleet
"$PREFIX/venv/bin/python" -m pip install --quiet "$SRC[$EXTRAS]"
echo "== compiled engine (mypyc)"
"$PREFIX/venv/bin/python" -m station.native_build build ||
    echo "install.sh: the compiled engine was not built: the station runs the engine as Python" >&2
"$PREFIX/venv/bin/python" -m station.native_build status
install -m 0644 "$SRC/README.md" "$PREFIX/README.md"
install -d -m 0755 "$PREFIX/docs" && cp -r "$SRC/docs/." "$PREFIX/docs/"  # what README links to
ln -sf "$PREFIX/venv/bin/station" /usr/local/bin/station  # `station ...` for people at the Pi

echo "== config"
install -d -m 0750 -o root -g dealer-floor "$CONF"
[ -f "$CONF/station.toml" ] && chgrp dealer-floor "$CONF/station.toml"
if [ ! -f "$CONF/station.toml" ]; then
    # the example, with the journal readable by the floor group (files 0640)
    example=$(mktemp)
    sed -e 's/^# group_read = true /group_read = true   /' "$SRC/station/config/example.toml" \
        > "$example"
    install -m 0640 -o root -g dealer-floor "$example" "$CONF/station.toml"
    rm -f "$example"
    echo "installed $CONF/station.toml from the example: set station_id and the table"
fi

echo "== boot settings for the pin map"
BOOT=/boot/firmware/config.txt
[ -f "$BOOT" ] || BOOT=/boot/config.txt
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
        if grep -q "console=serial0" /boot/firmware/cmdline.txt 2>/dev/null &&
            echo "$OVERLAY_LINES" | grep -q "^enable_uart=0"; then
            echo "install.sh: remove console=serial0,... from /boot/firmware/cmdline.txt" \
                "(header pins 14 and 15 are inputs of the pin map)" >&2
        fi
    fi
fi

echo "== udev"
sed -e "s/DS-SHOE-\*/${SHOE_SERIAL:-DS-SHOE-*}/" -e "s/DS-ZONE-\*/${ZONES_SERIAL:-DS-ZONE-*}/" \
    "$SRC/systemd/99-dealer-station.rules" > "$RULES"
chmod 0644 "$RULES"
udevadm control --reload
udevadm trigger --subsystem-match=tty --action=add

echo "== systemd"
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
setting() {  # a value of the installed config: setting journal path
    "$PREFIX/venv/bin/python" -c 'import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))
for k in sys.argv[2:]: d = d.get(k, {}) if isinstance(d, dict) else {}
print(d if isinstance(d, str) else "")' "$CONF/station.toml" "$@"
}
ID=$(setting station_id)
JOURNAL=$(setting journal path)
case "$JOURNAL" in /*) ;; *) JOURNAL="$CONF/$JOURNAL" ;; esac
if [ -f "$JOURNAL" ]; then
    OWNER=$(station journal status --json --journal "$JOURNAL" |
        "$PREFIX/venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["station_id"])')
    if [ "$OWNER" != "$ID" ]; then
        cat >&2 <<EOT
install.sh: $JOURNAL is the journal of station $OWNER, but $CONF/station.toml says
station_id = "$ID". A journal is the record of one station and keeps the id it was created with
(its hash chain covers it). Either:
  - this is still table $OWNER: set station_id = "$OWNER" in $CONF/station.toml; or
  - the table was renamed to $ID: keep $OWNER's journal as its record and start a new one:
      for f in $JOURNAL*; do mv "\$f" "\$f.$OWNER"; done
    (forward or copy the old one off the Pi first if the site keeps them centrally).
Then run install.sh again.
EOT
        exit 1
    fi
else
    station journal init --station "$ID" --journal "$JOURNAL" --group-read
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
    echo "enrol the floor and technicians: sudo -u dealer $PREFIX/venv/bin/station journal" \
        "users add NAME --role floor --person $ADMIN --journal $JOURNAL"
fi

echo "== service"
if grep -q '^station_id = "T01"' "$CONF/station.toml" && [ "${ENABLE:-}" != yes ]; then
    answer=no
    if [ -t 0 ]; then
        printf 'The config is still the example table (station T01, NLHE 1/2, 9 seats). Start the '
        printf 'service on it anyway? [y/N] '
        read -r answer
    fi
    case "$answer" in
        y | Y | yes) ;;
        *)
            echo "not enabled: set station_id and [table] in $CONF/station.toml, then:"
            echo "  systemctl enable --now dealer-station"
            exit 0
            ;;
    esac
fi
systemctl enable --now dealer-station
systemctl --no-pager status dealer-station || true
echo "logs: journalctl -u dealer-station -f   (warnings only: add -p warning)"
echo "links, inputs, journal: sudo -u dealer $PREFIX/venv/bin/station diag --config $CONF/station.toml"
