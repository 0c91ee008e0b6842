"""A call's ``deadline`` bounds signing in too: an identity provider that answers a byte a second holds no call
past its deadline, on the async and the sync client, and each caller waiting on the same sign-in
stops at its own deadline."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest
from raw_http import TOKEN_PATH, Exchange, RawServer, raw_server, version_info

from printmgmt import PasswordAuth, PrintClient
from printmgmt.errors import RequestTimeout, SendTimeout
from printmgmt.sync import PrintClient as SyncPrintClient

#: The token answer would take a minute and more: no per-read timeout ever trips on it.
SLOW_TOKEN = {"access_token": "a" * 40, "token_type": "Bearer", "expires_in": 300}
#: How long past its deadline a call may end (the issue's bound: deadline 3, ended within 3.5 s).
GRACE = 0.5


def a_byte_a_second(exchange: Exchange) -> None:
    exchange.trickle(200, SLOW_TOKEN, every=1.0)


@pytest.fixture
def slow_idp() -> Iterator[RawServer]:
    with raw_server({TOKEN_PATH: a_byte_a_second, "/v3/": version_info}) as server:
        yield server


def auth_of(server: RawServer) -> PasswordAuth:
    return PasswordAuth(auth_url=server.url, username="ann", password="pw", client_secret="cs")


async def test_a_deadline_ends_a_sign_in_that_trickles_in(slow_idp: RawServer) -> None:
    async with PrintClient(slow_idp.url, auth=auth_of(slow_idp), deadline=3, retries=0) as client:
        started = time.monotonic()
        with pytest.raises(SendTimeout, match=r"deadline of 3 s passed while signing in \(POST http://127"):
            await client.version_info()
        assert time.monotonic() - started < 3 + GRACE
    assert slow_idp.seen.get("/v3/") is None  # it never got as far as the API


def test_the_sync_clients_deadline_ends_a_sign_in_that_trickles_in(slow_idp: RawServer) -> None:
    with SyncPrintClient(slow_idp.url, auth=auth_of(slow_idp), deadline=3, retries=0) as client:
        started = time.monotonic()
        with pytest.raises(SendTimeout, match=r"deadline of 3 s passed while signing in"):
            client.version_info()
        assert time.monotonic() - started < 3 + GRACE


async def test_callers_waiting_on_one_sign_in_each_stop_at_their_own_deadline(slow_idp: RawServer) -> None:
    deadlines = [1.0, 2.0, 3.0]
    async with PrintClient(slow_idp.url, auth=auth_of(slow_idp), retries=0) as client:

        async def call(deadline: float) -> tuple[float, BaseException | None]:
            started = time.monotonic()
            try:
                await client.version_info(deadline=deadline)
            except RequestTimeout as exc:
                return time.monotonic() - started, exc
            return time.monotonic() - started, None

        ended = await asyncio.gather(*(call(d) for d in deadlines))
    for deadline, (took, error) in zip(deadlines, ended, strict=True):
        assert error is not None and f"deadline of {deadline:g} s passed" in str(error)
        assert deadline - 0.1 < took < deadline + GRACE


def test_threads_waiting_on_one_sign_in_each_stop_at_their_own_deadline(slow_idp: RawServer) -> None:
    deadlines = [1.0, 2.0, 3.0]
    ended: dict[float, tuple[float, BaseException | None]] = {}
    with SyncPrintClient(slow_idp.url, auth=auth_of(slow_idp), retries=0) as client:

        def call(deadline: float) -> None:
            started = time.monotonic()
            try:
                client.version_info(deadline=deadline)
            except RequestTimeout as exc:
                ended[deadline] = (time.monotonic() - started, exc)
            else:
                ended[deadline] = (time.monotonic() - started, None)

        threads = [threading.Thread(target=call, args=(d,)) for d in deadlines]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    for deadline in deadlines:
        took, error = ended[deadline]
        assert error is not None and f"deadline of {deadline:g} s passed" in str(error)
        assert deadline - 0.1 < took < deadline + GRACE
