"""Header names and values are checked as h11 checks them, where a caller's headers enter (the client's
``headers=``, a call's ``extra_headers=``, a bearer token), before anything is sent, on every transport."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import h11
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from raw_http import RawServer, raw_server, version_info

from printmgmt import PrintClient
from printmgmt._headers import check_header
from printmgmt.auth import BearerToken
from printmgmt.errors import InvalidHeader
from printmgmt.sync import PrintClient as SyncPrintClient

#: Generated examples per property; PRINTMGMT_HEADER_EXAMPLES=100000 runs more.
EXAMPLES = int(os.environ.get("PRINTMGMT_HEADER_EXAMPLES", "2000"))
CHECK = settings(max_examples=EXAMPLES, deadline=None)

#: h11 also checks what these headers mean (one Host, framing); the SDK's check is of the syntax alone, and
#: httpx writes these headers itself.
_H11_SEMANTICS = {b"host", b"content-length", b"transfer-encoding"}

# every class of character the rules tell apart: a name's characters, separators, blanks, line breaks, NUL,
# other controls, DEL, bytes from 0x80; drawn often enough to meet each other at the ends and in the middle
_TCHARS = "-!#$%&'*+.^_`|~09azAZ"
_INTERESTING = _TCHARS + ' \t\r\n\x00\x0b\x0c\x01\x1f\x7f:;,"()/<=>?@[\\]{}'
# the interesting characters weigh as much as the other 256 together
_POOL = [*_INTERESTING * 8, *map(chr, range(256)), "€"]
_texts = st.lists(st.sampled_from(_POOL), max_size=8).map("".join)
_bytes = st.lists(st.sampled_from(_POOL), max_size=8).map(lambda chars: "".join(chars).encode("latin-1", "replace"))


def h11_accepts(name: str | bytes, value: str | bytes) -> bool:
    """Whether h11 (httpx's sync transport, httpcore's HTTP/1.1) would send ``name: value``."""
    try:
        headers: list[tuple[Any, Any]] = [("Host", "x"), (name, value)]
        h11.Request(method="GET", target="/", headers=headers)
    except (h11.LocalProtocolError, UnicodeEncodeError):  # h11 encodes a str in ASCII
        return False
    return True


def sdk_accepts(name: str | bytes, value: str | bytes) -> bool:
    try:
        check_header(name, value, "headers=")
    except InvalidHeader:
        return False
    return True


def _comparable(name: str | bytes) -> bool:
    raw = name if isinstance(name, bytes) else name.encode("latin-1", "replace")
    return raw.lower() not in _H11_SEMANTICS


@CHECK
@given(name=_texts, value=_texts)
def test_str_headers_are_refused_where_h11_refuses_them(name: str, value: str) -> None:
    if _comparable(name):
        assert sdk_accepts(name, value) == h11_accepts(name, value)


@CHECK
@given(name=_bytes, value=_bytes)
def test_bytes_headers_are_refused_where_h11_refuses_them(name: bytes, value: bytes) -> None:
    if _comparable(name):
        assert sdk_accepts(name, value) == h11_accepts(name, value)


@CHECK
@given(value=_bytes)
def test_values_alone_as_h11_reads_them(value: bytes) -> None:
    # a valid name, so that every example tells something about values
    assert sdk_accepts(b"X-Value", value) == h11_accepts(b"X-Value", value)


BAD = [
    pytest.param({"X-A: b": "1"}, "header name 'X-A…' holds ':' at position 3", id="colon"),
    pytest.param({"X A": "1"}, "header name 'X…' holds ' ' at position 1", id="space"),
    pytest.param({"": "1"}, "a header name is empty", id="empty"),
    pytest.param({"X-(A)": "1"}, "header name 'X-…' holds '\\(' at position 2", id="separator"),
    pytest.param({"X-Key": "s3cret\r\nX-Injected: 1"}, "value of header 'X-Key' holds a carriage return", id="crlf"),
    pytest.param({"X-Key": "s3cret\x00"}, "value of header 'X-Key' holds a NUL at position 6", id="nul"),
    pytest.param({"X-Key": "s3cret "}, "value of header 'X-Key' ends with a blank", id="blank"),
]


@pytest.fixture
def server() -> Iterator[RawServer]:
    with raw_server({"/v3/": version_info}) as started:
        yield started


@pytest.mark.parametrize(("headers", "reason"), BAD)
async def test_a_bad_header_is_refused_before_anything_is_sent(
    server: RawServer, headers: dict[str, str], reason: str
) -> None:
    with pytest.raises(InvalidHeader, match=reason) as refused:
        PrintClient(server.url, auth="t", headers=headers)
    assert refused.value.where == "headers="
    # the name is kept up to its first bad character only: what follows may be a credential
    assert refused.value.name == re.sub(r"[^-!#$%&'*+.^_`|~0-9A-Za-z].*", "", next(iter(headers)), flags=re.S)
    async with PrintClient(server.url, auth="t", retries=0) as client:
        with pytest.raises(InvalidHeader, match=reason) as refused:
            await client.version_info(extra_headers=headers)
        assert (await client.version_info()).additional_properties == {"api": "v3"}  # the client goes on
    assert refused.value.where == "extra_headers="
    assert "s3cret" not in str(refused.value) and "Injected" not in str(refused.value)
    assert server.seen == {"/v3/": 1}  # only the good call reached the server


@pytest.mark.parametrize(("headers", "reason"), BAD)
def test_the_sync_client_refuses_them_too(server: RawServer, headers: dict[str, str], reason: str) -> None:
    with pytest.raises(InvalidHeader, match=reason):
        SyncPrintClient(server.url, auth="t", headers=headers)
    with SyncPrintClient(server.url, auth="t", retries=0) as client, pytest.raises(InvalidHeader, match=reason):
        client.version_info(extra_headers=headers)
    assert server.seen == {}


def test_a_token_that_cannot_be_a_header_is_refused_without_showing_it() -> None:
    with pytest.raises(InvalidHeader, match="value of header 'Authorization' holds a line feed") as refused:
        BearerToken("s3cret\nX-Injected: 1")
    assert "s3cret" not in str(refused.value)
    with pytest.raises(InvalidHeader):
        PrintClient("http://127.0.0.1:1", auth="s3cret ")


def test_good_headers_pass_as_given() -> None:
    client = SyncPrintClient("http://127.0.0.1:1", headers={"X-Trace": "a b\tc", "X-Raw": "\x01é".encode("latin-1")})  # type: ignore[dict-item]
    assert client.http.headers["X-Trace"] == "a b\tc"


def test_a_header_of_another_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="the value of header 'X-N' must be a str or bytes, not int"):
        SyncPrintClient("http://127.0.0.1:1", headers={"X-N": 3})  # type: ignore[dict-item]
