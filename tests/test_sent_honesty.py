"""Errors say what reached the server: a deadline that passes before the request went out whole (waiting for a
pooled connection, during TLS) is a RequestNotSent; after retries, an attempt that may have reached the server
makes the final error an OutcomeUnknown that names it; a body not in its declared Content-Encoding keeps its
status's class. Real sockets on 127.0.0.1, the default transport and the sync client."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from raw_http import Exchange, before_body, raw_server

from printmgmt import PrintClient, RetryPolicy
from printmgmt.errors import (
    AnswerTimeout,
    InvalidResponse,
    NotFound,
    OutcomeUnknown,
    PrintMgmtError,
    RequestNotSent,
    RequestTimeout,
)
from printmgmt.sync import PrintClient as SyncPrintClient

CLIENTS = ["httpx", "sync"]
NO_WAIT = RetryPolicy(attempts=3, wait_initial=0, wait_jitter=0, sleep=lambda seconds: None)


@contextmanager
def silent_listener() -> Iterator[tuple[int, list[socket.socket]]]:
    """A TCP port that accepts and never writes a byte (a TLS handshake to it stalls)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.05)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except (TimeoutError, OSError):
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], accepted
    finally:
        stop.set()
        thread.join()
        listener.close()
        for conn in accepted:
            conn.close()


def call(client: str, url: str, method: str, **kwargs: object) -> PrintMgmtError:
    """The error of ``method`` (a dotted facade path) on a client of kind ``client``."""
    options = {"deadline": kwargs.pop("deadline", None), "timeout": 10.0}
    args = kwargs.pop("args", ())
    assert isinstance(args, tuple)
    make = dict(auth="t", verify=False, **kwargs)

    def target(root: object) -> object:
        for part in method.split("."):
            root = getattr(root, part)
        return root

    if client == "sync":
        with SyncPrintClient(url, **make) as sync_client, pytest.raises(PrintMgmtError) as caught:  # type: ignore[arg-type]
            target(sync_client)(*args, **options)  # type: ignore[operator]
        return caught.value

    async def run() -> PrintMgmtError:
        async with PrintClient(url, transport=client, **make) as async_client:  # type: ignore[arg-type]
            with pytest.raises(PrintMgmtError) as raised:
                await target(async_client)(*args, **options)  # type: ignore[operator]
            return raised.value

    return asyncio.run(run())


@pytest.mark.parametrize("client", CLIENTS)
def test_a_deadline_passing_during_tls_is_not_sent(client: str) -> None:
    with silent_listener() as (port, _):
        error = call(client, f"https://127.0.0.1:{port}", "version_info", deadline=0.5, retries=0)
    assert isinstance(error, RequestTimeout) and isinstance(error, RequestNotSent), error
    assert not isinstance(error, OutcomeUnknown)
    assert "not sent" in str(error)


