"""The SDK joins its base URL and an operation's path itself (parsed once) exactly as httpx would join them."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from printmgmt._call import absolute_url

BASES = ["https://print.test:8080", "http://127.0.0.1:9", "https://print.test/seal/", "https://print.test/a/b"]
text = st.text(st.characters(codec="utf-8"), max_size=12)
#: As the generated request builders write a path parameter, or as a literal path may carry it.
segments = text.map(lambda value: quote(value, safe="")) | text


@given(base=st.sampled_from(BASES), parts=st.lists(segments, max_size=4))
@example(base=BASES[0], parts=["#"])
@example(base=BASES[2], parts=["", "0"])
def test_the_join_is_httpx_own(base: str, parts: list[str]) -> None:
    client = httpx.Client(base_url=base)
    path = "/" + "/".join(parts)
    try:
        expected = client.build_request("GET", path).url
    except httpx.InvalidURL:
        with pytest.raises(httpx.InvalidURL):
            client.build_request("GET", absolute_url(client.base_url, path))
        return
    joined = absolute_url(client.base_url, path)
    assert client.build_request("GET", joined).url == expected
    if not path.startswith("//") and "#" not in path:
        assert isinstance(joined, httpx.URL)  # parsed here, once


def test_absolute_urls_and_bases_with_a_query_are_left_to_httpx() -> None:
    client = httpx.Client(base_url="https://print.test/?tenant=a")
    assert absolute_url(client.base_url, "/v3/jobs/") == "/v3/jobs/"
    assert absolute_url(httpx.URL("https://print.test"), "https://other.test/x") == "https://other.test/x"
