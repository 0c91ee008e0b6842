"""Shell completion of printer names (``printmgmt printers pause <TAB>``), from the server itself.

Completion runs with the settings in force (environment, profile, stored session: never a prompt) and a
short timeout; anything that fails completes nothing rather than printing an error into the shell.
"""

from __future__ import annotations

import asyncio
import os

__all__ = ["printer_names"]

#: Completion must feel instant: give up after this many seconds.
TIMEOUT = 3.0
LIMIT = 50


def printer_names(incomplete: str) -> list[str]:
    """Printer names starting with ``incomplete`` (at most :data:`LIMIT`)."""
    try:
        return asyncio.run(asyncio.wait_for(_fetch(incomplete), TIMEOUT))
    except Exception:  # completion never fails loudly: no server, no credentials, a slow answer
        return []


async def _fetch(incomplete: str) -> list[str]:
    from printmgmt import odata

    from .config import resolve

    resolved = resolve({}, os.environ)
    resolved.fill_secrets(None)
    query = odata.field("_id").startswith(incomplete) if incomplete else None
    async with resolved.client() as client:
        quick = client.with_options(retries=0, timeout=TIMEOUT)
        page = await quick.printers.list(filter=query, select="_id", orderby="_id", top=LIMIT)
    return [printer.id for printer in page]
