"""Bodies decode the same with or without the orjson extra."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
import respx

from printmgmt import InvalidResponse, PasswordAuth, PrintClient
from printmgmt._json import _orjson  # type: ignore[attr-defined]  # the private parser, checked on purpose
from printmgmt._json import loads as _loads
from printmgmt.errors import AuthenticationError, PreconditionFailed, ServerError


@pytest.mark.parametrize(
    "body",
    [
        b'{"_id": "j1", "status": "Error"}',
        b'{"n": 9223372036854775807, "m": -9223372036854775808, "f": 0.1, "e": 1e300}',
        b'{"x": NaN, "y": Infinity}',  # the standard library's extension, refused by orjson
        '{"name": "Grüße"}'.encode("utf-16"),  # a BOM-marked UTF-16 body
        b'{"padded": true}' + b" " * 10_000,
    ],
)
def test_decoding_matches_the_standard_library(body: bytes) -> None:
    expected = json.loads(body)
    decoded = _loads(body)
    assert json.dumps(decoded, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_orjson_is_what_the_dev_install_uses() -> None:
    assert _orjson is not None  # printmgmt[fast] is part of the dev extra, so the fast path is the one tested


async def test_a_broken_body_is_still_invalid_response(mock: respx.MockRouter, client: PrintClient) -> None:
    cut = b'{"_id": "j1", "status": '
    mock.get("/v3/jobs/j1").respond(200, content=cut, headers={"Content-Type": "application/json"})
    with pytest.raises(InvalidResponse, match="not valid JSON"):
        await client.jobs.get("j1")


# -- hostile nesting: any body, any status, a typed error -------------------------------------------

DEEP = b"[" * 100_000 + b"]" * 100_000


def test_deep_nesting_is_a_decode_error_not_a_recursion_error() -> None:
    with pytest.raises(json.JSONDecodeError, match="nested too deeply"):
        _loads(DEEP)
    with pytest.raises(json.JSONDecodeError):
        _loads(DEEP.decode())


async def _serve_deep(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answers every request with the deeply nested body, with the status the path names (``/status/412``)."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")),
        0,
    )
    await reader.readexactly(length)
    path = head.split(b" ", 2)[1].decode()
    status = int(path.split("/status/", 1)[1].split("/", 1)[0]) if "/status/" in path else 200
    writer.write(
        f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {len(DEEP)}\r\n"
        "Connection: close\r\n\r\n".encode()
        + DEEP
    )
    await writer.drain()
    writer.close()


@pytest.fixture
async def deep_server() -> AsyncIterator[str]:
    server = await asyncio.start_server(_serve_deep, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}"


async def test_deep_nesting_over_loopback_is_typed_for_every_kind_of_body(deep_server: str) -> None:
    async with PrintClient(deep_server, auth="t", retries=0) as client:
        with pytest.raises(InvalidResponse, match="not valid JSON"):
            await client.jobs.get("j1")  # a 2xx body
    async with PrintClient(f"{deep_server}/status/412", auth="t", retries=0) as client:
        with pytest.raises(PreconditionFailed):
            await client.jobs.pause("j1")  # an error body
    async with PrintClient(f"{deep_server}/status/500", auth="t", retries=0) as client:
        with pytest.raises(ServerError):
            await client.jobs.get("j1")
    auth = PasswordAuth(token_url=f"{deep_server}/token", username="u", password="p", client_secret="s")
    async with PrintClient(deep_server, auth=auth, retries=0) as client:
        with pytest.raises(AuthenticationError, match="without an access_token"):
            await client.jobs.get("j1")  # a 200 token response
    auth = PasswordAuth(token_url=f"{deep_server}/status/401", username="u", password="p", client_secret="s")
    async with PrintClient(deep_server, auth=auth, retries=0) as client:
        with pytest.raises(AuthenticationError, match="refused: 401"):
            await client.jobs.get("j1")  # a refusal's body


@pytest.mark.parametrize("status", [200, 412, 500])
async def test_deep_nesting_in_an_action_answer_is_typed(
    mock: respx.MockRouter, client: PrintClient, status: int
) -> None:
    mock.put("/v3/jobs/j1/pause").respond(status, content=DEEP, headers={"Content-Type": "application/json"})
    if status == 200:
        result = await client.jobs.pause("j1")  # the action happened: the unreadable body is its message
        assert result.message is not None
    else:
        with pytest.raises(PreconditionFailed if status == 412 else ServerError):
            await client.jobs.pause("j1")
