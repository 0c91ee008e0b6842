"""``python -m printmgmt``: the ``printmgmt`` command, when a distribution provides it (``printmgmt[cli]``).

The command is found by its console-script entry point, so the SDK imports no command line.
"""

import sys
from importlib.metadata import entry_points

commands = entry_points(group="console_scripts", name="printmgmt")
if not commands:
    print("the printmgmt command line is not installed: pip install 'printmgmt[cli]'", file=sys.stderr)
    raise SystemExit(2)
next(iter(commands)).load()()
