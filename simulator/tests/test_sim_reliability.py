"""Faults over real HTTP: each one ends in the documented exception or a successful retry, after the documented
number of attempts (seen by the client and counted by the server), in bounded time, with no connection left
open once the client is closed.

The suite's conftest makes retries wait no time (real attempt counts); the one test that needs real waits
(``Retry-After``) gives its policy ``asyncio.sleep``.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from _async.helpers import job_in
from printmgmt_sim import Faults
from printmgmt_sim.faults import HTML_PAGE
from printmgmt_sim.pytest_plugin import PrintServer
from sim_helpers import bounded, close_and_check, drained

from printmgmt import PasswordAuth, PrintClient
from printmgmt.auth import BACKOFF_INITIAL
from printmgmt.errors import (
    AuthenticationError,
    BadRequest,
    InvalidResponse,
    PrintMgmtError,
    RequestTimeout,
    ServerError,
    TransportError,
)
from printmgmt.retry import RetryPolicy

pytestmark = pytest.mark.print_server(jobs=50)

VERSION = "GET /v3/"


@pytest.fixture(autouse=True)
async def settled(print_server: PrintServer) -> AsyncIterator[None]:
    """After each test, wait for requests the server still runs (delayed ones outlive a client timeout),
    so that they do not land in the next test's counters or state."""
    yield
    await drained(print_server.sim)


async def signed_in(server: PrintServer, **kwargs: Any) -> PrintClient:
    """An admin client of its own (closed by the fixture if the test fails first) that has its token
    already, so that faults hit the API call, not the sign-in; the server's counters start at zero."""
    client = server.client_as("admin", **kwargs)
    await bounded(client.version_info())
    server.sim.traffic.reset()
    return client


# -- latency beyond the timeout ---------------------------------------------------------------------------


async def _get_version(client: PrintClient, job_id: str) -> object:
    return await client.version_info()


async def _pause_job(client: PrintClient, job_id: str) -> object:
    return await client.jobs.pause(job_id)


async def _delete_job(client: PrintClient, job_id: str) -> object:
    return await client.jobs.delete(job_id)


async def _repeat_job(client: PrintClient, job_id: str) -> object:
    return await client.jobs.repeat(job_id)


Call = Callable[[PrintClient, str], Awaitable[object]]

# (call, its route, attempts when no answer came back in time): reads and deletes are repeated, actions
# and the never-repeatable repeat are not, as the server may have acted (retry.py's table)
SLOW_CALLS = [
    pytest.param(_get_version, "GET /v3/", 3, id="get-retried"),
    pytest.param(_delete_job, "DELETE /v3/jobs/{id}", 3, id="delete-retried"),
    pytest.param(_pause_job, "PUT /v3/jobs/{id}/pause", 1, id="pause-not-retried"),
    pytest.param(_repeat_job, "PUT /v3/jobs/{id}/repeat", 1, id="repeat-not-retried"),
]


@pytest.mark.parametrize(("call", "route", "attempts"), SLOW_CALLS)
async def test_latency_beyond_the_timeout(print_server: PrintServer, call: Call, route: str, attempts: int) -> None:
    sim = print_server.sim
    client = await signed_in(print_server, timeout=0.2)
    job = await bounded(job_in(client, "WaitProcessing"))
    sim.traffic.reset()
    sim.faults.latency = 1.0
    started = time.monotonic()
    with pytest.raises(RequestTimeout) as caught:
        await bounded(call(client, job.id))
    elapsed = time.monotonic() - started
    assert isinstance(caught.value.__cause__, httpx.ReadTimeout)
    assert caught.value.attempts == attempts
    assert sim.traffic.count(route.format(id=job.id)) == attempts
    assert 0.2 * attempts <= elapsed < 0.2 * attempts + 0.5  # each attempt cut at 0.2 s, none waited for 1 s
    await close_and_check(sim, client)


# -- bursts of error answers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("retry_after", [1, None], ids=["with-retry-after", "without-retry-after"])
async def test_a_503_burst_is_retried_until_it_ends(print_server: PrintServer, retry_after: int | None) -> None:
    sim = print_server.sim
    client = await signed_in(print_server)
    sim.faults.retry_after = retry_after
    sim.faults.fail_next = 2  # the first two answers are 503, the third is the real one
    printer = await bounded(client.printers.get("printer1"))
    assert printer.id == "printer1"
    route = "GET /v3/printers/printer1"
    assert sim.traffic.statuses == {f"{route} 503": 2, f"{route} 200": 1}
    await close_and_check(sim, client)


