"""``python -m fxlog.tools PROGRAM ...`` is ``fxlog run PROGRAM ...``."""

import sys

from fxlog.cli import main

sys.argv = [sys.argv[0], "run", *sys.argv[1:]]
main()
