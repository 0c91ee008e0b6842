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


async def test_a_flow_without_name_is_keyed_by_its_id(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/flows/").respond(200, json=[{"_id": "main", "type": "custom"}, {"name": "other", "_id": "x"}])
    flows = await client.flows.list()
    assert [flow.name for flow in flows] == ["main", "other"]  # name wins where both are sent
    assert flows[0]["_id"] == "main"  # the wire value stays
    mock.get("/v3/flows/main").respond(200, json={"_id": "main", "name": None})
    assert (await client.flows.get("main")).name == "main"


@pytest.mark.parametrize("shape", ["collection", "array"])
async def test_jobs_and_printers_without_id_are_keyed_by_id(
    mock: respx.MockRouter, client: PrintClient, shape: str
) -> None:
    items = [{"id": "j1", "status": "Error"}, {"_id": "j2", "id": "other"}]
    mock.get("/v3/jobs/").respond(200, json={"results": items, "totalCount": 2} if shape == "collection" else items)
    page = await client.jobs.list()
    assert [job.id for job in page] == ["j1", "j2"]
    assert page[0].status == "Error"
    assert page[0].to_dict()["id"] == "j1"
    mock.get("/v3/printers/p1").respond(200, json={"id": "p1"})
    assert (await client.printers.get("p1")).id == "p1"


async def test_a_key_missing_under_both_names_is_invalid_response(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/flows/").respond(200, json=[{"type": "custom"}])
    with pytest.raises(InvalidResponse, match=r"'name' is missing or null \(and so is '_id'\)"):
        await client.flows.list()
    mock.get("/v3/jobs/").respond(200, json=[{"status": "Error", "id": 7}])
    with pytest.raises(InvalidResponse, match=r"'_id' must be a non-empty string, not int"):
        await client.jobs.list()