async def test_a_503_burst_longer_than_the_attempts(print_server: PrintServer) -> None:
    sim = print_server.sim
    client = await signed_in(print_server)
    sim.faults.fail_next = 5
    with pytest.raises(ServerError) as caught:
        await bounded(client.printers.get("printer1"))
    assert caught.value.status_code == 503
    assert caught.value.attempts == 3
    assert "(after 3 attempts)" in str(caught.value)
    assert caught.value.headers["retry-after"] == "1"
    assert sim.traffic.count("GET /v3/printers/printer1") == 3
    assert sim.faults.fail_next == 2
    await close_and_check(sim, client)


async def test_a_503_is_retried_for_actions_but_not_for_posts(print_server: PrintServer) -> None:
    sim = print_server.sim
    client = await signed_in(print_server)
    job = await bounded(job_in(client, "WaitProcessing"))
    sim.traffic.reset()
    sim.faults.fail_next = 1  # 503: the server refused before acting, so an action may be sent again
    await bounded(client.jobs.pause(job.id))
    assert sim.traffic.statuses == {f"PUT /v3/jobs/{job.id}/pause 503": 1, f"PUT /v3/jobs/{job.id}/pause 200": 1}
    sim.faults.fail_next = 1  # ...but never a POST
    with pytest.raises(ServerError) as caught:
        await bounded(client.flows.create({"name": "f1", "type": "standard", "source": "x"}))
    assert caught.value.attempts == 1
    assert sim.traffic.count("POST /v3/flows/") == 1
    await close_and_check(sim, client)


@pytest.mark.parametrize("status", [500, 502])
async def test_a_500_is_not_retried(print_server: PrintServer, status: int) -> None:
    """500 (and 502 for an action) is final: the server may have done half of the work."""
    sim = print_server.sim
    client = await signed_in(print_server)
    job = await bounded(job_in(client, "WaitProcessing"))
    sim.traffic.reset()
    sim.faults.fail_status = status
    sim.faults.fail_next = 3
    call = client.jobs.get(job.id) if status == 500 else client.jobs.pause(job.id)
    with pytest.raises(ServerError) as caught:
        await bounded(call)
    assert caught.value.status_code == status
    assert caught.value.attempts == 1
    assert sum(sim.traffic.requests.values()) == 1
    assert sim.faults.fail_next == 2
    await close_and_check(sim, client)


@pytest.mark.slow
async def test_retry_after_is_waited_for_in_real_time(print_server: PrintServer) -> None:
    """With the real sleep: ``Retry-After: 1`` delays the retry by a second; no header means the
    exponential wait (tiny here); a ``Retry-After`` beyond the cap is not waited for at all."""
    sim = print_server.sim
    policy = RetryPolicy(
        attempts=3, wait_initial=0.01, wait_max=0.02, wait_jitter=0.0, retry_after_cap=2.0, sleep=asyncio.sleep
    )
    client = await signed_in(print_server, retry=policy)
    for retry_after, fastest, slowest in ((1, 1.0, 2.0), (None, 0.01, 0.5)):
        sim.faults.retry_after = retry_after
        sim.faults.fail_next = 1
        started = time.monotonic()
        await bounded(client.version_info())
        assert fastest <= time.monotonic() - started < slowest, retry_after
    sim.faults.retry_after = 30  # longer than retry_after_cap: give up at once
    sim.faults.fail_next = 1
    started = time.monotonic()
    with pytest.raises(ServerError) as caught:
        await bounded(client.version_info())
    assert time.monotonic() - started < 0.5
    assert caught.value.attempts == 1
    assert sim.traffic.statuses == {f"{VERSION} 503": 3, f"{VERSION} 200": 2}
    await close_and_check(sim, client)


# -- connections that break, bodies that do not parse -----------------------------------------------------


