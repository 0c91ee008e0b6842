"""``python -m printmgmt_cli``: the ``printmgmt`` command."""

from . import main

main()
