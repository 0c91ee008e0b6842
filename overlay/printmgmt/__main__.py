"""``python -m printmgmt``: the ``printmgmt`` command."""

from .cli import main

main()
