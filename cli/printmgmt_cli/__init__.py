"""The ``printmgmt`` command line (typer and rich) and the doctor, a distribution beside the SDK.

``main`` is the console-script entry point; :mod:`.app` holds the commands.
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """Run the ``printmgmt`` command."""
    from .app import app  # typer and rich load with the command, not with the package

    app(prog_name="printmgmt")
