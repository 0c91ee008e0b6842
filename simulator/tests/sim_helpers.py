"""Small helpers shared by the tests."""

from __future__ import annotations

from printmgmt import PrintClient, odata
from printmgmt.models import Job


async def job_in(client: PrintClient, status: str, *, skip: int = 0) -> Job:
    """A job currently in ``status`` (the ``skip``-th by id)."""
    page = await client.jobs.list(filter=odata.field("status") == status, orderby="_id", top=1, skip=skip)
    assert page.items, f"no job in status {status}"
    return page.items[0]
