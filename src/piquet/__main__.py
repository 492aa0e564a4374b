"""``python -m piquet``: the ``piquet`` command."""

import sys

from piquet.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