@pytest.mark.parametrize("knob", ["drop_rate", "truncate_rate"], ids=["dropped-before-answer", "dropped-mid-body"])
async def test_dropped_connections(print_server: PrintServer, knob: str) -> None:
    sim = print_server.sim
    client = await signed_in(print_server)
    job = await bounded(job_in(client, "WaitProcessing"))
    sim.traffic.reset()
    setattr(sim.faults, knob, 1.0)
    with pytest.raises(TransportError) as read:
        await bounded(client.jobs.list(top=20))
    assert isinstance(read.value.__cause__, httpx.RemoteProtocolError | httpx.ReadError)
    assert read.value.attempts == 3  # a read is repeated
    assert sim.traffic.count("GET /v3/jobs/") == 3
    with pytest.raises(TransportError) as action:
        await bounded(client.jobs.pause(job.id))
    assert action.value.attempts == 1  # an action is not: the server may have acted...
    assert sim.traffic.count(f"PUT /v3/jobs/{job.id}/pause") == 1
    setattr(sim.faults, knob, 0.0)
    paused = (await bounded(client.jobs.get(job.id))).status
    # ...and it did when the answer was cut mid-body; a connection dropped before the answer ran nothing
    assert paused == ("Paused" if knob == "truncate_rate" else "WaitProcessing")
    await close_and_check(sim, client)


async def test_malformed_json(print_server: PrintServer) -> None:
    sim = print_server.sim
    client = await signed_in(print_server)
    job = await bounded(job_in(client, "WaitProcessing"))
    sim.traffic.reset()
    sim.faults.malform_rate = 1.0
    with pytest.raises(InvalidResponse, match="not valid JSON") as caught:
        await bounded(client.jobs.list(top=20))
    assert caught.value.status_code == 200
    assert caught.value.attempts == 1  # the answer came: nothing to retry
    assert len(caught.value.body) <= 501
    # an action's answer is read leniently: a broken body after a 2xx is not an error
    result = await bounded(client.jobs.pause(job.id))
    assert result.message  # the cut JSON text, kept as the message
    assert sum(sim.traffic.requests.values()) == 2
    await close_and_check(sim, client)


async def test_an_html_page_with_200(print_server: PrintServer) -> None:
    """What a proxy's sign-in page looks like to the SDK: 200, text/html, not the interface."""
    sim = print_server.sim
    client = await signed_in(print_server)
    sim.faults.html_rate = 1.0
    calls = (client.printers.get("printer1"), client.jobs.list(top=5), client.version_info(), client.jobs.pause("x"))
    for call in calls:
        with pytest.raises(InvalidResponse) as caught:
            await bounded(call)
        assert caught.value.body == HTML_PAGE.decode()
        assert caught.value.headers["content-type"].startswith("text/html")
    assert sum(sim.traffic.requests.values()) == 4
    await close_and_check(sim, client)


async def test_json_served_as_text_html_is_read(print_server: PrintServer) -> None:
    """The SDK goes by the body, not the label: a valid JSON document under a wrong content type parses."""
    sim = print_server.sim
    client = await signed_in(print_server)
    sim.faults.content_type = "text/html; charset=utf-8"
    page = await bounded(client.jobs.list(top=5, count=True))
    assert len(page) == 5
    assert page.total == 50
    assert (await bounded(client.printers.get("printer1"))).id == "printer1"
    await close_and_check(sim, client)


async def test_oversized_bodies(print_server: PrintServer, tmp_path: Path) -> None:
    """8 MB answers: the SDK reads a 2xx whole (valid JSON with trailing whitespace) and parses it; an
    error, plain or on a streamed download, keeps a bounded excerpt in its body, message and text."""
    sim = print_server.sim
    client = await signed_in(print_server)
    job = (await bounded(client.jobs.list(top=1))).items[0]
    sim.faults.pad_bytes = 8_000_000
    page = await bounded(client.jobs.list(top=5, count=True))
    assert len(page) == 5
    sim.faults.fail_status = 500
    sim.faults.fail_next = 2
    with pytest.raises(ServerError) as caught:
        await bounded(client.printers.get("printer1"))
    with pytest.raises(ServerError) as streamed:
        await bounded(client.jobs.logfile(job.id, to=tmp_path / "job.log"))
    for error in (caught.value, streamed.value):
        assert len(error.body) <= 501
        assert error.message is not None
        assert len(error.message) <= 501
        assert len(str(error)) < 800
    assert not await asyncio.to_thread(lambda: list(tmp_path.iterdir()))  # nothing left behind
    await close_and_check(sim, client)


