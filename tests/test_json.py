"""Bodies decode the same with or without the orjson extra."""

from __future__ import annotations

import json

import pytest
import respx

from printmgmt import InvalidResponse, PrintClient
from printmgmt._invoke import _loads, _orjson


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


def test_integers_beyond_64_bits_become_floats_with_orjson() -> None:
    # orjson's documented rule, kept rather than paying a scan of every body for long digit runs
    assert _loads(b"[123456789012345678901234567890]") == [1.2345678901234568e29]
