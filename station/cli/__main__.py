"""`python -m station.cli ...` is the same as the `station` command (as `python -m station`)."""

import sys

from station.cli import main

sys.exit(main())