# -- the identity provider ------------------------------------------------------------------------------------


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released without listening)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.slow  # the token request's own back-off, in real time
async def test_token_endpoint_down(print_server: PrintServer) -> None:
    sim = print_server.sim
    user, creds = sim.user("admin"), sim.client_credentials("cli")
    auth = PasswordAuth(
        token_url=f"http://127.0.0.1:{closed_port()}/realms/SEAL/protocol/openid-connect/token",
        client_id=creds.client_id,
        client_secret=creds.secret,
        username=user.username,
        password=user.password,
    )
    async with PrintClient(sim.base_url, auth=auth) as client:
        with pytest.raises(TransportError) as caught:
            await bounded(client.version_info())
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert caught.value.attempts == 3  # connection refused: nothing was sent, so it is tried again
    assert (caught.value.method, caught.value.url) == ("POST", auth.token_url)  # the request that failed
    assert f"POST {auth.token_url} failed after 3 attempts" in str(caught.value)
    assert auth.token_requests == 3
    assert sim.traffic.requests == {}  # without a token the API was never called
    await close_and_check(sim, client)


@pytest.mark.print_server(jobs=50, faults=Faults(include_idp=True))
async def test_token_endpoint_refusing(print_server: PrintServer) -> None:
    sim = print_server.sim
    client = print_server.client
    sim.faults.fail_next = 1  # the token request gets 503
    with pytest.raises(AuthenticationError) as caught:
        await bounded(client.version_info())
    assert caught.value.status_code == 503
    assert str(caught.value).startswith("token request refused: 503")
    token_route = f"POST /realms/{sim.realm}/protocol/openid-connect/token"
    assert sim.traffic.requests == {token_route: 1}  # a refusal is final: not retried, the API not called
    # the next call within the back-off is refused without asking the identity provider again
    with pytest.raises(AuthenticationError, match="no new token request"):
        await bounded(client.version_info())
    assert sim.traffic.requests == {token_route: 1}
    await asyncio.sleep(BACKOFF_INITIAL)
    assert (await bounded(client.version_info())).name == "seal-rest"  # after it, the next call signs in
    assert sim.traffic.requests == {token_route: 2, VERSION: 1}
    await close_and_check(sim, client)


@pytest.mark.print_server(jobs=50, faults=Faults(include_idp=True))
@pytest.mark.parametrize("refusal", ["503", "wrong-password"])
async def test_concurrent_callers_share_one_failed_token_request(print_server: PrintServer, refusal: str) -> None:
    """50 callers and an identity provider that refuses: one token request, not one per caller (50 failed
    logins would lock the account under Keycloak's brute-force detection)."""
    sim = print_server.sim
    user, creds = sim.user("admin"), sim.client_credentials("cli")
    if refusal == "503":
        sim.faults.fail_next = 1
        sim.faults.latency = 0.05  # every caller is waiting before the answer comes
    password = "wrong-password" if refusal == "wrong-password" else user.password
    auth = PasswordAuth(
        token_url=sim.token_url,
        client_id=creds.client_id,
        client_secret=creds.secret,
        username=user.username,
        password=password,
    )
    async with PrintClient(sim.base_url, auth=auth) as client:
        results = await bounded(asyncio.gather(*(client.version_info() for _ in range(50)), return_exceptions=True))
    assert all(isinstance(result, AuthenticationError) for result in results), results
    assert auth.token_requests == 1
    token_route = f"POST /realms/{sim.realm}/protocol/openid-connect/token"
    assert sim.traffic.requests == {token_route: 1}


@pytest.mark.slow
@pytest.mark.print_server(jobs=50, faults=Faults(include_idp=True))
async def test_a_silent_identity_provider_fails_every_caller_within_its_own_timeout(
    print_server: PrintServer,
) -> None:
    """20 callers with timeout=0.4 against a provider that does not answer: one token request, and every
    caller fails with a timeout at about 0.4 s (not one after another: 20 x 0.4 s)."""
    sim = print_server.sim
    sim.faults.latency = 5.0
    client = print_server.client.with_options(timeout=0.4, retries=0)
    started = time.monotonic()
    results = await bounded(asyncio.gather(*(client.version_info() for _ in range(20)), return_exceptions=True))
    elapsed = time.monotonic() - started
    assert all(isinstance(result, TransportError) for result in results), results
    assert sum(isinstance(result, RequestTimeout) for result in results) >= 19  # the waiters', and the first's
    token_route = f"POST /realms/{sim.realm}/protocol/openid-connect/token"
    assert sim.traffic.requests == {token_route: 1}
    # a bound that only a serial wait breaks (20 x 0.4 s = 8 s), not a speed measurement
    assert elapsed < 4.0


