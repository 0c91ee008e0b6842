"""The ``printmgmt`` command line (typer and rich; ``import printmgmt`` does not load it).

``main`` is the console-script entry point; :mod:`.app` holds the commands.
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """Run the ``printmgmt`` command."""
    from .app import app

    app(prog_name="printmgmt")
