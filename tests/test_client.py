"""PrintClient: input checks, path encoding, downloads, configuration and models."""

from __future__ import annotations

import asyncio
import io
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from in_flight import InFlight

import printmgmt
from printmgmt import DEFAULT_TIMEOUT, BearerToken, JobStatus, PasswordAuth, PrintClient
from printmgmt._config import ssl_context
from printmgmt.errors import NotFound, TransportError
from printmgmt.models import Job, to_datetime

BASE_URL = "https://print.test:8080"  # as in conftest.py

# -- caller input is checked before any request -------------------------------------------------------


#: (call, error); typed, so mypy checks each call: the wrong types the SDK must refuse are marked as deliberate
BAD_ARGUMENTS: list[tuple[Callable[[PrintClient], Awaitable[object]], type[Exception]]] = [
    (lambda c: c.jobs.get(""), ValueError),
    (lambda c: c.jobs.get(None), TypeError),  # type: ignore[arg-type]
    (lambda c: c.jobs.get(42), TypeError),  # type: ignore[arg-type]
    (lambda c: c.jobs.pause(".."), ValueError),
    (lambda c: c.printers.get("."), ValueError),
    (lambda c: c.printers.pause(""), ValueError),
    (lambda c: c.flows.get(b"x"), TypeError),  # type: ignore[arg-type]
    (lambda c: c.jobs.move("j1", printer=""), ValueError),
    (lambda c: c.printers.redirect("p1", to=None), TypeError),  # type: ignore[arg-type]
    (lambda c: c.printers.set_message("p1", 5), TypeError),  # type: ignore[arg-type]
    (lambda c: c.jobs.list(top=-1), ValueError),
    (lambda c: c.jobs.list(skip=-5), ValueError),
    (lambda c: c.jobs.list(top=1.5), TypeError),  # type: ignore[arg-type]
    (lambda c: c.jobs.list(top=True), TypeError),
    (lambda c: c.jobs.list(filter=5), TypeError),  # type: ignore[arg-type]
    (lambda c: c.jobs.list(orderby=["_id"]), TypeError),  # type: ignore[arg-type]
    (lambda c: c.printers.create({"config": {}}), ValueError),
    (lambda c: c.printers.create("p1"), TypeError),  # type: ignore[arg-type]
    (lambda c: c.configs.replace([1, 2]), TypeError),  # type: ignore[arg-type]
    (lambda c: c.statistics.job_count(since=[1]), TypeError),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "error"), BAD_ARGUMENTS)
async def test_bad_arguments_fail_before_any_request(
    mock: respx.MockRouter,
    client: PrintClient,
    call: Callable[[PrintClient], Awaitable[object]],
    error: type[Exception],
) -> None:
    with pytest.raises(error):
        await call(client)
    assert not mock.calls


@pytest.mark.parametrize(("page_size", "start"), [(0, 0), (-1, 0), (10, -1)])
def test_bad_iterate_arguments(client: PrintClient, page_size: int, start: int) -> None:
    with pytest.raises(ValueError):
        client.jobs.iterate(page_size=page_size, start=start)


# -- path parameters are one percent-encoded segment --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "raw_path"),
    [
        ("a/b", b"/v3/printers/a%2Fb"),
        ("../configs/", b"/v3/printers/..%2Fconfigs%2F"),
        ("HP LaserJet/4th floor?#", b"/v3/printers/HP%20LaserJet%2F4th%20floor%3F%23"),
        ("100%", b"/v3/printers/100%25"),
        ("Drucker-Büro", b"/v3/printers/Drucker-B%C3%BCro"),
    ],
)
async def test_path_parameters_never_address_another_path(
    mock: respx.MockRouter, client: PrintClient, name: str, raw_path: bytes
) -> None:
    route = mock.route(method="GET").respond(json={"_id": name})
    printer = await client.printers.get(name)
    assert printer.id == name
    assert route.calls.last.request.url.raw_path == raw_path


