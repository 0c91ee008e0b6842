"""The ``printmgmt`` command line (typer and rich; ``import printmgmt`` does not load it).

``main`` is the console-script entry point; :mod:`.app` holds the commands.
"""

from __future__ import annotations

import sys
from typing import Final

__all__ = ["main"]


#: The packages of the ``cli`` extra.
_EXTRA: Final = frozenset({"typer", "rich"})


def main() -> None:
    """Run the ``printmgmt`` command; without the ``cli`` extra, say how to install it and exit 2."""
    try:
        from .app import app
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in _EXTRA:
            raise
        print("the printmgmt command line needs its extra: pip install 'printmgmt[cli]'", file=sys.stderr)
        raise SystemExit(2) from None
    app(prog_name="printmgmt")
