"""``python -m printmgmt``: the ``printmgmt`` command, when its distribution (``printmgmt[cli]``) is installed."""

import sys

try:
    from printmgmt_cli import main
except ImportError as exc:
    if exc.name != "printmgmt_cli":
        raise
    print("the printmgmt command line is not installed: pip install 'printmgmt[cli]'", file=sys.stderr)
    raise SystemExit(2) from None

main()
