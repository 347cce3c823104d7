"""``python -m fxlog`` runs the command line."""

from fxlog.cli import main

main()
