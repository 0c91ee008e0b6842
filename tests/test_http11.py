"""The default transport's HTTP/1.1 connections over real sockets on 127.0.0.1: how answers are framed and read
(length, chunks, the connection's close, no body), interim answers, broken answers as typed errors, what is
sent, and when a connection may serve again; bytes after an answer (never read, plain and over TLS),
trailers (never headers), transfer codings, body pieces, obs-fold, a run of interim answers. How every other
answer is read is h11's to judge: tests/test_http11_referee.py."""

from __future__ import annotations

import asyncio
import gzip
import io
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import trustme

from printmgmt import PrintClient, RetryPolicy
from printmgmt._pool import PooledTransport
from printmgmt.errors import NotFound, OutcomeUnknown, PreconditionFailed, RequestNotSent

#: What the server does for one request: write these bytes (and close when ``close``), or run a coroutine.
Answer = bytes | tuple[bytes, str] | Callable[[asyncio.StreamWriter], Awaitable[None]]


@dataclass
class Scripted:
    """A server that answers the requests it reads, on any connection, with the next answer of its script."""

    script: list[Answer]
    scheme: str = "http"
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
        host = "localhost" if self.scheme == "https" else "127.0.0.1"  # the name on the test certificate
        return f"{self.scheme}://{host}:{self.port}{path}"


@pytest.fixture
async def scripted() -> AsyncIterator[Callable[..., Awaitable[Scripted]]]:
    servers: list[asyncio.Server] = []

    async def start(*script: Answer, tls: ssl.SSLContext | None = None) -> Scripted:
        made = Scripted(list(script), scheme="https" if tls else "http")
        server = await asyncio.start_server(made.serve, "127.0.0.1", 0, ssl=tls)
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


# -- bytes after an answer are never read: its connection serves no more

SMUGGLED = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 18\r\n\r\n{"_id":"SMUGGLED"}'


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.mark.parametrize("scheme", ["http", "https"])
async def test_a_second_answer_in_the_same_packet_is_never_read(scripted: Any, ca: trustme.CA, scheme: str) -> None:
    tls = None
    if scheme == "https":
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ca.issue_cert("localhost").configure_cert(tls)
    trust = ssl.create_default_context()
    ca.configure_trust(trust)
    not_found = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
    last_chunk = b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
    job = b'{"_id":"j2"}'
    server = await scripted(
        not_found + SMUGGLED, last_chunk + SMUGGLED, ok(job, b"Content-Type: application/json"), tls=tls
    )
    async with PrintClient(server.url(), auth="t", retries=0, verify=trust) as sdk:
        with pytest.raises(NotFound):
            await sdk.jobs.get("j1")
        with pytest.raises(NotFound):  # with the last chunk of a chunked body
            await sdk.jobs.get("j1")
        assert (await sdk.jobs.get("j2")).id == "j2"  # the next call gets its own answer, on a new connection
    assert [len(r) for r in server.requests] == [1, 1, 1]


async def test_a_refusal_followed_by_a_success_stays_a_refusal(scripted: Any) -> None:
    refused = b"HTTP/1.1 412 Precondition Failed\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    server = await scripted(refused + ok(b'{"ok":true}', b"Content-Type: application/json"))
    async with PrintClient(server.url(), auth="t", retries=0) as sdk:
        with pytest.raises(PreconditionFailed):
            await sdk.jobs.pause("j1")


async def test_bytes_arriving_while_idle_are_never_read(scripted: Any) -> None:
    late = asyncio.Event()

    async def then_more(writer: asyncio.StreamWriter) -> None:
        writer.write(ok(b"one"))
        await writer.drain()
        await asyncio.sleep(0.05)  # the client's connection is idle by now
        writer.write(SMUGGLED)
        await writer.drain()
        late.set()

    server = await scripted(then_more, ok(b"two"))
    async with client() as http:
        assert (await http.get(server.url())).content == b"one"
        await asyncio.wait_for(late.wait(), 5)
        (idle,) = pool_of(http).connections
        for _ in range(1000):  # until the stray bytes reach the client
            if idle.has_expired():
                break
            await asyncio.sleep(0.005)
        assert idle.has_expired()
        assert (await http.get(server.url())).content == b"two"
    assert [len(r) for r in server.requests] == [1, 1]


