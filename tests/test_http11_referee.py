"""The default transport's HTTP/1.1 connection against h11 (httpx's own parser) as referee.

Each generated answer goes, split at random byte boundaries, to h11 and to the connection. Where h11 reads an
answer, the connection reads the same status, reason, version, header fields (as httpcore hands h11's to
httpx) and body, and serves again exactly when h11 could start a new exchange with nothing left over; where
h11 refuses, the connection refuses with httpcore's typed errors. :data:`STRICTER` lists, each with its
reason, the only answers h11 reads and the connection refuses on purpose.

The corpus: answers of every framing (a length, chunks with extensions and trailers, the connection's close,
HEAD, 204, 304, interim answers first), obs-fold, bare LF line ends, odd versions and reason phrases, many and
long header fields, bytes after the answer; then mutations of them (bytes dropped, inserted, replaced,
repeated, cut; framing headers and chunk sizes changed). Hypothesis supplies the seeds (derandomized); plain
``random`` builds :data:`BATCH` answers per seed, so that tens of thousands take seconds. The bulk feeds the
connection's protocol directly (``data_received``, ``eof_received``: the code the event loop calls) with a
transport that only records; a sample goes through httpx over a real loopback socket.
``PRINTMGMT_H11_EXAMPLES=<seeds>`` runs more (each seed is :data:`BATCH` answers).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import ssl
from collections import Counter
from collections.abc import AsyncIterable, Callable, Iterator
from dataclasses import dataclass

import h11
import httpcore
import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from printmgmt._http11 import HTTP11Connection
from printmgmt._pool import PooledTransport

BATCH = 250
SEEDS = int(os.environ.get("PRINTMGMT_H11_EXAMPLES", "84"))
SOCKET_ANSWERS = 300
CHECK = settings(
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    database=None,
    deadline=None,
    max_examples=SEEDS,
    suppress_health_check=[HealthCheck.too_slow],
)
ORIGIN = httpcore.Origin(b"http", b"referee.invalid", 80)
#: httpcore's limit for h11's unread bytes (``MAX_INCOMPLETE_EVENT_SIZE``), which the connection shares.
MAX_INCOMPLETE = 100 * 1024
COUNTS: Counter[str] = Counter()


@dataclass(frozen=True)
class Read:
    """An answer as read: what httpx would show, and whether the connection may serve another request."""

    status: int
    reason: bytes
    version: bytes
    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes
    reusable: bool


@dataclass(frozen=True)
class Refused:
    reason: str


Outcome = Read | Refused


# -- the referee


def h11_reads(method: bytes, pieces: list[bytes]) -> tuple[Outcome, bool]:
    """h11's reading of ``pieces`` (a client's, with httpcore's limit), and whether it needed the server's
    close to decide (then the connection gets the close too)."""
    conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_INCOMPLETE)
    conn.send(h11.Request(method=method, target="/", headers=[("Host", "referee.invalid")]))
    conn.send(h11.EndOfMessage())
    response: h11.Response | None = None
    body: list[bytes] = []

    def pump() -> bool:
        nonlocal response
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA or event is h11.PAUSED:
                return False
            if isinstance(event, h11.Response):
                response = event
            elif isinstance(event, h11.Data):
                body.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                return True
            elif isinstance(event, h11.ConnectionClosed):
                raise h11.RemoteProtocolError("closed before the answer was complete")

    done = eof = False
    try:
        for piece in pieces:
            conn.receive_data(piece)  # after the answer too: h11 keeps what follows it as trailing data
            done = done or pump()
        if not done:
            eof = True
            conn.receive_data(b"")
            if not pump():
                return Refused("incomplete at the server's close"), eof
    except h11.RemoteProtocolError as exc:
        return Refused(str(exc)), eof
    assert response is not None
    # h11 could start the next exchange: both sides done, nothing left over (which h11 would read as the next
    # answer, and the connection never reads)
    reusable = conn.our_state is h11.DONE and conn.their_state is h11.DONE and not eof and not conn.trailing_data[0]
    return Read(
        response.status_code,
        bytes(response.reason),
        b"HTTP/" + response.http_version,
        tuple((bytes(name), bytes(value)) for name, value in response.headers.raw_items()),
        b"".join(body),
        reusable,
    ), eof


# -- the connection, driven as the event loop drives it


class RecordingTransport(asyncio.Transport):
    """A transport that takes what is written and reports itself closed once aborted."""

    def __init__(self) -> None:
        super().__init__()
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def is_closing(self) -> bool:
        return self.closing

    def abort(self) -> None:
        self.closing = True

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def connection_reads(method: bytes, pieces: list[bytes], eof: bool) -> Outcome:
    connection = HTTP11Connection(ORIGIN, ssl_context=SSL_CONTEXT)
    connection.connection_made(RecordingTransport())
    request = httpcore.Request(method, "http://referee.invalid/", headers=[(b"Host", b"referee.invalid")])

    async def exchange() -> Outcome:
        try:
            response = await connection.handle_async_request(request)
            stream = response.stream
            assert isinstance(stream, AsyncIterable)
            body = b"".join([piece async for piece in stream])
            await response.aclose()
        except (httpcore.RemoteProtocolError, httpcore.ReadError) as exc:
            return Refused(str(exc))
        return Read(
            response.status,
            response.extensions["reason_phrase"],
            response.extensions["http_version"],
            tuple(response.headers),
            body,
            connection.is_available(),
        )

    task = asyncio.ensure_future(exchange())
    await asyncio.sleep(0)  # the request is written: what arrives now is its answer
    for piece in pieces:
        connection.data_received(piece)
    if eof:
        connection.eof_received()
        connection.connection_lost(None)
    try:
        return await asyncio.wait_for(task, 2)
    except TimeoutError:
        return Refused("HUNG: the connection waited for more")


SSL_CONTEXT = ssl.create_default_context()

# -- answers on purpose read differently


@dataclass(frozen=True)
class Stricter:
    """Answers h11 reads and the connection refuses on purpose: which (``applies``), why, and the refusal."""

    name: str
    why: str
    refusal: str
    applies: Callable[[bytes, Read], bool]


def _has(read: Read, name: bytes) -> bool:
    return any(field.lower() == name for field, _ in read.headers)


STRICTER = [
    Stricter(
        "transfer-encoding-with-length",
        "RFC 9112 §6.3: an answer with both 'ought to be handled as an error' (the classic smuggling shape); "
        "h11 lets Transfer-Encoding win",
        "Transfer-Encoding with Content-Length",
        lambda raw, read: _has(read, b"transfer-encoding") and _has(read, b"content-length"),
    ),
    Stricter(
        "transfer-encoding-in-http-1.0",
        "RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 message means faulty framing; h11 reads the chunks",
        "Transfer-Encoding with Content-Length, or in an HTTP/1.0 answer",
        lambda raw, read: _has(read, b"transfer-encoding") and read.version < b"HTTP/1.1",
    ),
    Stricter(
        "control-character-in-chunk-extension",
        "RFC 9112 §7.1.1's chunk-ext holds no control characters; a lone CR there ends the line for some "
        "proxies (a desync); h11 skips anything up to the CRLF",
        "a control character in a chunk extension",
        lambda raw, read: re.search(rb"\n[0-9A-Fa-f]+;[^\n]*[\x00-\x08\x0b-\x1f\x7f]", raw) is not None,
    ),
]


def stricter_for(raw: bytes, read: Read, refused: Refused) -> Stricter | None:
    for entry in STRICTER:
        if entry.refusal in refused.reason and entry.applies(raw, read):
            return entry
    return None


# -- the corpus

NAMES = [b"Content-Type", b"X-Request-Id", b"ETag", b"Cache-Control", b"Set-Cookie", b"Vary", b"Date", b"Server",
         b"Retry-After", b"Content-Encoding", b"Location", b"WWW-Authenticate", b"Keep-Alive", b"x", b"X-A_b.c~1",
         b"!#$%&'*+-.^_`|~", b"TRANSFER-encoding-ish", b"Content-Lengthy"]  # fmt: skip
VALUE_BYTES = b"abcXYZ019 \t\"'(),/:;<=>?@[\\]{}~\x80\xa0\xe9\xff"
WEIRD_BYTES = b"\x00\x01\x08\x0b\x0c\x0e\x1f\x7f\r\n \t:;"
REASONS = [b"OK", b"", b"Not Found", b"Precondition Failed", b"Ok  with  blanks ", b"\tTab", b"\xc3\xa7a va",
           b"\x01ctrl", b"\x7fdel", b"x" * 300]  # fmt: skip
STATUSES = [200, 200, 200, 201, 202, 204, 206, 302, 304, 400, 401, 404, 404, 409, 412, 429, 500, 503, 599, 999]
VERSIONS = [b"1.1"] * 12 + [b"1.0", b"1.0", b"0.9", b"2.0", b"1.2", b"9.9"]
INTERIM = [b"HTTP/1.1 100 Continue", b"HTTP/1.1 100 Continue", b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>",
           b"HTTP/1.1 102 Processing", b"HTTP/1.0 199 Whatever\nX: y", b"HTTP/1.1 101 Switching Protocols"]  # fmt: skip

FRAMING_MUTATIONS = [b"\r\nContent-Length: 3", b"\r\nTransfer-Encoding: chunked", b"\r\nContent-Length: -1",
                     b"\r\nContent-Length: 99999999999999999999999", b"\r\nTransfer-Encoding: gzip, chunked",
                     b"\r\n Folded", b"\r\nContent-Length: 1\r\nContent-Length: 2"]  # fmt: skip


class Answers:
    """Answers and their mutations from one seeded ``random.Random``."""

    def __init__(self, rnd: random.Random) -> None:
        self.r = rnd

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def eol(self) -> bytes:
        return b"\n" if self.chance(0.08) else b"\r\n"

    def value(self) -> bytes:
        size = self.r.choice([0, 1, 3, 8, 20, 60]) if not self.chance(0.02) else self.r.randint(1000, 9000)
        alphabet = VALUE_BYTES + (WEIRD_BYTES if self.chance(0.05) else b"")
        return bytes(self.r.choice(alphabet) for _ in range(size))

    def name(self) -> bytes:
        if self.chance(0.8):
            name = self.r.choice(NAMES)
            return name.lower() if self.chance(0.2) else name
        return bytes(self.r.choice(b"abcXYZ-_09!~" + (b" :@\x00" if self.chance(0.1) else b"")) for _ in range(5))

    def field(self) -> bytes:
        value = self.value()
        if self.chance(0.05):  # obs-fold: the value goes on, on a line that starts with blanks
            value += self.eol() + self.r.choice([b" ", b"\t", b"   ", b" \t"]) + self.value()
        blanks = self.r.choice([b"", b" ", b" ", b"  ", b"\t"])
        return self.name() + b":" + blanks + value + self.r.choice([b"", b"", b" ", b"\t "])

    def head(self, status: int, version: bytes, fields: list[bytes]) -> bytes:
        reason = self.r.choice(REASONS)
        line = b"HTTP/%s %03d" % (version, status) + (b"" if self.chance(0.05) else b" " + reason)
        return b"".join(part + self.eol() for part in [line, *fields]) + self.eol()

    def chunked(self, body: bytes) -> bytes:
        out = []
        at = 0
        while at < len(body):
            size = min(len(body) - at, self.r.choice([1, 2, 7, 100, 5000]))
            ext = b""
            if self.chance(0.15):
                ext = self.r.choice([b";a=b", b";name", b'; q="x y"', b";x\x01y", b";\r", b" ;bad", b";a;b=c"])
            hexsize = (b"%x" if self.chance(0.7) else b"%X") % size
            if self.chance(0.03):
                hexsize = b"0000" + hexsize
            blanks = self.r.choice([b" ", b"\t"]) if self.chance(0.05) else b""
            out.append(hexsize + ext + blanks + b"\r\n")
            out.append(body[at : at + size] + b"\r\n")
            at += size
        out.append(b"0" + (b";last" if self.chance(0.1) else b"") + b"\r\n")
        for _ in range(self.r.choice([0, 0, 0, 1, 2])):  # trailers, which must never act as headers
            out.append(self.r.choice([b"Retry-After", b"Content-Encoding", b"X-Checksum", b"Content-Length"]))
            out.append(b": " + self.r.choice([b"3600", b"gzip", b"abc", b"5"]) + self.eol())
        out.append(self.eol())
        return b"".join(out)

    def answer(self) -> tuple[bytes, bytes]:
        """A method and the bytes the server sends."""
        method = b"HEAD" if self.chance(0.08) else b"GET"
        status = self.r.choice(STATUSES)
        version = self.r.choice(VERSIONS)
        body = bytes(self.r.randrange(256) for _ in range(self.r.choice([0, 1, 5, 40, 300, 3000])))
        framing = self.r.choice(["length", "length", "chunked", "chunked", "close"])
        fields = [self.field() for _ in range(self.r.choice([0, 1, 3, 6, 10] if not self.chance(0.03) else [150]))]
        if framing == "length":
            fields.insert(self.r.randint(0, len(fields)), b"Content-Length: %d" % len(body))
            if self.chance(0.03):
                fields.append(
                    self.r.choice(
                        [b"Content-Length: %d" % len(body), b"Content-Length: %d, %d" % (len(body), len(body))]
                    )
                )
            payload = body
        elif framing == "chunked":
            coding = (
                b"chunked"
                if self.chance(0.9)
                else self.r.choice([b"CHUNKED", b"gzip, chunked", b"chunked, gzip", b"identity"])
            )
            fields.insert(self.r.randint(0, len(fields)), b"Transfer-Encoding: " + coding)
            payload = self.chunked(body)
        else:
            payload = body
        if self.chance(0.2):
            fields.append(b"Connection: " + self.r.choice([b"close", b"keep-alive", b"Keep-Alive, Close", b"upgrade"]))
        interim = [self.r.choice(INTERIM) + b"\r\n\r\n" for _ in range(self.r.choice([0] * 12 + [1, 2, 3]))]
        first = b"".join(interim)
        raw = (
            first + self.head(status, version, fields) + (b"" if method == b"HEAD" or status in (204, 304) else payload)
        )
        if status in (204, 304) and self.chance(0.3):
            raw += payload  # a body where none may be: bytes after the answer
        if self.chance(0.1):  # bytes after the answer: a second one, a line end, noise
            raw += self.r.choice(
                [b'HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n{"_id":"SMUGGLED"}', b"\r\n", b"\n", b"X", b"\x00"]
            )
        return method, raw

    def mutate(self, raw: bytes) -> bytes:
        data = bytearray(raw)
        for _ in range(self.r.choice([1, 1, 1, 2, 3])):
            if not data:
                break
            at = self.r.randrange(len(data))
            kind = self.r.randrange(7)
            if kind == 0:
                del data[at]
            elif kind == 1:
                data.insert(at, self.r.choice(WEIRD_BYTES + b"H0aF-"))
            elif kind == 2:
                data[at] = self.r.choice(WEIRD_BYTES + b"H0aF-")
            elif kind == 3:
                size = self.r.randint(1, 20)
                data[at:at] = data[at : at + size]
            elif kind == 4:
                del data[at:]
            elif kind == 5:  # framing headers where the head ends
                end = data.find(b"\r\n\r\n")
                if end > 0:
                    data[end:end] = self.r.choice(FRAMING_MUTATIONS)
            else:  # a chunk size changed
                found = re.search(rb"\r\n([0-9a-fA-F]+)\r\n", bytes(data))
                if found:
                    data[found.start(1) : found.end(1)] = self.r.choice(
                        [b"ffffffffffffffffffff", b"1", b"0", b"zz", b"-1"]
                    )
        return bytes(data)

    def pieces(self, raw: bytes) -> list[bytes]:
        if len(raw) < 200 and self.chance(0.1):
            return [raw[i : i + 1] for i in range(len(raw))]
        cuts = sorted({self.r.randint(0, len(raw)) for _ in range(self.r.choice([0, 1, 2, 4, 8]))})
        return [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True) if b > a]


def compare(method: bytes, pieces: list[bytes], referee: Outcome, ours: Outcome) -> str | None:
    """What differs (``None``: the connection read the answer as h11 did, or refused it on purpose)."""
    raw = b"".join(pieces)
    if isinstance(referee, Refused):
        COUNTS["refused by both" if isinstance(ours, Refused) else "h11 refused"] += 1
        if isinstance(ours, Refused) and not ours.reason.startswith("HUNG"):
            return None
        return f"h11 refused ({referee.reason}); the connection read {ours}"
    if isinstance(ours, Refused):
        entry = stricter_for(raw, referee, ours)
        if entry is not None:
            COUNTS[f"stricter: {entry.name}"] += 1
            return None
        return f"h11 read {referee}; the connection refused ({ours.reason})"
    COUNTS["read by both"] += 1
    if ours != referee:
        return f"h11 read {referee}; the connection read {ours}"
    return None


def generated(seed: int) -> list[tuple[bytes, list[bytes]]]:
    answers = Answers(random.Random(seed))
    cases = []
    for _ in range(BATCH):
        method, raw = answers.answer()
        if answers.chance(0.35):
            raw = answers.mutate(raw)
        cases.append((method, answers.pieces(raw)))
    return cases


@CHECK
@given(st.integers(0, 2**32 - 1))
def test_the_connection_reads_answers_as_h11_does(seed: int) -> None:
    async def run() -> list[str]:
        found = []
        for method, pieces in generated(seed):
            referee, eof = h11_reads(method, pieces)
            ours = await connection_reads(method, pieces, eof)
            difference = compare(method, pieces, referee, ours)
            if difference:
                found.append(f"{method!r} {pieces!r}: {difference}")
        return found

    differences = asyncio.run(run())
    assert not differences, "\n".join(differences[:10])


@pytest.fixture(scope="module", autouse=True)
def _sizes() -> Iterator[None]:
    """The corpus's sizes, printed at the end (``-s``): how many answers each side read or refused."""
    yield
    if COUNTS:
        print("\nh11 referee:", ", ".join(f"{count} {kind}" for kind, count in COUNTS.most_common()))