@pytest.mark.slow
@pytest.mark.print_server(jobs=20, access_ttl=1, access_ttl_announced=300)
async def test_a_token_that_expires_earlier_than_announced(print_server: PrintServer) -> None:
    """The token endpoint says 300 s, the token lives 1 s: the API answers 401, the SDK renews the token
    (refresh grant) and sends the call once more, and the call succeeds."""
    sim = print_server.sim
    client = print_server.client
    assert (await bounded(client.version_info())).name == "seal-rest"
    await asyncio.sleep(2.05)  # exp is rounded up to the next second: at most 2 s
    assert (await bounded(client.version_info())).name == "seal-rest"
    assert sim.traffic.statuses == {
        f"POST /realms/{sim.realm}/protocol/openid-connect/token 200": 2,
        f"{VERSION} 200": 2,
        f"{VERSION} 401": 1,
    }
    assert sim.backend.idp.counts == {"password": 1, "refresh_token": 1}
    await close_and_check(sim, client)


# -- iterate() interrupted --------------------------------------------------------------------------------


@pytest.mark.print_server(jobs=230)
@pytest.mark.parametrize(("status", "attempts"), [(500, 1), (503, 3)])
async def test_iterate_resumes_where_a_failure_stopped_it(
    print_server: PrintServer, status: int, attempts: int
) -> None:
    """Page 3 of 5 fails (a 500 at once; a 503 after three attempts): the error's ``resume_skip`` restarts
    the walk at the first item not yet yielded, and every item is yielded exactly once overall."""
    sim = print_server.sim
    client = await signed_in(print_server)
    seen: list[str] = []
    sim.faults.fail_status = status
    with pytest.raises(ServerError) as caught:
        async with asyncio.timeout(10):
            # one request at a time, so the failure lands on page 3 (tests/test_pagination.py covers prefetch)
            async for job in client.jobs.iterate(page_size=50, prefetch=0):
                seen.append(job.id)
                if len(seen) == 100:  # pages 1 and 2 are in: the next request fetches page 3
                    sim.faults.fail_next = attempts
    error: PrintMgmtError = caught.value
    assert error.resume_skip == 100
    assert caught.value.attempts == attempts
    assert f"start={error.resume_skip}" in "".join(caught.value.__notes__)
    async with asyncio.timeout(10):
        rest = [job.id async for job in client.jobs.iterate(page_size=50, start=error.resume_skip)]
    everything = seen + rest
    assert len(everything) == len(set(everything)) == 230
    docs, _ = sim.store.find("jobs")
    assert set(everything) == {doc["_id"] for doc in docs}
    statuses = sim.traffic.statuses
    assert statuses == {"GET /v3/jobs/ 200": 2 + 3, f"GET /v3/jobs/ {status}": attempts}
    await close_and_check(sim, client)


async def test_bad_requests_are_not_retried(print_server: PrintServer) -> None:
    """A 4xx is the server's final word, whatever the operation."""
    sim = print_server.sim
    client = await signed_in(print_server)
    with pytest.raises(BadRequest) as caught:
        # sent as written (the SDK's own check would refuse it before sending): the server's 400 is the case here
        await bounded(client.jobs.list(filter="status eq", check_query="off"))
    assert caught.value.attempts == 1
    assert sim.traffic.count("GET /v3/jobs/") == 1
    await close_and_check(sim, client)


@pytest.mark.parametrize(("callers", "pool_size"), [(20, 5), (50, 10)])
async def test_401s_on_a_full_pool_renew_the_token_without_stalling(
    print_server: PrintServer, callers: int, pool_size: int
) -> None:
    """More callers than connections, and the server answers them 401 (the session was revoked): they all
    wait for one token request, which must still get a connection. A caller that waits holding its unread
    401 keeps its connection; when every connection is held that way, the token request waits for the pool
    timeout (here 2 s; 30 s by default), and under steady load this repeats at every token expiry."""
    sim = print_server.sim
    limits = httpx.Limits(max_connections=pool_size)
    client = await signed_in(print_server, limits=limits, timeout=httpx.Timeout(10, pool=2))
    sim.revoke_tokens()
    started = time.monotonic()
    answers = await bounded(asyncio.gather(*(client.version_info() for _ in range(callers))))
    assert time.monotonic() - started < 1.5  # far below the pool timeout
    assert [answer.name for answer in answers] == ["seal-rest"] * callers
    assert sim.backend.idp.counts["refused:invalid_grant"] == 1  # the revoked refresh token, once
    assert sim.backend.idp.counts["password"] == 2  # one new sign-in, shared by every caller
    assert sim.traffic.max_connections <= pool_size
    await close_and_check(sim, client)
