"""Every field but a key is read leniently: a null or a value of another type leaves the field unset (never a
failed document or page) and the wire value stays in the model's dict form. Derived from openapi.yaml: every
optional property of every schema, every kind of wrong value."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import respx
import yaml
from openapi_python_client.strings import PythonIdentifier

import printmgmt_api.models as models
from printmgmt import PrintClient
from printmgmt_api.types import UNSET

SPEC = yaml.safe_load((Path(__file__).parent.parent / "openapi.yaml").read_text())
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]

#: One value of each JSON kind.
WIRE_VALUES: list[Any] = [None, 0, 1.5, True, "x", [], [1], ["a"], {}, {"a": 1}]


def _fits(schema: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` is a valid instance of the (flat) property ``schema``."""
    if "$ref" in schema:
        target = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
        if "enum" in target:
            return isinstance(value, str)  # open enums keep unknown strings
        return isinstance(value, dict)
    kind = schema.get("type")
    if kind == "string":
        return isinstance(value, str) and schema.get("format") != "date-time"
    if kind == "integer":
        return type(value) is int
    if kind == "number":
        return type(value) in (int, float)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        items = schema.get("items", {})
        return isinstance(value, list) and all(_fits(items, item) for item in value)
    if kind == "object":
        return isinstance(value, dict)
    return True


def _base(schema: dict[str, Any]) -> dict[str, Any]:
    """The smallest valid document of ``schema``: its required properties."""
    doc: dict[str, Any] = {}
    for name in schema.get("required", []):
        prop = schema["properties"][name]
        doc[name] = [] if prop.get("type") == "array" else "k1"
    return doc


CASES = [
    pytest.param(schema_name, prop_name, value, id=f"{schema_name}.{prop_name}={value!r}")
    for schema_name, schema in SCHEMAS.items()
    if schema.get("type") == "object" and hasattr(models, schema_name)
    for prop_name, prop in schema.get("properties", {}).items()
    if prop_name not in schema.get("required", [])
    for value in WIRE_VALUES
    if not _fits(prop, value)
]


def test_the_cases_cover_every_schema_with_optional_fields() -> None:
    covered = {case.values[0] for case in CASES}
    expected = {
        name
        for name, schema in SCHEMAS.items()
        if hasattr(models, name) and set(schema.get("properties", {})) - set(schema.get("required", []))
    }
    assert covered == expected
    assert len(CASES) > 300


@pytest.mark.parametrize(("schema_name", "prop_name", "value"), CASES)
def test_a_value_of_another_type_reads_as_unset_and_is_kept(schema_name: str, prop_name: str, value: Any) -> None:
    cls = getattr(models, schema_name)
    doc = {**_base(SCHEMAS[schema_name]), prop_name: value, "extra": 1}
    model = cls.from_dict(doc)
    attribute = PythonIdentifier(prop_name, prefix="")  # the generator's own naming
    assert getattr(model, attribute) is UNSET
    assert model.to_dict() == doc
    assert model[prop_name] == value  # the raw value stays reachable


def test_values_of_the_right_type_are_typed() -> None:
    job = models.Job.from_dict(
        {
            "_id": "j1",
            "status": "job-processed",
            "refId": "r",
            "fileName": ["u1"],
            "current": {"printerName": "p1", "copies": 2, "checkinTime": 1608280547459},
            "stages": [{"createdAt": 1608280547460, "context": {"type": "lpr"}}],
        }
    )
    assert job.status == models.JobStatus.PROCESSED
    assert job.to_dict()["status"] == "job-processed"
    assert isinstance(job.current, models.JobAttributes)
    assert job.current.copies == 2
    assert job.current.printer_name == "p1"
    assert isinstance(job.stages, list)
    assert job.stages[0].context is not UNSET


def test_one_odd_field_deep_in_a_document_spoils_nothing_else() -> None:
    doc = {
        "_id": "j1",
        "status": None,
        "current": {"printerName": None, "copies": "2", "jobName": "Invoice"},
        "stages": [None, {"createdAt": 1}],
        "TRAY_1": "upper",
        "PAGESIZE": ["595 842", "842 595"],
        "pagesFromFileContent": 3,
    }
    job = models.Job.from_dict(doc)
    assert job.to_dict() == doc
    assert job.status is UNSET
    assert isinstance(job.current, models.JobAttributes)
    assert job.current.job_name == "Invoice"
    assert job.current.printer_name is UNSET and job.current.copies is UNSET
    assert job.stages is UNSET and job["stages"] == [None, {"createdAt": 1}]
    assert job["TRAY_1"] == "upper" and job["PAGESIZE"] == ["595 842", "842 595"]


async def test_nulls_in_a_page_fail_neither_the_page_nor_iterate(mock: respx.MockRouter, client: PrintClient) -> None:
    items = [{"_id": f"j{n}", "status": None, "orig": None, "current": {"copies": None}} for n in range(3)]
    mock.get("/v3/jobs/").respond(200, json={"results": items, "totalCount": 3})
    page = await client.jobs.list()
    assert [job.id for job in page] == ["j0", "j1", "j2"]
    assert [job.to_dict() for job in page] == items
    assert [job.id async for job in client.jobs.iterate()] == ["j0", "j1", "j2"]


def test_epoch_ms_accessors_of_an_odd_field_read_none() -> None:
    attributes = models.JobAttributes.from_dict({"checkinTime": "yesterday", "arrivedTime": 1608280547459})
    assert attributes.checkin_time is UNSET
    assert attributes["checkinTime"] == "yesterday"
    assert attributes.arrived_time == 1608280547459
    assert dt.datetime.fromtimestamp(attributes.arrived_time / 1000, dt.UTC).year == 2020
