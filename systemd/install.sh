#!/bin/sh
# Install Dealer Station on Raspberry Pi OS (Bookworm, 64-bit; Raspberry Pi 5) from this checkout.
#
#   sudo SHOE_SERIAL=DS-SHOE-0001 ZONES_SERIAL=DS-ZONE-0001 systemd/install.sh
#   sudo FLEET_BROKER_IP=10.20.0.5 ... systemd/install.sh   (a station with a [fleet] section)
#
# What it does (each step is idempotent, so running it again upgrades in place):
#   1. the OS packages pygame-ce's kmsdrm driver loads at run time (libdrm, libgbm, libEGL) and venv
#   2. a static system user `dealer` (no login, no home) in the groups dialout gpio video input
#   3. a virtualenv in /opt/dealer-station/venv with this package and its `pi` extra (lgpio)
#   4. /etc/dealer-station/station.toml from station/config/example.toml, if there is none yet
#   5. the udev rule (stable /dev/dealer/shoe and /dev/dealer/betzones by USB serial number)
#   6. the systemd unit (and, with FLEET_BROKER_IP, the drop-in that lets the journal forwarder
#      reach that broker and nothing else); `station config check` as the service user; start
# Not done here (once per Pi, by hand, see hardware/pinmaps/rev-a.toml): the I2C and MCP23017
# overlays in /boot/firmware/config.txt, and the serial console off.
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
apt-get install -y -q python3-venv python3-dev libdrm2 libgbm1 libegl1 i2c-tools

echo "== user"
if ! id dealer >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE" --no-create-home \
        --shell /usr/sbin/nologin --comment "Dealer Station" dealer
fi
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
EXTRAS=pi
[ -n "${FLEET_BROKER_IP:-}" ] && EXTRAS=pi,fleet
"$PREFIX/venv/bin/python" -m pip install --quiet "$SRC[$EXTRAS]"
install -m 0644 "$SRC/README.md" "$PREFIX/README.md"

echo "== config"
install -d -m 0750 -o root -g dealer "$CONF"
if [ ! -f "$CONF/station.toml" ]; then
    install -m 0640 -o root -g dealer "$SRC/station/config/example.toml" "$CONF/station.toml"
    echo "installed $CONF/station.toml from the example: set station_id and the table"
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
if ! runuser -u dealer -- "$PREFIX/venv/bin/station" config check --config "$CONF/station.toml"; then
    echo "install.sh: fix $CONF/station.toml, then: systemctl enable --now dealer-station" >&2
    exit 1
fi
systemctl enable --now dealer-station
systemctl --no-pager status dealer-station || true
echo "logs: journalctl -u dealer-station -f   (warnings only: add -p warning)"
