"""The retry policy: what is retried, how often, and what the caller is told."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
import respx

from printmgmt import NOT_GIVEN, PrintClient, Repeatability, RetryPolicy
from printmgmt.errors import ApiError, PreconditionFailed, RequestTimeout, ServerError, TransportError
from printmgmt.sync import PrintClient as SyncPrintClient

BASE_URL = "https://print.test:8080"  # as in conftest.py

SAFE, IDEMPOTENT, ACTION, NEVER = (
    Repeatability.SAFE,
    Repeatability.IDEMPOTENT,
    Repeatability.ACTION,
    Repeatability.NEVER,
)


def _status(code: int, **headers: str) -> httpx.Response:
    return httpx.Response(code, headers=headers)


# -- the decision table --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "retried_for"),
    [
        (429, {SAFE, IDEMPOTENT, ACTION}),
        (503, {SAFE, IDEMPOTENT, ACTION}),
        (502, {SAFE, IDEMPOTENT}),
        (504, {SAFE, IDEMPOTENT}),
        (500, set()),
        (412, set()),
        (400, set()),
        (404, set()),
        (409, set()),
    ],
)
def test_status_table(status: int, retried_for: set[Repeatability]) -> None:
    policy = RetryPolicy()
    for repeatability in Repeatability:
        assert policy.is_retryable_status(status, repeatability) == (repeatability in retried_for), repeatability


@pytest.mark.parametrize(
    ("exc", "retried_for"),
    [
        (httpx.ConnectError("refused"), set(Repeatability)),
        (httpx.ConnectTimeout("slow"), set(Repeatability)),
        (httpx.PoolTimeout("busy"), set(Repeatability)),
        (httpx.ReadTimeout("slow"), {SAFE, IDEMPOTENT}),
        (httpx.RemoteProtocolError("dropped"), {SAFE, IDEMPOTENT}),
        (httpx.ReadError("reset"), {SAFE, IDEMPOTENT}),
        (ValueError("not ours"), set()),
    ],
)
def test_exception_table(exc: Exception, retried_for: set[Repeatability]) -> None:
    policy = RetryPolicy()
    for repeatability in Repeatability:
        assert (policy.delay(1, exc, repeatability) is not None) == (repeatability in retried_for), repeatability


@pytest.mark.parametrize(
    ("status", "retried_for"),
    [(429, {SAFE, IDEMPOTENT, ACTION}), (503, {SAFE, IDEMPOTENT, ACTION}), (502, {SAFE, IDEMPOTENT}), (500, set())],
)
def test_delay_follows_the_status_table(status: int, retried_for: set[Repeatability]) -> None:
    policy = RetryPolicy()
    for repeatability in Repeatability:
        delay = policy.delay(1, _status(status), repeatability)
        assert (delay is not None) == (repeatability in retried_for), repeatability


def test_retry_after_seconds_date_and_cap() -> None:
    policy = RetryPolicy(retry_after_cap=60, wait_initial=0.5, wait_jitter=0.0)
    assert policy.delay(1, _status(503, **{"Retry-After": "3"}), SAFE) == 3.0
    assert policy.delay(1, _status(429, **{"Retry-After": "0"}), ACTION) == 0.0
    in_ten = format_datetime(datetime.now(UTC) + timedelta(seconds=10), usegmt=True)
    waited = policy.delay(1, _status(503, **{"Retry-After": in_ten}), SAFE)
    assert isinstance(waited, float) and 8.0 < waited <= 10.0
    past = format_datetime(datetime.now(UTC) - timedelta(seconds=10), usegmt=True)
    assert policy.delay(1, _status(503, **{"Retry-After": past}), SAFE) == 0.0
    assert policy.delay(1, _status(503, **{"Retry-After": "120"}), SAFE) is None  # beyond the cap: give up
    assert policy.delay(1, _status(503, **{"Retry-After": "soon"}), SAFE) == 0.5  # unreadable: own backoff
    assert policy.delay(1, _status(503), SAFE) == 0.5


def test_delay_grows_exponentially_up_to_the_cap_and_stops_after_the_last_attempt() -> None:
    policy = RetryPolicy(attempts=6, wait_initial=0.5, wait_max=3.0, wait_jitter=0.0)
    failure = httpx.ConnectError("refused")
    assert [policy.delay(n, failure, NEVER) for n in range(1, 7)] == [0.5, 1.0, 2.0, 3.0, 3.0, None]
    jittered = RetryPolicy(wait_initial=0.5, wait_jitter=0.25)
    assert all(0.5 <= (jittered.delay(1, failure, SAFE) or 0) <= 0.75 for _ in range(50))


async def test_the_policy_sleep_is_what_waits(mock: respx.MockRouter) -> None:
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    policy = RetryPolicy(attempts=3, wait_initial=0.25, wait_jitter=0.0, sleep=record)
    route = mock.get("/v3/jobs/j1")
    route.side_effect = [
        httpx.Response(503),
        httpx.Response(503, headers={"Retry-After": "2"}),
        httpx.Response(200, json={"_id": "j1"}),
    ]
    async with PrintClient(BASE_URL, auth="t", retry=policy) as client:
        assert (await client.jobs.get("j1")).id == "j1"
    assert waits == [0.25, 2.0]


def test_one_plain_sleep_hook_serves_the_sync_client_too(mock: respx.MockRouter) -> None:
    waits: list[float] = []
    policy = RetryPolicy(attempts=3, wait_initial=0.25, wait_jitter=0.0, sleep=waits.append)
    route = mock.get("/v3/jobs/j1")
    route.side_effect = [httpx.Response(503), httpx.Response(503), httpx.Response(200, json={"_id": "j1"})]
    with SyncPrintClient(BASE_URL, auth="t", retry=policy) as client:
        assert client.jobs.get("j1").id == "j1"
    assert waits == [0.25, 0.5]


def test_the_sync_client_refuses_a_hook_that_returns_an_awaitable(mock: respx.MockRouter) -> None:
    async def record(seconds: float) -> None: ...

    mock.get("/v3/jobs/j1").respond(503)
    with (
        SyncPrintClient(BASE_URL, auth="t", retry=RetryPolicy(sleep=record)) as client,
        pytest.raises(TypeError, match="must wait itself"),
    ):
        client.jobs.get("j1")


async def test_a_deadline_caps_each_attempts_timeouts(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/jobs/j1").respond(json={"_id": "j1"})
    await client.jobs.get("j1", deadline=0.5)
    assert all(0 < limit <= 0.5 for limit in route.calls.last.request.extensions["timeout"].values())
    await client.jobs.get("j1", timeout=None, deadline=0.5)  # no timeout, but the whole call is bounded
    assert all(0 < limit <= 0.5 for limit in route.calls.last.request.extensions["timeout"].values())


async def test_no_retry_waits_past_the_deadline(mock: respx.MockRouter) -> None:
    waits: list[float] = []
    route = mock.get("/v3/jobs/j1").respond(503, headers={"Retry-After": "2"})
    async with PrintClient(BASE_URL, auth="t", retry=RetryPolicy(sleep=waits.append), deadline=1.0) as client:
        with pytest.raises(ServerError) as caught:
            await client.jobs.get("j1")
        assert (route.call_count, caught.value.attempts, waits) == (1, 1, [])  # the answer, not a timeout
        with pytest.raises(ServerError):
            await client.jobs.get("j1", deadline=None)  # the client's deadline lifted for this call
        assert (route.call_count, waits) == (4, [2.0, 2.0])


@pytest.mark.parametrize("bad", [0, -1.0, True, "1"])
def test_a_bad_deadline_is_refused_when_given(bad: object) -> None:
    with pytest.raises(ValueError, match="deadline must be"):
        PrintClient(BASE_URL, deadline=bad)  # type: ignore[arg-type]


async def test_retries_are_logged_at_info_by_the_printmgmt_logger(
    mock: respx.MockRouter, client: PrintClient, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    route = mock.get("/v3/jobs/j1")
    route.side_effect = [httpx.Response(503), httpx.Response(200, json={"_id": "j1"})]
    with caplog.at_level("INFO", logger="printmgmt"):
        await client.jobs.get("j1")
    retries = [r for r in caplog.records if "retrying" in r.getMessage()]
    assert [(r.name, r.levelname) for r in retries] == [("printmgmt", "INFO")]
    assert "jobs.get: attempt 1 of 3 failed (503)" in retries[0].getMessage()
    assert capsys.readouterr().err == ""  # nothing printed by a library


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_policy_rejects_bad_attempts(bad: object) -> None:
    with pytest.raises(ValueError):
        RetryPolicy(attempts=bad)  # type: ignore[arg-type]


def test_from_retries() -> None:
    assert RetryPolicy.from_retries(0).attempts == 1
    assert RetryPolicy.from_retries(4).attempts == 5
    with pytest.raises(ValueError):
        RetryPolicy.from_retries(-1)


# -- through the client ----------------------------------------------------------------------------------


def _answers(route: respx.Route, *answers: httpx.Response | Exception) -> None:
    route.side_effect = list(answers)


async def test_get_is_retried_until_it_succeeds(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/jobs/j1")
    _answers(route, httpx.Response(503), httpx.ReadTimeout("slow"), httpx.Response(200, json={"_id": "j1"}))
    job = await client.jobs.get("j1")
    assert job.id == "j1"
    assert route.call_count == 3


async def test_server_error_after_retries_says_how_many_attempts(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/jobs/j1").respond(502, text="bad gateway")
    with pytest.raises(ServerError) as caught:
        await client.jobs.get("j1")
    assert route.call_count == 3
    assert caught.value.attempts == 3
    assert "after 3 attempts" in str(caught.value)


async def test_transport_error_after_retries_says_how_many_attempts(
    mock: respx.MockRouter, client: PrintClient
) -> None:
    route = mock.get("/v3/jobs/j1").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(TransportError) as caught:
        await client.jobs.get("j1")
    assert route.call_count == 3
    assert caught.value.attempts == 3
    assert "after 3 attempts" in str(caught.value)
    assert isinstance(caught.value.__cause__, httpx.ConnectError)


#: (call, method, path, answer, how many calls the server sees); typed, so mypy checks each call
RETRIES: list[tuple[Callable[[PrintClient], Awaitable[object]], str, str, httpx.Response | Exception, int]] = [
    # actions: refused (429/503) is retried, an answer that may follow work (502/504, read timeout) is not
    (lambda c: c.jobs.pause("j1"), "PUT", "/v3/jobs/j1/pause", httpx.Response(503), 3),
    (lambda c: c.jobs.pause("j1"), "PUT", "/v3/jobs/j1/pause", httpx.Response(429), 3),
    (lambda c: c.jobs.pause("j1"), "PUT", "/v3/jobs/j1/pause", httpx.Response(502), 1),
    (lambda c: c.jobs.cancel("j1"), "PUT", "/v3/jobs/j1/cancel", httpx.ReadTimeout("slow"), 1),
    (lambda c: c.jobs.pause("j1"), "PUT", "/v3/jobs/j1/pause", httpx.Response(412, text="paused"), 1),
    # never repeated: repeat, createTestJob, POST
    (lambda c: c.jobs.repeat("j1"), "PUT", "/v3/jobs/j1/repeat", httpx.Response(503), 1),
    (lambda c: c.printers.create_test_job("p1"), "PUT", "/v3/printers/p1/createTestJob", httpx.Response(503), 1),
    (lambda c: c.flows.create({"name": "f"}), "POST", "/v3/flows/", httpx.Response(503), 1),
    (lambda c: c.flows.create({"name": "f"}), "POST", "/v3/flows/", httpx.ReadTimeout("slow"), 1),
    # ... except when nothing was sent
    (lambda c: c.flows.create({"name": "f"}), "POST", "/v3/flows/", httpx.ConnectError("refused"), 3),
    (lambda c: c.jobs.repeat("j1"), "PUT", "/v3/jobs/j1/repeat", httpx.ConnectTimeout("slow"), 3),
    # idempotent by nature: delete and full replacements
    (lambda c: c.jobs.delete("j1"), "DELETE", "/v3/jobs/j1", httpx.Response(504), 3),
    (lambda c: c.printers.update("p1", {"_id": "p1"}), "PUT", "/v3/printers/p1", httpx.Response(502), 3),
    (lambda c: c.configs.replace({}), "PUT", "/v3/configs/", httpx.ReadTimeout("slow"), 3),
    # reads
    (lambda c: c.jobs.list(), "GET", "/v3/jobs/", httpx.RemoteProtocolError("dropped"), 3),
    (lambda c: c.jobs.get("j1"), "GET", "/v3/jobs/j1", httpx.Response(500), 1),
    (lambda c: c.jobs.get("j1"), "GET", "/v3/jobs/j1", httpx.Response(404), 1),
    (lambda c: c.jobs.get("j1"), "GET", "/v3/jobs/j1", httpx.Response(503, headers={"Retry-After": "999"}), 1),
]


@pytest.mark.parametrize(("call", "method", "path", "answer", "calls"), RETRIES)
async def test_what_is_retried(
    mock: respx.MockRouter,
    client: PrintClient,
    call: Callable[[PrintClient], Awaitable[object]],
    method: str,
    path: str,
    answer: httpx.Response | Exception,
    calls: int,
) -> None:
    route = mock.request(method, path)
    if isinstance(answer, Exception):
        route.mock(side_effect=answer)
    else:
        route.mock(return_value=answer)
    with pytest.raises((ApiError, TransportError)) as caught:
        await call(client)
    assert route.call_count == calls
    assert isinstance(caught.value, (ApiError, TransportError))
    assert caught.value.attempts == calls
    if isinstance(answer, httpx.Response) and answer.status_code == 412:
        assert isinstance(caught.value, PreconditionFailed)


async def test_retries_zero_turns_retrying_off(mock: respx.MockRouter) -> None:
    route = mock.get("/v3/jobs/j1").respond(503)
    async with PrintClient(BASE_URL, auth="t", retries=0) as client:
        with pytest.raises(ServerError):
            await client.jobs.get("j1")
    assert route.call_count == 1


async def test_with_options_shares_the_pool(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/jobs/j1").respond(503)
    patient = client.with_options(retries=5, timeout=2.0)
    impatient = client.with_options(retries=0)
    assert patient.http is client.http and impatient.http is client.http
    assert (client.retry.attempts, patient.retry.attempts, impatient.retry.attempts) == (3, 6, 1)
    with pytest.raises(ServerError):
        await patient.jobs.get("j1")
    assert route.call_count == 6
    assert route.calls.last.request.extensions["timeout"]["read"] == 2.0
    await impatient.aclose()  # leaves the shared pool to the original
    assert not client.http.is_closed
    with pytest.raises(ServerError):
        await impatient.jobs.get("j1")
    assert route.call_count == 7


async def test_per_call_timeout(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/jobs/j1").respond(json={"_id": "j1"})
    await client.jobs.get("j1", timeout=1.5)
    assert route.calls.last.request.extensions["timeout"] == {"connect": 1.5, "read": 1.5, "write": 1.5, "pool": 1.5}
    await client.jobs.get("j1")
    assert route.calls.last.request.extensions["timeout"]["read"] == 30.0
    await client.jobs.get("j1", timeout=NOT_GIVEN)  # the client's, as when left out
    assert route.calls.last.request.extensions["timeout"]["read"] == 30.0
    await client.jobs.get("j1", timeout=None)  # as in httpx: no timeout at all
    assert route.calls.last.request.extensions["timeout"] == dict.fromkeys(("connect", "read", "write", "pool"))
    await client.with_options(timeout=None).jobs.get("j1")
    assert route.calls.last.request.extensions["timeout"]["read"] is None
    pages = mock.get("/v3/jobs/").respond(json={"results": [], "totalCount": 0})
    [job async for job in client.jobs.iterate(timeout=httpx.Timeout(4.0))]
    assert pages.calls.last.request.extensions["timeout"]["read"] == 4.0


async def test_read_timeout_on_a_read_becomes_request_timeout_after_retries(
    mock: respx.MockRouter, client: PrintClient
) -> None:
    route = mock.get("/v3/jobs/j1").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(RequestTimeout) as caught:
        await client.jobs.get("j1")
    assert route.call_count == 3 and caught.value.attempts == 3
