"""``python -m skat``: see :mod:`skat.cli`."""

import sys

from .cli import main

sys.exit(main())
