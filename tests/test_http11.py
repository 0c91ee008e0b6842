"""The default transport's HTTP/1.1 connections over real sockets on 127.0.0.1: how answers are framed and read
(length, chunks, the connection's close, no body), interim answers, broken answers as typed errors, what is
sent, and when a connection may serve again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from printmgmt import PrintClient
from printmgmt._pool import PooledTransport
from printmgmt.errors import OutcomeUnknown, RequestNotSent

#: What the server does for one request: write these bytes (and close when ``close``), or run a coroutine.
Answer = bytes | tuple[bytes, str] | Callable[[asyncio.StreamWriter], Awaitable[None]]


@dataclass
class Scripted:
    """A server that answers the requests it reads, on any connection, with the next answer of its script."""

    script: list[Answer]
    port: int = 0
    #: Per connection, in order: the raw requests it read (head and body).
    requests: list[list[bytes]] = field(default_factory=list)
    closed: list[asyncio.Event] = field(default_factory=list)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen: list[bytes] = []
        self.requests.append(seen)
        closed = asyncio.Event()
        self.closed.append(closed)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lower = head.lower()
                if b"transfer-encoding: chunked" in lower:
                    body = await reader.readuntil(b"0\r\n\r\n")
                else:
                    length = [int(line.split(b":")[1]) for line in lower.split(b"\r\n") if b"content-length" in line]
                    body = await reader.readexactly(length[0] if length else 0)
                seen.append(head + body)
                answer = self.script.pop(0)
                if callable(answer):
                    await answer(writer)
                    continue
                data, close = (answer, False) if isinstance(answer, bytes) else (answer[0], True)
                writer.write(data)
                await writer.drain()
                if close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
            closed.set()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture
async def scripted() -> AsyncIterator[Callable[..., Awaitable[Scripted]]]:
    servers: list[asyncio.Server] = []

    async def start(*script: Answer) -> Scripted:
        made = Scripted(list(script))
        server = await asyncio.start_server(made.serve, "127.0.0.1", 0)
        made.port = server.sockets[0].getsockname()[1]
        servers.append(server)
        return made

    yield start
    for server in servers:
        server.close()


def client(**options: Any) -> httpx.AsyncClient:
    transport = PooledTransport(**options)
    assert transport.pooled
    return httpx.AsyncClient(transport=transport, timeout=5)


def ok(body: bytes, *headers: bytes) -> bytes:
    extra = b"".join(header + b"\r\n" for header in headers)
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (len(body), extra, body)


# -- how a body is framed


async def test_a_body_of_a_given_length_and_the_connection_serves_again(scripted: Any) -> None:
    server = await scripted(ok(b"first", b"X-Spaced:  v \t"), ok(b"second"))
    async with client() as http:
        first = await http.get(server.url("/a"))
        assert (first.content, first.headers["x-spaced"], first.http_version) == (b"first", "v", "HTTP/1.1")
        assert (await http.get(server.url("/b"))).content == b"second"
    assert [len(r) for r in server.requests] == [2]  # one connection for both


async def test_bare_line_feeds_end_lines_as_h11_reads_them(scripted: Any) -> None:
    server = await scripted(b"HTTP/1.1 200 OK\nContent-Length: 2\nX-A: 1\n\nhi", ok(b"next"))
    async with client() as http:
        answer = await http.get(server.url())
        assert (answer.content, answer.headers["x-a"]) == (b"hi", "1")
        assert (await http.get(server.url())).content == b"next"


async def test_a_chunked_body_in_pieces(scripted: Any) -> None:
    async def chunks(writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        await writer.drain()
        await asyncio.sleep(0.01)
        writer.write(b"1\r\n \r\n5\r\nworld\r\n0\r\n\r\n")
        await writer.drain()

    server = await scripted(chunks, ok(b"after"))
    async with client() as http:
        assert (await http.get(server.url())).content == b"hello world"
        assert (await http.get(server.url())).content == b"after"
    assert [len(r) for r in server.requests] == [2]


async def test_a_body_that_ends_where_the_connection_does(scripted: Any) -> None:
    server = await scripted((b"HTTP/1.1 200 OK\r\n\r\nuntil the end", "close"), ok(b"new"))
    async with client() as http:
        assert (await http.get(server.url())).content == b"until the end"
        assert (await http.get(server.url())).content == b"new"
    assert [len(r) for r in server.requests] == [1, 1]  # not used again after the close


@pytest.mark.parametrize(
    ("method", "head"),
    [
        ("HEAD", b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n"),
        ("HEAD", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
        ("GET", b"HTTP/1.1 204 No Content\r\nContent-Length: 50\r\n\r\n"),
        ("GET", b"HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n"),
    ],
)
async def test_answers_without_a_body(scripted: Any, method: str, head: bytes) -> None:
    server = await scripted(head, ok(b"next"))
    async with client() as http:
        answer = await http.request(method, server.url())
        assert answer.content == b""
        assert (await http.get(server.url())).content == b"next"  # framed right: the next answer is its own
    assert [len(r) for r in server.requests] == [2]


async def test_interim_answers_come_before_the_answer(scripted: Any) -> None:
    server = await scripted(
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + ok(b"final", b"X-Final: 1"),
        ok(b"next"),
    )
    async with client() as http:
        answer = await http.get(server.url())
        assert (answer.status_code, answer.content, "link" in answer.headers) == (200, b"final", False)
        assert answer.headers["x-final"] == "1"
        assert (await http.get(server.url())).content == b"next"
    assert [len(r) for r in server.requests] == [2]


async def test_a_body_larger_than_a_read_arrives_whole(scripted: Any) -> None:
    body = bytes(range(256)) * 4096  # 1 MiB: many reads, and more than is buffered before reading pauses
    server = await scripted(ok(body), ok(b"next"))
    async with client() as http:
        async with http.stream("GET", server.url()) as answer:
            pieces = []
            async for piece in answer.aiter_raw():
                pieces.append(piece)
                await asyncio.sleep(0.002)  # the server sends faster than this reads: reading pauses, resumes
        assert len(pieces) > 1 and b"".join(pieces) == body
        assert (await http.get(server.url())).content == b"next"
    assert [len(r) for r in server.requests] == [2]


# -- when a connection serves again


async def test_a_partly_read_answer_leaves_its_connection_closed(scripted: Any) -> None:
    async def half(writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")
        await writer.drain()

    server = await scripted(half, ok(b"next"))
    async with client() as http:
        async with http.stream("GET", server.url()) as answer:
            assert await answer.aiter_raw().__anext__() == b"half"
        assert (await http.get(server.url())).content == b"next"
        await asyncio.wait_for(server.closed[0].wait(), 5)
    assert [len(r) for r in server.requests] == [1, 1]


async def test_bytes_after_an_answer_leave_its_connection_unused(scripted: Any) -> None:
    server = await scripted(ok(b"one") + b"HTTP/1.1 200 OK\r\n", ok(b"two"))
    async with client() as http:
        assert (await http.get(server.url())).content == b"one"
        assert (await http.get(server.url())).content == b"two"
    assert [len(r) for r in server.requests] == [1, 1]


# -- broken answers: typed errors, and the connection is not used again


async def test_the_server_closing_mid_body(scripted: Any) -> None:
    server = await scripted((b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this", "close"), ok(b"next"))
    async with client() as http:
        with pytest.raises(httpx.RemoteProtocolError, match="without sending complete message body"):
            await http.get(server.url())
        assert (await http.get(server.url())).content == b"next"


async def test_the_server_closing_before_answering(scripted: Any) -> None:
    server = await scripted((b"", "close"))
    async with client() as http:
        with pytest.raises(httpx.RemoteProtocolError, match="without sending a response"):
            await http.get(server.url())


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTX/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nX: a\x00b\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy",
        b"HTTP/1.1 200 OK\r\nX-Long: " + b"x" * 200_000,
    ],
    ids=["protocol", "status", "header-name", "header-value", "two-lengths", "head-too-long"],
)
async def test_a_broken_answer_is_a_typed_error(scripted: Any, answer: bytes) -> None:
    server = await scripted(answer, answer)  # the connection stays open: the error is the parser's
    async with client() as http:
        with pytest.raises(httpx.RemoteProtocolError):
            await http.get(server.url())
    async with PrintClient(server.url(), auth="t", retries=0) as sdk:
        with pytest.raises(OutcomeUnknown, match="broken HTTP") as caught:
            await sdk.jobs.get("j1")
        assert isinstance(caught.value.__cause__, httpx.RemoteProtocolError)


async def test_a_read_timeout(scripted: Any) -> None:
    async def silent(writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(1)

    server = await scripted(silent, ok(b"next"))
    async with client() as http:
        with pytest.raises(httpx.ReadTimeout):
            await asyncio.wait_for(http.get(server.url(), timeout=httpx.Timeout(5, read=0.05)), 2)
        assert (await http.get(server.url())).content == b"next"


# -- what is sent


async def test_bodies_of_a_given_length_and_in_chunks_are_sent_framed(scripted: Any) -> None:
    server = await scripted(ok(b"1"), ok(b"2"))

    async def pieces() -> AsyncIterator[bytes]:
        yield b"abc"
        yield b""
        yield b"defgh"

    async with client() as http:
        await http.post(server.url("/length"), content=b"payload")
        await http.post(server.url("/chunks"), content=pieces())
    first, second = server.requests[0]
    assert first.startswith(b"POST /length HTTP/1.1\r\n") and first.endswith(b"\r\n\r\npayload")
    assert b"\r\nContent-Length: 7\r\n" in first
    assert second.endswith(b"\r\n\r\n3\r\nabc\r\n5\r\ndefgh\r\n0\r\n\r\n")


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Evil": "secret\r\nInjected: 1"},
        {"X-Evil": "secret\nInjected: 1"},
        {"X-Evil\r\nInjected": "secret"},
        {"X-Evil": "secret\0"},
    ],
    ids=["line-break-in-value", "bare-lf-in-value", "line-break-in-name", "nul-in-value"],
)
async def test_a_header_that_cannot_be_sent_is_refused_without_its_value(
    scripted: Any, headers: Mapping[str, str]
) -> None:
    server = await scripted(ok(b"next"))
    async with client() as http:
        with pytest.raises(httpx.LocalProtocolError, match="Illegal header") as caught:
            await http.get(server.url(), headers=headers)
        assert "secret" not in str(caught.value)
        assert (await http.get(server.url())).content == b"next"
    (sent,) = [request for connection in server.requests for request in connection]
    assert b"Evil" not in sent and b"Injected" not in sent


async def test_a_body_longer_than_its_declared_length_is_refused(scripted: Any) -> None:
    server = await scripted(ok(b"next"))
    async with client() as http:
        with pytest.raises(httpx.LocalProtocolError, match="Too much data"):
            await http.post(server.url(), content=b"four", headers={"Content-Length": "2"})
        assert (await http.get(server.url())).content == b"next"


async def test_a_connection_refused_is_a_typed_error() -> None:
    listener = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    listener.close()
    await listener.wait_closed()
    async with PrintClient(f"http://127.0.0.1:{port}", auth="t", retries=0) as sdk:
        with pytest.raises(RequestNotSent, match="could not connect") as caught:
            await sdk.jobs.get("j1")
        assert isinstance(caught.value.__cause__, httpx.ConnectError)


async def test_httpcores_trace_events_in_order(scripted: Any) -> None:
    server = await scripted(ok(b"x"), ok(b"y"))
    events: list[str] = []

    async def trace(event: str, info: Mapping[str, Any]) -> None:
        events.append(event)

    phases = ["send_request_headers", "send_request_body", "receive_response_headers", "receive_response_body"]
    exchange = [f"http11.{p}.{s}" for p in [*phases, "response_closed"] for s in ("started", "complete")]
    async with client() as http:
        await http.post(server.url(), content=b"body", extensions={"trace": trace})
        assert events == ["connection.connect_tcp.started", "connection.connect_tcp.complete", *exchange]
        events.clear()
        await http.get(server.url(), extensions={"trace": trace})  # no body, on the same connection
        assert events == exchange
