"""401 for every kind of bad token and 403 per role, through the public SDK."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import pytest
from joserfc import jwt
from joserfc.jwk import RSAKey
from printmgmt_sim import Simulator, run_simulator
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt import BearerToken
from printmgmt.client import PrintClient
from printmgmt.errors import Forbidden, Unauthorized

from .helpers import job_in

pytestmark = pytest.mark.print_server(jobs=150)


async def assert_unauthorized(sim: Simulator, **client_options: object) -> None:
    async with PrintClient(sim.base_url, **client_options) as client:  # type: ignore[arg-type]
        with pytest.raises(Unauthorized) as caught:
            await client.jobs.list(top=1)
    assert caught.value.code == "ERR_UNAUTHORIZED"


async def test_missing_token(print_simulator: Simulator) -> None:
    await assert_unauthorized(print_simulator)


@pytest.mark.parametrize("header", ["Basic c2VhbC1hZG1pbjp0ZXN0", "Bearer", "Bearer not.a.jwt", "Token abc"])
async def test_malformed_authorization(print_simulator: Simulator, header: str) -> None:
    await assert_unauthorized(print_simulator, headers={"Authorization": header})


async def test_expired_token(print_simulator: Simulator) -> None:
    await assert_unauthorized(print_simulator, auth=BearerToken(print_simulator.token(ttl=-1)))


async def test_token_of_another_simulator(print_simulator: Simulator) -> None:
    async with run_simulator(jobs=0, speed=0) as other:
        foreign = other.token()
    await assert_unauthorized(print_simulator, auth=BearerToken(foreign))


async def test_token_signed_with_another_key(print_simulator: Simulator) -> None:
    genuine = jwt.decode(print_simulator.token(), print_simulator.backend.idp._key).claims
    forged = jwt.encode({"alg": "RS256"}, {**genuine, "exp": int(time.time()) + 60}, RSAKey.generate_key(2048))
    await assert_unauthorized(print_simulator, auth=BearerToken(forged))


async def test_every_client_kind_signs_in(print_simulator: Simulator) -> None:
    for kind in ("graphical", "operator", "cli"):
        async with print_simulator.client("readonly", kind) as client:
            roles = await client.auth.user_roles()
        assert (roles.user, roles.roles, roles["client"]) == (
            "seal-readonly",
            ["readonly"],
            print_simulator.client_credentials(kind).client_id,
        )


Action = Callable[[PrintClient], Awaitable[object]]


async def read(client: PrintClient) -> None:
    await client.jobs.list(top=1)
    await client.printers.get("printer1")
    await client.configs.get()
    await client.flows.list()
    await client.statistics.job_count()


async def change_job(client: PrintClient) -> None:
    job = await job_in(client, "WaitProcessing")
    await client.jobs.pause(job.id)


async def change_printer(client: PrintClient) -> None:
    await client.printers.set_message("PRT-BER-01", "hello")


async def change_flow(client: PrintClient) -> None:
    await client.flows.create({"name": "after_render", "source": "def after_render(job) {}"})


async def change_config(client: PrintClient) -> None:
    await client.configs.replace({"any": {"LOG_LEVEL": "debug"}})


ALLOWED = {
    "admin": {read, change_job, change_printer, change_flow, change_config},
    "custom": {read, change_job},
    "readonly": {read},
}


@pytest.mark.parametrize("role", ["admin", "custom", "readonly"])
@pytest.mark.parametrize(
    "action", [read, change_job, change_printer, change_flow, change_config], ids=lambda a: a.__name__
)
async def test_roles(print_server: PrintServer, role: str, action: Action) -> None:
    client = print_server.client_as(role, "graphical")
    admin = print_server.client
    before = (await admin.statistics.job_count(), await admin.printers.get("PRT-BER-01"), await admin.configs.get())
    if action in ALLOWED[role]:
        await action(client)
        return
    with pytest.raises(Forbidden) as caught:
        await action(client)
    assert caught.value.code == "ERR_FORBIDDEN"
    after = (await admin.statistics.job_count(), await admin.printers.get("PRT-BER-01"), await admin.configs.get())
    assert after == before  # a refused request changes nothing
    assert [flow.name for flow in await admin.flows.list()].count("after_render") == 0


@pytest.mark.parametrize("kind", ["graphical", "operator", "cli"])
async def test_areas_are_granted_per_client(print_server: PrintServer, kind: str) -> None:
    """Jobs and printers for every client; the dashboard (statistics) only for the Administrator's client."""
    client = print_server.client_as("admin", kind)
    await client.jobs.list(top=1)
    await client.printers.pause("PRT-BER-01")
    if kind == "graphical":
        assert (await client.statistics.job_count())["total"] == 150
        return
    for statistic in (client.statistics.job_count, client.statistics.printer_count, client.statistics.metadata):
        with pytest.raises(Forbidden) as caught:
            await statistic()
        client_id = print_server.sim.client_credentials(kind).client_id
        assert caught.value.area == "dashboard"
        assert caught.value.client == f"client {client_id!r} (client kind {kind!r})"
        assert "area 'dashboard'" in str(caught.value) and f"client kind '{kind}'" in str(caught.value)
        # the settings that fix it, by name (the same words against a real server: the SDK's own)
        assert "client_kind='graphical' (PRINTMGMT_CLIENT_KIND=graphical)" in str(caught.value)
        assert "client_secret to that client's own secret (PRINTMGMT_CLIENT_SECRET)" in str(caught.value)


async def test_the_graphical_client_refused_statistics_is_not_told_to_be_the_graphical_client(
    print_simulator: Simulator,
) -> None:
    """A deployment that grants the dashboard to no role: the hint to switch clients would send the user in a
    circle, so it is left out, and the area and the client are still named."""
    allowed = {"seal-plossysadmin": {"roles": {"admin": {"jobs": {"set-read": {"views": ["ALL"], "permissions": []}}}}}}
    async with (
        run_simulator(jobs=5, speed=0, allowed_clients=allowed) as sim,
        sim.client("admin", "graphical") as client,
    ):
        with pytest.raises(Forbidden) as refused:
            await client.statistics.job_count()
    assert refused.value.area == "dashboard" and "client kind 'graphical'" in str(refused.value)
    assert refused.value.hint == "" and "client_kind='graphical'" not in str(refused.value)


async def test_a_client_without_an_area_for_a_role_is_refused(print_simulator: Simulator) -> None:
    allowed = {"seal-plossyscli": {"roles": {"admin": {"jobs": {"set-read": {"views": ["ALL"], "permissions": []}}}}}}
    async with run_simulator(jobs=5, speed=0, allowed_clients=allowed) as sim, sim.client("admin", "cli") as client:
        await client.jobs.list(top=1)  # a view of the jobs area
        job = (await client.jobs.list(top=1)).items[0]
        with pytest.raises(Forbidden) as changing:
            await client.jobs.delete(job.id)  # no permission in it
        assert changing.value.area == "jobs"
        with pytest.raises(Forbidden) as printers:
            await client.printers.list(top=1)  # no printers area at all
        assert printers.value.area == "printers"