# -- a sample over real sockets, through httpx and the SDK's pool


async def test_the_connection_reads_answers_as_h11_does_over_a_socket() -> None:
    """The same comparison for a sample, sent by a loopback server piece by piece to httpx on the default
    transport (what TCP joins or splits on the way is its own business)."""
    answers = Answers(random.Random(37))
    cases: list[tuple[bytes, list[bytes], bool]] = []
    for _ in range(SOCKET_ANSWERS):
        method, raw = answers.answer()
        if answers.chance(0.35):
            raw = answers.mutate(raw)
        pieces = answers.pieces(raw)[:6]
        cases.append((method, pieces, False))
    script: asyncio.Queue[tuple[list[bytes], bool]] = asyncio.Queue()
    served = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            pieces, eof = script.get_nowait()
            for piece in pieces:
                writer.write(piece)
                await writer.drain()
                await asyncio.sleep(0.0005)
            if not eof:
                await reader.read()  # until the client is done with the connection
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            served.set()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    differences = []
    try:
        for method, pieces, _ in cases:
            referee, eof = h11_reads(method, pieces)
            script.put_nowait((pieces, eof))
            served.clear()
            async with PooledTransport(verify=SSL_CONTEXT) as transport:
                ours = await _httpx_reads(transport, method.decode(), f"http://127.0.0.1:{port}/")
            await asyncio.wait_for(served.wait(), 5)
            difference = compare(method, pieces, referee, ours)
            if difference:
                differences.append(f"{method!r} {pieces!r}: {difference}")
    finally:
        server.close()
    assert not differences, "\n".join(differences[:10])


async def _httpx_reads(transport: PooledTransport, method: str, url: str) -> Outcome:
    """What httpx's transport hands the client (below its redirects and decoding): the raw answer."""
    try:
        response = await transport.handle_async_request(httpx.Request(method, url))
        assert isinstance(response.stream, AsyncIterable)
        body = b"".join([piece async for piece in response.stream])
        await response.aclose()
    except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
        return Refused(str(exc))
    connections = transport._pool.connections
    return Read(
        response.status_code,
        response.extensions["reason_phrase"],
        response.extensions["http_version"],
        tuple(response.headers.raw),
        body,
        len(connections) == 1 and connections[0].is_available(),
    )
