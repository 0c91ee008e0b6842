"""Error messages a user can act on: every ApiError names the operation, its target and the URL path;
token errors name the token URL; common misconfigurations get a hint."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import respx
from facade_table import FACADE, facade_method

from printmgmt import PasswordAuth, PrintClient
from printmgmt.errors import ApiError, AuthenticationError, BadRequest, NotFound
from printmgmt_api.operations import OPERATIONS

BASE = "https://print.test:8080"
TOKEN_URL = "https://idp.test/realms/SEAL/protocol/openid-connect/token"


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_mocked=True, assert_all_called=False) as mock:
        yield mock


@pytest.mark.parametrize("operation_id", sorted(FACADE))
async def test_every_api_error_names_operation_target_and_path(router: respx.MockRouter, operation_id: str) -> None:
    dotted, args, kwargs = FACADE[operation_id]
    spec = OPERATIONS[operation_id]
    router.route().respond(404, json={"code": "404", "message": "not here"})
    async with PrintClient(BASE, auth="t", retries=0) as client:
        with pytest.raises(ApiError) as failed:
            await facade_method(client, dotted)(*args, **kwargs)
    text = str(failed.value)
    assert text.startswith(spec.name), text
    path = failed.value.url.removeprefix(BASE).split("?")[0]
    assert f"({spec.method.upper()} {path})" in text, text
    if spec.target:
        assert failed.value.target and failed.value.target in text, text


async def test_a_base_url_ending_in_v3_says_so(router: respx.MockRouter) -> None:
    router.get(f"{BASE}/v3/v3/jobs/j1").respond(404, text="Cannot GET /v3/v3/jobs/j1")
    async with PrintClient(f"{BASE}/v3", auth="t") as client:
        with pytest.raises(NotFound) as failed:
            await client.jobs.get("j1")
    assert "(GET /v3/v3/jobs/j1)" in str(failed.value)
    assert "base URL ends in /v3" in str(failed.value)


async def test_a_400_on_a_filtered_list_hints_at_the_odata_syntax(router: respx.MockRouter) -> None:
    router.get(f"{BASE}/v3/jobs/").respond(400, json={"code": "400", "message": "Invalid $filter"})
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(BadRequest) as failed:
            await client.jobs.list(filter="status = 'Error'", check_query="off")
        assert "check the OData syntax of $filter" in str(failed.value)
        router.get(f"{BASE}/v3/jobs/j1").respond(400, json={"message": "bad"})
        with pytest.raises(BadRequest) as plain:
            await client.jobs.get("j1")
        assert "OData" not in str(plain.value)  # no hint where no query option was sent


def auth() -> PasswordAuth:
    return PasswordAuth(token_url=TOKEN_URL, username="u", password="pw-x1", client_secret="cs-x2")


async def test_token_errors_name_the_token_url(router: respx.MockRouter) -> None:
    router.post(TOKEN_URL).respond(401, json={"error": "invalid_grant", "error_description": "bad password"})
    async with PrintClient(BASE, auth=auth(), retries=0) as client:
        with pytest.raises(AuthenticationError) as refused:
            await client.jobs.get("j1")
    assert f"(POST {TOKEN_URL})" in str(refused.value)
    assert "invalid_grant: bad password" in str(refused.value)


@pytest.mark.parametrize("status", [200, 404])
async def test_an_html_answer_from_the_identity_provider_says_so(router: respx.MockRouter, status: int) -> None:
    page = "<!DOCTYPE html><html><body><h1>Welcome to nginx!</h1></body></html>"
    router.post(TOKEN_URL).respond(status, html=page)
    async with PrintClient(BASE, auth=auth(), retries=0) as client:
        with pytest.raises(AuthenticationError) as failed:
            await client.jobs.get("j1")
    text = str(failed.value)
    assert TOKEN_URL in text
    assert "an HTML page, not the identity provider's JSON" in text
    assert "<html" not in text and re.search(r"\b(200|404)\b", text)
