"""A user's test file: the print_server fixture of the installed wheel, pytest-asyncio in its default
strict mode (no asyncio_mode=auto anywhere), so the test carries its marker."""

import pytest
from printmgmt_sim.pytest_plugin import PrintServer


@pytest.mark.asyncio
@pytest.mark.print_server(jobs=25)
async def test_the_seeded_jobs_are_there(print_server: PrintServer) -> None:
    page = await print_server.client.jobs.list(top=5, count=True)
    assert page.total == 25
    assert len(page.items) == 5
