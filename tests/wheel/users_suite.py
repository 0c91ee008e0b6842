"""A user's test file: the print_server fixture of the installed wheel, pytest-asyncio in its default
strict mode (no asyncio_mode=auto anywhere), so the test carries its marker; and respx in front of a default
client, as users mock it."""

import pytest
import respx
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt import PrintClient


@pytest.mark.asyncio
@pytest.mark.print_server(jobs=25)
async def test_the_seeded_jobs_are_there(print_server: PrintServer) -> None:
    page = await print_server.client.jobs.list(top=5, count=True)
    assert page.total == 25
    assert len(page.items) == 5


@pytest.mark.asyncio
async def test_respx_mock_without_arguments_intercepts_a_default_client() -> None:
    with respx.mock() as router:
        route = router.get("https://print.example/v3/jobs/j1").respond(json={"_id": "j1", "status": "Error"})
        async with PrintClient("https://print.example", auth="t") as client:
            job = await client.jobs.get("j1")
    assert job.id == "j1"
    assert route.call_count == 1
    assert route.calls[0].request.headers["Authorization"] == "Bearer t"
