"""Any ``expires_in`` an identity provider sends gives a usable lifetime: none makes a busy client ask for a
token on every call (a storm an identity provider would answer by locking the account), none raises a bare
exception. Real sockets, the async and the sync client."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from raw_http import RawServer, raw_server, token, version_info

from printmgmt import PasswordAuth, PrintClient
from printmgmt.auth._tokens import DEFAULT_LIFETIME, MAX_LIFETIME, _seconds
from printmgmt.sync import PrintClient as SyncPrintClient

#: Every kind of JSON value, by a realm name of its own (``...``: the field left out).
LIFETIMES: dict[str, Any] = {
    "zero": 0,
    "negative": -30,
    "fraction": 0.25,
    "huge": 10**400,  # an integer no float holds
    "infinite-float": 1e308 * 10,
    "string": "300",
    "words": "soon",
    "null": None,
    "true": True,
    "false": False,
    "missing": ...,
}
#: Seconds of calls, callers at once, and the most token requests any lifetime may cost in that time.
BUSY_FOR, CALLERS, AT_MOST = 2.0, 8, 5


def token_path(realm: str) -> str:
    return f"/realms/{realm}/protocol/openid-connect/token"


@pytest.fixture(scope="module")
def idp() -> Iterator[RawServer]:
    routes = {token_path(realm): token(lifetime) for realm, lifetime in LIFETIMES.items()}
    with raw_server({**routes, "/v3/": version_info}) as server:
        yield server


def auth(server: RawServer, realm: str) -> PasswordAuth:
    return PasswordAuth(auth_url=server.url, realm=realm, username="ann", password="pw", client_secret="cs")


def requests_per_realm(server: RawServer, before: dict[str, int]) -> dict[str, int]:
    return {realm: server.seen.get(token_path(realm), 0) - before.get(token_path(realm), 0) for realm in LIFETIMES}


async def test_no_lifetime_makes_a_token_storm(idp: RawServer) -> None:
    before = dict(idp.seen)

    async def busy(realm: str) -> int:
        calls = 0
        async with PrintClient(idp.url, auth=auth(idp, realm)) as client:
            end = time.monotonic() + BUSY_FOR

            async def caller() -> None:
                nonlocal calls
                while time.monotonic() < end:
                    await client.version_info()
                    calls += 1

            await asyncio.gather(*(caller() for _ in range(CALLERS)))
        return calls

    calls = await asyncio.gather(*(busy(realm) for realm in LIFETIMES))
    assert all(n > CALLERS for n in calls)  # the calls did go on
    requests = requests_per_realm(idp, before)
    assert {realm: n for realm, n in requests.items() if not 1 <= n <= AT_MOST} == {}, requests


def test_no_lifetime_makes_a_token_storm_on_the_sync_client(idp: RawServer) -> None:
    before = dict(idp.seen)
    failures: list[BaseException] = []

    def busy(realm: str) -> None:
        with SyncPrintClient(idp.url, auth=auth(idp, realm)) as client:
            end = time.monotonic() + BUSY_FOR

            def caller() -> None:
                try:
                    while time.monotonic() < end:
                        client.version_info()
                except BaseException as exc:  # reported below: a thread's exception is otherwise lost
                    failures.append(exc)

            threads = [threading.Thread(target=caller) for _ in range(CALLERS // 2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

    realms = [threading.Thread(target=busy, args=(realm,)) for realm in LIFETIMES]
    for thread in realms:
        thread.start()
    for thread in realms:
        thread.join()
    assert failures == []
    requests = requests_per_realm(idp, before)
    assert {realm: n for realm, n in requests.items() if not 1 <= n <= AT_MOST} == {}, requests


@pytest.mark.parametrize(
    ("value", "lifetime"),
    [
        (300, 300.0),
        (0.25, 0.25),
        ("300", 300.0),
        pytest.param(10**400, MAX_LIFETIME, id="10**400"),
        (float("inf"), MAX_LIFETIME),
        (float("nan"), DEFAULT_LIFETIME),
        (0, DEFAULT_LIFETIME),
        (-30, DEFAULT_LIFETIME),
        ("soon", DEFAULT_LIFETIME),
        (None, DEFAULT_LIFETIME),
        (True, DEFAULT_LIFETIME),
        ([300], DEFAULT_LIFETIME),
    ],
)
def test_the_lifetime_read_from_each_kind_of_value(value: Any, lifetime: float) -> None:
    assert _seconds(value, default=DEFAULT_LIFETIME) == lifetime
