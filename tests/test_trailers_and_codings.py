"""Trailer fields never act as headers (retries, decoding, errors), and a transfer coding other than chunked is
refused, never written into a download, on the default transport and the sync client. Real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from raw_http import Exchange, raw_server

from printmgmt import PrintClient, RetryPolicy
from printmgmt.errors import NotFound, PrintMgmtError, ServerError, TransportError
from printmgmt.sync import PrintClient as SyncPrintClient

CLIENTS = ["httpx", "sync"]
NO_WAIT = RetryPolicy(attempts=3, wait_initial=0, wait_jitter=0, sleep=lambda seconds: None)


def chunked(status: int, body: bytes, trailers: str, coding: str = "chunked") -> bytes:
    head = f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nTransfer-Encoding: {coding}\r\n\r\n"
    return head.encode() + b"%x\r\n%b\r\n0\r\n%b\r\n" % (len(body), body, trailers.encode())


def answering(answer: bytes):  # type: ignore[no-untyped-def]
    def handler(exchange: Exchange) -> None:
        exchange.conn.sendall(answer)

    return handler


def run(client: str, routes: dict[str, Any], call: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``call(client)`` on a client of kind ``client`` against ``routes``: its result, or the error it raised."""
    with raw_server(routes) as server:
        if client == "sync":
            with SyncPrintClient(server.url, auth="t", retry=NO_WAIT) as sync_client:
                try:
                    return call(sync_client), server.seen
                except PrintMgmtError as error:
                    return error, server.seen

        async def go() -> tuple[Any, Any]:
            async with PrintClient(server.url, auth="t", transport=client, retry=NO_WAIT) as async_client:  # type: ignore[arg-type]
                try:
                    return await call(async_client), server.seen
                except PrintMgmtError as error:
                    return error, server.seen

        return asyncio.run(go())


@pytest.mark.parametrize("client", CLIENTS)
def test_a_retry_after_trailer_does_not_stop_the_retries(client: str) -> None:
    answer = chunked(503, b'{"message": "busy"}', "Retry-After: 3600\r\n")
    error, seen = run(client, {"/v3/": answering(answer)}, lambda c: c.version_info())
    assert isinstance(error, ServerError) and error.attempts == 3, error
    assert "retry-after" not in {k.lower() for k in error.headers}
    assert seen["/v3/"] == 3


@pytest.mark.parametrize("client", CLIENTS)
def test_a_content_encoding_trailer_does_not_break_a_valid_answer(client: str) -> None:
    answer = chunked(200, json.dumps({"api": "v3"}).encode(), "Content-Encoding: gzip\r\n")
    result, _ = run(client, {"/v3/": answering(answer)}, lambda c: c.version_info())
    assert not isinstance(result, PrintMgmtError), result


@pytest.mark.parametrize("client", CLIENTS)
def test_a_trailer_is_not_among_an_errors_headers(client: str) -> None:
    answer = chunked(404, b'{"message": "no such job"}', "X-Trailer: sneaky\r\n")
    error, _ = run(client, {"/v3/jobs/j1": answering(answer)}, lambda c: c.jobs.get("j1"))
    assert isinstance(error, NotFound), error
    assert "x-trailer" not in {k.lower() for k in error.headers}


@pytest.mark.parametrize("client", CLIENTS)
def test_a_transfer_coding_other_than_chunked_is_refused_not_written(client: str) -> None:
    answer = chunked(200, gzip.compress(b"the file"), "", coding="gzip, chunked")
    sink = io.BytesIO()
    error, _ = run(client, {"/v3/jobs/j1/collect": answering(answer)}, lambda c: c.jobs.collect("j1", to=sink))
    assert isinstance(error, TransportError), error
    assert sink.getvalue() == b""
