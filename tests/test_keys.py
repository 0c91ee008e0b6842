"""Keys are the one strict read: a keyed document whose key is not a non-empty string is InvalidResponse,
naming the field and the value's type, in single reads and in every item of a list page."""

from __future__ import annotations

from typing import Any

import pytest
import respx

from printmgmt import InvalidResponse, PrintClient

BAD_KEYS = [
    pytest.param(None, "missing or null", id="null"),
    pytest.param(123, "not int", id="int"),
    pytest.param(["j1"], "not list", id="list"),
    pytest.param({"$oid": "5f1d7f"}, "not dict", id="oid"),
    pytest.param("", "empty string", id="empty"),
]


@pytest.mark.parametrize(("key", "said"), BAD_KEYS)
async def test_a_job_with_a_bad_key_is_invalid_response(
    mock: respx.MockRouter, client: PrintClient, key: Any, said: str
) -> None:
    mock.get("/v3/jobs/j1").respond(200, json={"_id": key, "status": "Error"})
    with pytest.raises(InvalidResponse, match=f"'_id'.*{said}"):
        await client.jobs.get("j1")


async def test_a_job_without_a_key_is_invalid_response(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/jobs/j1").respond(200, json={"status": "Error"})
    with pytest.raises(InvalidResponse, match="'_id' is missing"):
        await client.jobs.get("j1")


@pytest.mark.parametrize(("key", "said"), BAD_KEYS)
@pytest.mark.parametrize("shape", ["collection", "array"])
async def test_one_bad_key_in_a_page_is_invalid_response(
    mock: respx.MockRouter, client: PrintClient, key: Any, said: str, shape: str
) -> None:
    items = [{"_id": "j1"}, {"_id": key}]
    body: Any = {"results": items, "totalCount": 2} if shape == "collection" else items
    mock.get("/v3/jobs/").respond(200, json=body)
    with pytest.raises(InvalidResponse, match=f"'_id'.*{said}"):
        await client.jobs.list()


@pytest.mark.parametrize(("key", "said"), BAD_KEYS)
async def test_printers_and_flows_check_their_keys_too(
    mock: respx.MockRouter, client: PrintClient, key: Any, said: str
) -> None:
    mock.get("/v3/printers/p1").respond(200, json={"_id": key})
    with pytest.raises(InvalidResponse, match=f"'_id'.*{said}"):
        await client.printers.get("p1")
    mock.get("/v3/flows/f1").respond(200, json={"name": key})
    with pytest.raises(InvalidResponse, match=f"'name'.*{said}"):
        await client.flows.get("f1")


async def test_other_fields_stay_lenient(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/jobs/j1").respond(200, json={"_id": "j1", "refId": None, "x-extra": [1, 2]})
    job = await client.jobs.get("j1")
    assert job.id == "j1"
    assert job["x-extra"] == [1, 2]