async def test_job_action_path_is_encoded(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.route(method="PUT").respond(json={})
    await client.jobs.pause("a/../../configs")
    assert route.calls.last.request.url.raw_path == b"/v3/jobs/a%2F..%2F..%2Fconfigs/pause"


async def test_bodies_are_sent_as_declared(mock: respx.MockRouter, client: PrintClient) -> None:
    move = mock.put("/v3/jobs/j1/move").respond(json={})
    redirect = mock.put("/v3/printers/p1/redirect").respond(json={})
    message = mock.put("/v3/printers/p1/message").respond(json={})
    await client.jobs.move("j1", printer="p2")
    await client.printers.redirect("p1", to="p3")
    await client.printers.set_message("p1", "toner low")
    assert move.calls.last.request.content == b'{"printerName":"p2"}'
    assert redirect.calls.last.request.content == b'{"printerName":"p3"}'
    assert message.calls.last.request.content == b'{"message":"toner low"}'


async def test_statistics_pass_query_through(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/statistics/job-count").respond(json={"Error": 3})
    stats = await client.statistics.job_count(status="Error", days=7, all=True)
    assert stats["Error"] == 3
    assert dict(route.calls.last.request.url.params) == {"status": "Error", "days": "7", "all": "true"}


# -- downloads ----------------------------------------------------------------------------------------


class ChunkedBody(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk


class RecordingSink(io.BytesIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, data: Any) -> int:
        self.writes += 1
        return super().write(data)


async def test_logfile_as_text(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/jobs/j1/logfile").respond(text="first\nsecond\n")
    assert await client.jobs.logfile("j1") == "first\nsecond\n"


async def test_collect_as_bytes(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/jobs/j1/collect").respond(content=b"PK\x03\x04zip")
    assert await client.jobs.collect("j1") == b"PK\x03\x04zip"


async def test_download_streams_chunk_by_chunk(mock: respx.MockRouter, client: PrintClient) -> None:
    chunks = [bytes([n]) * 65536 for n in range(20)]
    mock.get("/v3/jobs/j1/collect").respond(stream=ChunkedBody(chunks))
    sink = RecordingSink()
    written = await client.jobs.collect("j1", to=sink)
    assert written == 20 * 65536
    assert sink.getvalue() == b"".join(chunks)
    assert sink.writes >= 20  # written as it arrives, not once at the end


async def test_download_to_path_is_atomic(mock: respx.MockRouter, client: PrintClient, tmp_path: Path) -> None:
    target = tmp_path / "job.log"
    mock.get("/v3/jobs/j1/logfile").respond(stream=ChunkedBody([b"line 1\n", b"line 2\n"]))
    assert await client.jobs.logfile("j1", to=target) == 14
    assert target.read_bytes() == b"line 1\nline 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.log"]


async def test_failed_download_leaves_no_file(mock: respx.MockRouter, client: PrintClient, tmp_path: Path) -> None:
    target = tmp_path / "job.log"
    mock.get("/v3/jobs/j1/logfile").respond(404, json={"code": "ERR_NOT_FOUND", "message": "no such job"})
    with pytest.raises(NotFound) as caught:
        await client.jobs.logfile("j1", to=target)
    assert caught.value.message == "no such job"
    assert list(tmp_path.iterdir()) == []


async def test_download_cut_mid_body_raises_and_leaves_no_file(
    mock: respx.MockRouter, client: PrintClient, tmp_path: Path
) -> None:
    class Broken(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield b"partial"
            raise httpx.RemoteProtocolError("peer closed connection")

    mock.get("/v3/jobs/j1/collect").respond(stream=Broken())
    with pytest.raises(TransportError):
        await client.jobs.collect("j1", to=tmp_path / "bundle.zip")
    assert list(tmp_path.iterdir()) == []


# -- configuration ------------------------------------------------------------------------------------


async def test_default_timeout_is_finite() -> None:
    async with PrintClient(BASE_URL) as client:
        assert client.http.timeout == DEFAULT_TIMEOUT
        assert client.http.timeout.read == 30.0 and client.http.timeout.connect == 10.0


async def test_timeout_and_headers_are_applied() -> None:
    async with PrintClient(BASE_URL, timeout=2.5, headers={"X-Trace": "t1"}) as client:
        assert client.http.timeout.read == 2.5
        assert client.http.headers["X-Trace"] == "t1"
        assert client.http.headers["User-Agent"].startswith("printmgmt/")


async def test_verify_accepts_a_ca_bundle(tmp_path: Path) -> None:
    import certifi

    # a bundle of one CA: the context trusts that one, not the default store (the TLS suite connects with it)
    first = certifi.contents().split("-----END CERTIFICATE-----")[0] + "-----END CERTIFICATE-----\n"
    bundle = tmp_path / "one-ca.pem"
    bundle.write_text(first)
    context = ssl_context(str(bundle))
    assert isinstance(context, ssl.SSLContext) and context.verify_mode == ssl.CERT_REQUIRED
    assert context.cert_store_stats()["x509_ca"] == 1
    async with PrintClient(BASE_URL, verify=bundle):
        pass
    with pytest.raises(ValueError, match="CA bundle not found"):
        PrintClient(BASE_URL, verify=tmp_path / "missing.pem")
    context = ssl.create_default_context()
    async with PrintClient(BASE_URL, verify=context):
        pass


def test_base_url_must_be_http() -> None:
    with pytest.raises(ValueError):
        PrintClient("printserver:8080")


async def test_string_auth_becomes_a_bearer_token(mock: respx.MockRouter) -> None:
    route = mock.get("/v3/").respond(json={"version": "11.2.0"})
    async with PrintClient(BASE_URL, auth="abc") as client:
        info = await client.version_info()
    assert info.version == "11.2.0"
    assert route.calls.last.request.headers["Authorization"] == "Bearer abc"


async def test_base_url_path_prefix_is_kept(mock: respx.MockRouter) -> None:
    route = mock.get("https://gw.test/print/v3/jobs/j1").respond(json={"_id": "j1"})
    async with PrintClient("https://gw.test/print/", auth="t") as client:
        await client.jobs.get("j1")
    assert route.called


def test_from_env_password_grant() -> None:
    env = {
        "PRINTMGMT_BASE_URL": "https://print.test:8080",
        "PRINTMGMT_AUTH_URL": "https://idp.test:32769/auth",
        "PRINTMGMT_REALM": "SEAL",
        "PRINTMGMT_CLIENT_KIND": "operator",
        "PRINTMGMT_CLIENT_SECRET": "cs",
        "PRINTMGMT_USERNAME": "seal-admin",
        "PRINTMGMT_PASSWORD": "pw",
        "PRINTMGMT_TIMEOUT": "7",
        "PRINTMGMT_VERIFY": "false",
    }
    client = PrintClient.from_env(env)
    auth = client.http.auth
    assert isinstance(auth, PasswordAuth)
    assert auth.token_url == "https://idp.test:32769/auth/realms/SEAL/protocol/openid-connect/token"
    assert auth.client_id == "seal-opcli"
    assert client.http.timeout.read == 7.0
    assert client.base_url == "https://print.test:8080"


def test_from_env_token_and_errors() -> None:
    client = PrintClient.from_env({"PRINTMGMT_BASE_URL": "https://p.test", "PRINTMGMT_TOKEN": "tok"})
    assert isinstance(client.http.auth, BearerToken)
    with pytest.raises(ValueError, match="PRINTMGMT_BASE_URL"):
        PrintClient.from_env({})
    with pytest.raises(ValueError) as caught:
        PrintClient.from_env({"PRINTMGMT_BASE_URL": "https://p.test", "PRINTMGMT_USERNAME": "u"})
    assert str(caught.value) == (
        "PRINTMGMT_USERNAME is set but not PRINTMGMT_PASSWORD, PRINTMGMT_CLIENT_SECRET, "
        "PRINTMGMT_AUTH_URL or PRINTMGMT_TOKEN_URL"
    )


async def test_any_generated_request_goes_through_the_client(mock: respx.MockRouter, client: PrintClient) -> None:
    from printmgmt_api.api.jobs import get_job

    mock.get("/v3/jobs/j1").respond(json={"_id": "j1"})
    job = await client.request(get_job.request("j1"))
    assert isinstance(job, Job)
    assert job.id == "j1"
    assert mock.calls.last.request.headers["Authorization"] == "Bearer test-token"
    mock.get("/v3/jobs/j2").respond(404, json={"message": "no such job"})
    with pytest.raises(NotFound, match="no such job"):
        await client.request(get_job.request("j2"))


async def test_closed_client_says_so() -> None:
    client = PrintClient(BASE_URL, auth="t")
    await client.aclose()
    with pytest.raises(TransportError, match="closed") as caught:  # typed, never httpx's raw RuntimeError
        await client.jobs.get("j1")
    assert isinstance(caught.value.__cause__, RuntimeError)


# -- models -------------------------------------------------------------------------------------------


async def test_unknown_fields_and_enum_values_are_kept(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/jobs/j1").respond(
        json={
            "_id": "j1",
            "status": "Archived",
            "brandNew": {"nested": [1, 2]},
            "current": {"printerName": "p1", "checkinTime": 1608280547459, "tray": "3"},
        }
    )
    job = await client.jobs.get("j1")
    assert job.status == "Archived"
    assert isinstance(job.status, JobStatus)
    assert not job.status.is_known
    assert job["brandNew"] == {"nested": [1, 2]}
    assert isinstance(job.current, printmgmt.models.JobAttributes)
    assert job.current["tray"] == "3"
    assert job.to_dict()["status"] == "Archived"
    assert job.to_dict()["brandNew"] == {"nested": [1, 2]}
    checked_in = to_datetime(job.current.checkin_time)
    assert checked_in is not None and checked_in.isoformat() == "2020-12-18T08:35:47.459000+00:00"


def test_known_status_values_match_case_insensitively_and_keep_the_wire_spelling() -> None:
    variant = JobStatus("paused")
    assert variant == JobStatus.PAUSED
    assert hash(variant) == hash(JobStatus.PAUSED)
    assert {JobStatus.PAUSED: "found"}[variant] == "found"
    assert variant.is_known and variant.name == "PAUSED"
    assert variant.value == "paused"  # what the server sent
    assert Job.from_dict({"_id": "j1", "status": "paused"}).to_dict() == {"_id": "j1", "status": "paused"}
    assert JobStatus("Paused") is JobStatus.PAUSED
    assert to_datetime(None) is None


async def test_cookies_set_by_the_server_are_sent_back(mock: respx.MockRouter, client: PrintClient) -> None:
    # a load balancer's sticky-session cookie: skipping cookie work for answers without Set-Cookie keeps it
    route = mock.get("/v3/jobs/j1")
    route.respond(200, json={"_id": "j1"}, headers={"Set-Cookie": "lb=node2; Path=/"})
    await client.jobs.get("j1")
    route.respond(200, json={"_id": "j1"})
    await client.jobs.get("j1")
    await client.jobs.get("j1")
    assert [call.request.headers.get("cookie") for call in route.calls] == [None, "lb=node2", "lb=node2"]
    assert client.http.cookies["lb"] == "node2"
    client.http.cookies = {"other": "1"}  # replacing the jar keeps the same behaviour
    await client.jobs.get("j1")
    assert route.calls[-1].request.headers.get("cookie") == "other=1"


async def test_requests_beyond_the_pool_size_wait_their_turn(mock: respx.MockRouter) -> None:
    slow = InFlight(lambda request: httpx.Response(200, json={"_id": "j"}), delay=0.01)
    mock.get(url__regex=r".*/v3/jobs/.+").mock(side_effect=slow)
    async with PrintClient(BASE_URL, auth="t", limits=httpx.Limits(max_connections=3), retries=0) as client:
        jobs = await asyncio.gather(*(client.jobs.get(f"j{n}") for n in range(20)))
    assert len(jobs) == 20
    assert slow.peak == 3


async def test_a_wait_for_a_place_beyond_the_pool_timeout_fails(mock: respx.MockRouter) -> None:
    slow = InFlight(lambda request: httpx.Response(200, json={"_id": "j"}), delay=0.5)
    mock.get(url__regex=r".*/v3/jobs/.+").mock(side_effect=slow)
    async with PrintClient(BASE_URL, auth="t", limits=httpx.Limits(max_connections=1), retries=0) as client:
        first = asyncio.ensure_future(client.jobs.get("j1"))
        await asyncio.sleep(0.05)
        with pytest.raises(printmgmt.RequestTimeout, match="waiting for a free connection"):
            await client.jobs.get("j2", timeout=httpx.Timeout(5, pool=0.05))
        assert (await first).id == "j"
    assert slow.peak == 1