def pool_of(http: httpx.AsyncClient) -> Any:
    return http._transport._pool  # type: ignore[attr-defined]


# -- trailers are read and dropped: never headers


def chunked_with_trailers(status: bytes, body: bytes, *trailers: bytes) -> bytes:
    head = b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" % status
    return head + b"%x\r\n%s\r\n0\r\n%s\r\n" % (len(body), body, b"".join(t + b"\r\n" for t in trailers))


async def test_trailers_never_act_as_headers(scripted: Any) -> None:
    job = b'{"_id":"j1"}'
    server = await scripted(
        chunked_with_trailers(b"503 Service Unavailable", b"{}", b"Retry-After: 3600"),  # retried all the same
        chunked_with_trailers(b"200 OK", job, b"Content-Encoding: gzip"),  # not decoded as gzip
        chunked_with_trailers(b"404 Not Found", b"{}", b"X-Trailer: 1"),
    )
    retry = RetryPolicy(attempts=2, sleep=lambda seconds: None)
    async with PrintClient(server.url(), auth="t", retry=retry) as sdk:
        assert (await sdk.jobs.get("j1")).id == "j1"
        with pytest.raises(NotFound) as caught:
            await sdk.jobs.get("j2")
        assert "x-trailer" not in {name.lower() for name in caught.value.headers}
    async with client() as http:
        with_trailer = await scripted(chunked_with_trailers(b"200 OK", b"x", b"X-Trailer: 1"))
        assert "x-trailer" not in (await http.get(with_trailer.url())).headers


# -- transfer codings other than chunked are refused


@pytest.mark.parametrize(
    "coding", [b"gzip, chunked", b"chunked, gzip", b"gzip", b"identity", b"chunked\r\nTransfer-Encoding: chunked"]
)
async def test_a_transfer_coding_other_than_chunked_is_refused(scripted: Any, coding: bytes) -> None:
    compressed = gzip.compress(b"the file")
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: %s\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (
        coding,
        len(compressed),
        compressed,
    )
    server = await scripted(answer, ok(b"next"))
    async with client() as http:
        with pytest.raises(httpx.RemoteProtocolError, match="Transfer-Encoding"):
            await http.get(server.url())
        assert (await http.get(server.url())).content == b"next"
    async with PrintClient(server.url(), auth="t", retries=0) as sdk:
        server.script[:] = [answer]
        with pytest.raises(OutcomeUnknown, match="broken HTTP"):
            await sdk.jobs.collect("j1", to=io.BytesIO())


# -- a body is handed through as it arrives, never joined


async def test_a_body_is_handed_on_in_pieces_of_at_most_64_kib(scripted: Any) -> None:
    body = bytes(range(256)) * 8192  # 2 MiB, sent at once while the caller reads nothing
    server = await scripted(ok(body))
    async with client() as http, http.stream("GET", server.url()) as answer:
        await asyncio.sleep(0.2)  # the socket's reading pauses with more than a quarter MiB held
        pieces = [piece async for piece in answer.aiter_raw()]
    assert b"".join(pieces) == body
    assert max(len(piece) for piece in pieces) <= 64 * 1024


# -- obs-fold, as RFC 9112 §5.2 asks a user agent to read it


async def test_a_folded_header_value_is_read_as_one_line(scripted: Any) -> None:
    server = await scripted(
        b"HTTP/1.1 200 OK\r\nX-Folded: first \r\n  second\r\n\tthird\r\nContent-Length: 2\r\n\r\nok"
    )
    async with client() as http:
        answer = await http.get(server.url())
    assert (answer.content, answer.headers["x-folded"]) == (b"ok", "first  second third")


# -- a run of interim answers ends as an over-long head does


async def test_an_endless_run_of_interim_answers_is_refused_early(scripted: Any) -> None:
    sent = 0

    async def endless(writer: asyncio.StreamWriter) -> None:
        nonlocal sent
        while sent < 5000:
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            sent += 1
            await writer.drain()
            await asyncio.sleep(0)

    server = await scripted(endless)
    async with client() as http:
        with pytest.raises(httpx.RemoteProtocolError, match="interim"):
            await http.get(server.url())
    assert sent < 1000  # refused after a few dozen, not after 100 KiB of them
