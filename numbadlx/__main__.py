"""``python -m numbadlx``: the same as the ``numbadlx`` command."""

import sys

from .cli import main

sys.exit(main())
