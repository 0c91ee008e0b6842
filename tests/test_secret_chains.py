"""No secret in an exception, its repr, its chain or its traceback, when a server breaks
HTTP: the bearer token travels in request headers, which some HTTP stacks keep on their exceptions."""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import AsyncIterator, Callable

import pytest

from printmgmt import PrintClient
from printmgmt.errors import PrintMgmtError

TOKEN = "s3cr3t-BEARER-tok3n-z8"

BREAKAGES: dict[str, bytes] = {
    "bad-status-line": b"HTTP/1.1 abc Broken\r\n\r\n",
    "garbage": b"\x00\x01 this is not http\r\n\r\n",
    "bad-header": b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
    "cut-body": b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"_id":',
}


def every_text(exc: BaseException) -> list[str]:
    """str, repr, args, attributes (and their reprs) of ``exc`` and of every exception reachable from it
    through ``__cause__`` and ``__context__``, and the formatted traceback."""
    texts = ["".join(traceback.format_exception(exc))]
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        texts += [str(current), repr(current), repr(current.args)]
        texts += [repr(value) for value in vars(current).values()]
        texts += [repr(getattr(current, name, None)) for name in ("request_info", "request", "headers")]
        pending += [e for e in (current.__cause__, current.__context__) if e is not None]
    return texts


@pytest.fixture
async def breaking_server() -> AsyncIterator[Callable[[str], str]]:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        kind = head.split(b" ", 2)[1].decode().strip("/").split("/", 1)[0]
        writer.write(BREAKAGES[kind])
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield lambda kind: f"http://127.0.0.1:{port}/{kind}"


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
async def test_no_token_in_any_exception_chain(breaking_server: Callable[[str], str], breakage: str) -> None:
    async with PrintClient(breaking_server(breakage), auth=TOKEN, retries=0) as client:
        with pytest.raises(PrintMgmtError) as caught:
            await client.version_info()
    leaked = [text for text in every_text(caught.value) if TOKEN in text]
    assert not leaked, leaked[0][:500]
