"""No hang, on the default transport and the sync client: the deadline ends an answer head dripped a byte at a
time; the read timeout applies after a ``100 Continue``; an endless run of 1xx answers ends like an over-long
head. Real sockets on 127.0.0.1. Each server ends its drip after a while with a whole answer, so a client that does not
bound it gets that answer instead of the error (no timing in the assertions)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from raw_http import Exchange, raw_server

from printmgmt import PrintClient
from printmgmt.errors import OutcomeUnknown, PrintMgmtError, RequestTimeout
from printmgmt.sync import PrintClient as SyncPrintClient

ANSWER = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"api": "v3"}'


#: How far into its head each dripped answer was when the client left (its length: the head was read whole).
DRIPPED_WHOLE: list[int] = []
HEAD_LENGTH = ANSWER.index(b"\r\n\r\n") + 4


def dripped_head(exchange: Exchange) -> None:
    """The answer's head a byte every 50 ms (about 4 s in all), then its body."""
    for i in range(len(ANSWER)):
        if exchange.stopping.wait(0.05):
            return
        try:
            exchange.conn.sendall(ANSWER[i : i + 1])
        except OSError:  # the client left
            DRIPPED_WHOLE.append(min(i, HEAD_LENGTH))
            return
    DRIPPED_WHOLE.append(HEAD_LENGTH)


def continue_then_silence(exchange: Exchange) -> None:
    """``100 Continue`` at once, then the answer after 3 s."""
    exchange.conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    if not exchange.stopping.wait(3):
        exchange.conn.sendall(ANSWER)


def endless_continue(exchange: Exchange) -> None:
    """``100 Continue`` answers, 2 MB of them, then the answer."""
    try:
        exchange.conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n" * 80_000 + ANSWER)
    except OSError:  # the client left
        return


def failure(client: str, url: str, **options: float) -> PrintMgmtError | None:
    if client == "sync":
        with SyncPrintClient(url, auth="t", retries=0) as sync_client:
            try:
                sync_client.version_info(**options)  # type: ignore[arg-type]
            except PrintMgmtError as error:
                return error
            return None

    async def run() -> PrintMgmtError | None:
        async with PrintClient(url, auth="t", transport=client, retries=0) as async_client:  # type: ignore[arg-type]
            try:
                await async_client.version_info(**options)  # type: ignore[arg-type]
            except PrintMgmtError as error:
                return error
            return None

    return asyncio.run(run())


@pytest.mark.parametrize("client", ["httpx", "sync"])
def test_the_deadline_ends_a_dripped_head(client: str) -> None:
    DRIPPED_WHOLE.clear()
    with raw_server({"/v3/": dripped_head}) as server:
        error = failure(client, server.url, deadline=0.5, timeout=10.0)
        while not DRIPPED_WHOLE:  # the server learns that the client left at its next byte
            threading.Event().wait(0.05)
    assert isinstance(error, RequestTimeout) and isinstance(error, OutcomeUnknown), error
    assert "deadline of 0.5 s passed" in str(error)
    assert DRIPPED_WHOLE[0] < HEAD_LENGTH  # the client stopped reading the head at its deadline


@pytest.mark.parametrize("client", ["httpx", "sync"])
def test_the_read_timeout_applies_after_a_100_continue(client: str) -> None:
    with raw_server({"/v3/": continue_then_silence}) as server:
        error = failure(client, server.url, timeout=0.5)
    assert isinstance(error, RequestTimeout) and isinstance(error, OutcomeUnknown), error


@pytest.mark.parametrize("client", ["httpx", "sync"])
def test_an_endless_run_of_1xx_answers_ends_like_an_over_long_head(client: str) -> None:
    with raw_server({"/v3/": endless_continue}) as server:
        error = failure(client, server.url, timeout=10.0)
    assert isinstance(error, OutcomeUnknown), error
