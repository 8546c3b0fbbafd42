"""``python -m omaha.server [GAME]``: the same as ``omaha serve``."""

from __future__ import annotations

import sys

from omaha.server.app import main

sys.exit(main())
