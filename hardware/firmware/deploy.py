"""What goes onto a board, and where: the shared protocol module and the firmware, laid out so
that the same imports work on the board and on the host. Host tool (not copied to the board).

The protocol constants, CRC and frame codec live once, in `firmware_bridge/wire.py`, written to
run on MicroPython as well; the board gets that file at `lib/firmware_bridge/wire.py` next to an
empty `__init__.py` (the host package's own `__init__` imports pyserial and threads), and the
firmware at `lib/hardware/firmware/`. Copy a tree with `mpremote`:

    python -m hardware.firmware.deploy shoe out/shoe-fs
    mpremote cp -r out/shoe-fs/lib :  &&  mpremote cp out/shoe-fs/main.py :
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Source files, by repository path, that run on the boards.
FIRMWARE_FILES = (
    "firmware_bridge/wire.py",
    "hardware/firmware/__init__.py",
    "hardware/firmware/devcore.py",
    "hardware/firmware/eventlog.py",
    "hardware/firmware/sensors.py",
    "hardware/firmware/pn532.py",
    "hardware/firmware/shoe.py",
    "hardware/firmware/zones.py",
    "hardware/firmware/board.py",
)
# Package markers written empty on the board: the host versions import host-only modules.
EMPTY_PACKAGES = ("firmware_bridge/__init__.py", "hardware/__init__.py")

MAIN = {
    "shoe": "from hardware.firmware import board\n\nboard.main_shoe()\n",
}


def tree(board: str) -> dict[str, bytes]:
    """Board filesystem path -> contents."""
    if board not in MAIN:
        raise ValueError(f"unknown board {board!r}; known: {', '.join(MAIN)}")
    files = {f"lib/{rel}": (ROOT / rel).read_bytes() for rel in FIRMWARE_FILES}
    files.update({f"lib/{rel}": b"" for rel in EMPTY_PACKAGES})
    files["main.py"] = MAIN[board].encode()
    return files


def write_tree(board: str, dest: Path) -> list[Path]:
    written = []
    for rel, data in sorted(tree(board).items()):
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="lay out a board's filesystem for mpremote")
    parser.add_argument("board", choices=sorted(MAIN))
    parser.add_argument("dest", type=Path)
    args = parser.parse_args(argv)
    for path in write_tree(args.board, args.dest):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
