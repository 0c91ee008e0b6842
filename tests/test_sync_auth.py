"""Token acquisition on the sync client: threads share one token request as tasks do."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import respx

from printmgmt import PasswordAuth
from printmgmt.errors import AuthenticationError, RequestTimeout
from printmgmt.sync import PrintClient

BASE_URL = "https://print.test:8080"
IDP_URL = "https://idp.test:32769"
TOKEN_URL = f"{IDP_URL}/realms/SEAL/protocol/openid-connect/token"
ROLES_URL = f"{BASE_URL}/v3/auth/userroles"
PASSWORD = "s3cr3t-PASSWORD-x9"
CLIENT_SECRET = "s3cr3t-CLIENT-SECRET-q7"
THREADS = 20


def make_auth() -> PasswordAuth:
    return PasswordAuth(
        auth_url=IDP_URL, realm="SEAL", username="alice", password=PASSWORD, client_secret=CLIENT_SECRET
    )


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False, assert_all_mocked=True) as mock:
        yield mock


def in_threads(call: object, count: int = THREADS) -> list[object]:
    """``call()`` on ``count`` threads started together; each result or the exception it raised."""
    assert callable(call)
    start = threading.Barrier(count)

    def run() -> object:
        start.wait(timeout=5)
        try:
            return call()
        except Exception as exc:
            return exc

    with ThreadPoolExecutor(count) as pool:
        return [future.result(timeout=30) for future in [pool.submit(run) for _ in range(count)]]


def test_threads_waiting_for_a_token_share_one_token_request(router: respx.MockRouter) -> None:
    def slow_token(request: httpx.Request) -> httpx.Response:
        time.sleep(0.2)  # every thread arrives while the first one's request is under way
        return httpx.Response(200, json={"access_token": "acc3ss-1", "expires_in": 300})

    token = router.post(TOKEN_URL).mock(side_effect=slow_token)
    roles = router.get(ROLES_URL).respond(200, json={"user": "alice", "roles": ["admin"]})
    with PrintClient(BASE_URL, auth=make_auth()) as client:
        results = in_threads(client.auth.user_roles)
    assert [type(result).__name__ for result in results] == ["UserRoles"] * THREADS
    assert token.call_count == 1
    assert roles.call_count == THREADS
    assert {call.request.headers["Authorization"] for call in roles.calls} == {"Bearer acc3ss-1"}


def test_a_refused_token_request_fails_every_waiting_thread_once(router: respx.MockRouter) -> None:
    def refusing(request: httpx.Request) -> httpx.Response:
        time.sleep(0.2)
        return httpx.Response(401, json={"error": "invalid_grant", "error_description": "Invalid user credentials"})

    token = router.post(TOKEN_URL).mock(side_effect=refusing)
    router.get(ROLES_URL).respond(200, json={})
    with PrintClient(BASE_URL, auth=make_auth(), retries=0) as client:
        results = in_threads(client.auth.user_roles)
    assert all(isinstance(result, AuthenticationError) for result in results), results
    assert token.call_count == 1
    assert all(PASSWORD not in str(result) and CLIENT_SECRET not in str(result) for result in results)


def test_a_thread_waits_for_another_threads_token_request_no_longer_than_its_own_timeout(
    router: respx.MockRouter,
) -> None:
    release = threading.Event()

    def silent(request: httpx.Request) -> httpx.Response:
        release.wait(timeout=10)  # the identity provider does not answer until the test says so
        return httpx.Response(200, json={"access_token": "acc3ss-late", "expires_in": 300})

    router.post(TOKEN_URL).mock(side_effect=silent)
    router.get(ROLES_URL).respond(200, json={"user": "alice", "roles": []})
    with PrintClient(BASE_URL, auth=make_auth(), timeout=0.3, retries=0) as client:
        leader = threading.Thread(target=client.auth.user_roles)
        leader.start()
        time.sleep(0.1)  # the leader's token request is under way
        started = time.monotonic()
        waiters = in_threads(client.auth.user_roles, 5)
        waited = time.monotonic() - started
        release.set()
        leader.join(timeout=10)
    assert all(isinstance(result, RequestTimeout) for result in waiters), waiters
    assert "waiting for the token request" in str(waiters[0])
    # each waiter gave up at its own bound (0.3 s), not when the silent request ended (10 s)
    assert waited < 5


def test_a_401_renews_the_token_once_on_the_sync_client(router: respx.MockRouter) -> None:
    tokens = iter(["acc3ss-old", "acc3ss-new"])

    def token(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"access_token": next(tokens), "expires_in": 300})

    def api(request: httpx.Request) -> httpx.Response:
        ok = request.headers["Authorization"] == "Bearer acc3ss-new"
        return httpx.Response(200, json={"user": "alice", "roles": []}) if ok else httpx.Response(401)

    token_route = router.post(TOKEN_URL).mock(side_effect=token)
    router.get(ROLES_URL).mock(side_effect=api)
    with PrintClient(BASE_URL, auth=make_auth()) as client:
        assert client.auth.user_roles().user == "alice"
    assert token_route.call_count == 2