@contextmanager
def full_backlog() -> Iterator[int]:
    """A TCP port whose accept queue is full and never drained: a new connection to it stalls in connecting
    (the kernel drops its SYN)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    waiting = [socket.socket() for _ in range(4)]
    try:
        for sock in waiting:
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect(("127.0.0.1", port))
        yield port
    finally:
        for sock in [*waiting, listener]:
            sock.close()


@pytest.mark.parametrize("client", CLIENTS)
def test_a_deadline_passing_while_connecting_is_not_sent(client: str) -> None:
    with full_backlog() as port:
        error = call(client, f"http://127.0.0.1:{port}", "version_info", deadline=0.5, retries=0)
    assert isinstance(error, RequestTimeout) and isinstance(error, RequestNotSent), error
    assert not isinstance(error, OutcomeUnknown)
    assert "not sent" in str(error)


# asyncio closes a connection with unsent bytes only once they are sent: the loop ends first (collected here)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("client", CLIENTS)
def test_a_deadline_passing_during_a_stalled_upload_is_not_sent(client: str) -> None:
    @before_body
    def never_reads_the_body(exchange: Exchange) -> None:
        exchange.stopping.wait(30)

    config = {"big": "x" * 16_000_000}  # more than the socket buffers hold
    with raw_server({"/v3/configs/": never_reads_the_body}) as server:
        error = call(client, server.url, "configs.replace", args=(config,), deadline=1.0, retries=0)
    gc.collect()
    assert isinstance(error, RequestTimeout) and isinstance(error, RequestNotSent), error
    assert not isinstance(error, OutcomeUnknown)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_deadline_passing_while_waiting_for_the_answer_is_an_unknown_outcome(client: str) -> None:
    def silent(exchange: Exchange) -> None:
        exchange.stopping.wait(30)  # reads the whole request, never answers

    with raw_server({"/v3/": silent}) as server:
        error = call(client, server.url, "version_info", deadline=0.5, retries=0)
    assert isinstance(error, AnswerTimeout), error
    assert "outcome unknown" in str(error)


def test_a_deadline_passing_while_waiting_for_a_pooled_connection_is_not_sent() -> None:
    import httpx

    def silent(exchange: Exchange) -> None:
        exchange.stopping.wait(30)

    with raw_server({"/v3/": silent}) as server:

        async def run() -> PrintMgmtError:
            limits = httpx.Limits(max_connections=1)
            async with PrintClient(server.url, auth="t", limits=limits, retries=0) as async_client:
                holding = asyncio.ensure_future(async_client.version_info(deadline=3))
                while not server.seen:  # the one connection is taken  # noqa: ASYNC110 (a thread's count)
                    await asyncio.sleep(0.01)
                with pytest.raises(PrintMgmtError) as raised:
                    await async_client.version_info(deadline=0.3, timeout=10.0)
                holding.cancel()
                return raised.value

        error = asyncio.run(run())
    assert isinstance(error, RequestNotSent) and not isinstance(error, OutcomeUnknown), error


@contextmanager
def acts_once_then_gone(answer: bytes = b"") -> Iterator[str]:
    """A server that reads the first request whole, writes ``answer`` (none: resets its connection), and then
    accepts no more connections (every reconnect is refused)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def serve() -> None:
        conn, _ = listener.accept()
        listener.close()
        buffered = b""
        while b"\r\n\r\n" not in buffered:
            buffered += conn.recv(65536)
        head, _, body = buffered.partition(b"\r\n\r\n")
        length = next(
            (int(line[15:]) for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")), 0
        )
        while len(body) < length:
            body += conn.recv(65536)
        if answer:
            conn.sendall(answer)
            conn.close()
            return
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        thread.join(5)
        listener.close()


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize(("method", "args"), [("jobs.delete", ("j1",)), ("configs.replace", ({"a": 1},))])
def test_an_attempt_that_reached_the_server_makes_the_outcome_unknown(
    client: str, method: str, args: tuple[object, ...]
) -> None:
    with acts_once_then_gone() as url:
        error = call(client, url, method, args=args, retry=NO_WAIT)
    assert isinstance(error, OutcomeUnknown) and not isinstance(error, RequestNotSent), error
    assert error.attempts == 3
    assert error.reached == 1
    assert "attempt 1 may have reached the server" in str(error)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_gateway_timeout_then_no_connection_is_an_unknown_outcome(client: str) -> None:
    gateway = b"HTTP/1.1 504 Gateway Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    with acts_once_then_gone(gateway) as url:
        error = call(client, url, "jobs.delete", args=("j1",), retry=NO_WAIT)
    assert isinstance(error, OutcomeUnknown) and error.reached == 1, error
    assert "attempt 1 may have reached the server" in str(error)


@pytest.mark.parametrize("client", CLIENTS)
def test_an_answer_after_an_attempt_that_reached_the_server_is_not_the_outcome(client: str) -> None:
    answered = iter(range(100))

    def deletes_then_not_found(exchange: Exchange) -> None:
        if next(answered) == 0:  # acted on (deleted), then the connection broke before the answer
            exchange.reset()
        else:
            exchange.send(404, {"message": "no such job"})

    with raw_server({"/v3/jobs/j1": deletes_then_not_found}) as server:
        error = call(client, server.url, "jobs.delete", args=("j1",), retry=NO_WAIT)
    assert isinstance(error, OutcomeUnknown) and error.reached == 1, error
    assert isinstance(error.__cause__, NotFound)
    assert "attempt 1 may have reached the server" in str(error)


def wrongly_encoded(status: int):  # type: ignore[no-untyped-def]
    def answer(exchange: Exchange) -> None:
        body = b'{"_id": "j1"}'  # not gzip
        head = f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        exchange.conn.sendall(head.encode() + b"Content-Length: %d\r\n\r\n" % len(body) + body)

    return answer


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize(("status", "expected"), [(200, InvalidResponse), (404, NotFound)])
def test_a_body_not_in_its_declared_encoding_keeps_the_status_class(
    client: str, status: int, expected: type[PrintMgmtError]
) -> None:
    with raw_server({"/v3/jobs/j1": wrongly_encoded(status)}) as server:
        error = call(client, server.url, "jobs.get", args=("j1",), retries=0)
    assert type(error) is expected, error
    assert "its body is not in its declared Content-Encoding 'gzip'" in str(error), error
