"""``python -m printmgmt.cli``: the ``printmgmt`` command."""

from . import main

main()
