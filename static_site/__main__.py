"""``python -m static_site`` = ``script/build-static`` (inside the build venv)."""

import sys

from .build import main

sys.exit(main())
