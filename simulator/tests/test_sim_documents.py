"""The twin's documents follow the spec: every declared field in seeded jobs and printers, each drawn from its
own stream, the job statuses of the spec's enum, and a column catalogue of the spec's fields."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from printmgmt_sim.draws import Draws
from printmgmt_sim.model import JOB_STATUSES, SERVICE_OF
from printmgmt_sim.schemas import properties, resolve

from printmgmt.models import JobStatus
from printmgmt_api.schemas import SCHEMAS

pytestmark = pytest.mark.print_server(jobs=120)


def declared_paths(schema: str | dict[str, Any], prefix: str = "") -> Iterator[str]:
    """Every field path of ``schema`` the twin fills: nested objects' fields, not those it leaves to actions."""
    for name, field in properties(schema).items():
        spec = resolve(field)
        if spec.get("x-printmgmt-sample") == []:
            continue
        yield prefix + name
        if spec.get("type") == "object":
            yield from declared_paths(spec, f"{prefix}{name}/")


def has(doc: dict[str, Any], path: str) -> bool:
    for part in path.split("/"):
        if not isinstance(doc, dict) or part not in doc:
            return False
        doc = doc[part]
    return True


@pytest.mark.parametrize(("collection", "schema"), [("jobs", "Job"), ("printers", "Printer")])
def test_seeded_documents_carry_every_declared_field(http: httpx.Client, collection: str, schema: str) -> None:
    docs = http.get(f"/v3/{collection}/", params={"$top": 1000}).json()
    paths = list(declared_paths(schema))
    assert len(docs) > 30 and "_id" in paths
    missing = sorted({path for doc in docs for path in paths if not has(doc, path)})
    assert not missing, f"seeded {collection} lack {missing}"


def test_a_field_draws_the_same_values_whatever_is_drawn_before() -> None:
    alone = Draws(7, "job", 3)("current/copies").randint(1, 9)
    draws = Draws(7, "job", 3)
    for field in ("current/userName", "refId", "current/priority"):
        draws(field).getrandbits(64)
    assert draws("current/copies").randint(1, 9) == alone
    sequence = draws("x")
    assert [sequence.random() for _ in range(3)] != [draws("x").random()] * 3  # a stream goes on, not repeats
    assert Draws(7, "job", 4)("refId").getrandbits(64) != Draws(7, "job", 3)("refId").getrandbits(64)


def test_the_job_statuses_are_the_spec_enum_in_its_order() -> None:
    assert [str(status) for status in JOB_STATUSES] == SCHEMAS["JobStatus"]["enum"]
    assert set(SERVICE_OF) == set(JobStatus)


@pytest.mark.parametrize(("resource", "schema"), [("jobs", "Job"), ("printers", "Printer")])
def test_the_column_catalogue_is_the_spec_fields(http: httpx.Client, resource: str, schema: str) -> None:
    columns = {field["name"]: field["type"] for field in http.get(f"/v3/{resource}/metadata").json()["fields"]}
    scalar = set()
    for name, field in properties(schema).items():
        spec = resolve(field)
        if spec.get("type") == "object":
            scalar |= {f"{name}/{inner}" for inner in properties(spec)} if name != "lcCurrent" else set()
        elif spec.get("type") != "array":
            scalar.add(name)
    assert set(columns) == scalar
    assert columns["_id"] == "string"
    if resource == "jobs":
        assert columns["current/checkinTime"] == "epoch-ms" and columns["current/copies"] == "integer"
