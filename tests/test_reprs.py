"""Short reprs of the generated models (templates/model.py.jinja): no UNSET, no empty additional_properties,
enums as their value, unknown fields last as one ``**{...}``, long strings, lists and mappings cut; attrs
behaviour (slots, eq, to_dict/from_dict) unchanged."""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest
from IPython.lib.pretty import pretty

import printmgmt_api.models as generated_models
from printmgmt.models import Flow, Job, JobAttributes, JobStage, LogEntry, Printer, Statistics, UserRoles


def object_schemas(spec: dict[str, Any]) -> list[str]:
    return [name for name, schema in spec["components"]["schemas"].items() if schema.get("type") == "object"]


def minimal(schema: dict[str, Any]) -> dict[str, Any]:
    """The required fields only, each with a value of its type."""
    values = {"string": "x", "array": [], "integer": 1, "boolean": True, "object": {}}
    properties = schema.get("properties", {})
    return {name: values[properties[name].get("type", "object")] for name in schema.get("required", [])}


def assert_clean(text: str) -> None:
    assert "UNSET" not in text
    assert "Unset" not in text
    assert "additional_properties" not in text


def test_every_model_has_a_short_repr(spec: dict[str, Any]) -> None:
    names = object_schemas(spec)
    assert len(names) > 20
    for name in names:
        schema = spec["components"]["schemas"][name]
        cls = getattr(generated_models, name)
        bare = cls.from_dict(minimal(schema))
        assert_clean(repr(bare))
        assert repr(bare).startswith(f"{name}(")
        if "example" in schema:
            full = cls.from_dict(schema["example"])
            assert_clean(repr(full))
            assert_clean(pretty(full))


def test_unset_fields_are_left_out() -> None:
    assert repr(Job(id="job-1")) == "Job(id='job-1')"
    assert repr(JobAttributes()) == "JobAttributes()"
    assert repr(Job.from_dict({"_id": "job-1", "status": "Processing"})) == "Job(id='job-1', status='Processing')"


def test_enums_show_their_value_known_or_not() -> None:
    assert repr(Job.from_dict({"_id": "j", "status": "error"})) == "Job(id='j', status='Error')"
    assert repr(Job.from_dict({"_id": "j", "status": "Archived"})) == "Job(id='j', status='Archived')"


def test_unknown_fields_come_last_as_one_mapping() -> None:
    job = Job.from_dict({"priority": 5, "_id": "j", "status": "Paused", "tags": {"a": 1}})
    assert pretty(job) == "Job(id='j', status='Paused', **{'priority': 5, 'tags': {'a': 1}})"
    assert repr(job) == "Job(id='j', status='Paused', …)"  # a job's short form: the rest is a click away
    roles = UserRoles.from_dict({"user": "seal-admin", "roles": ["admin"], "client": "seal-plossyscli"})
    assert repr(roles) == "UserRoles(user='seal-admin', roles=['admin'], **{'client': 'seal-plossyscli'})"
    assert repr(Statistics.from_dict({"total": 3})) == "Statistics(**{'total': 3})"


def test_nested_models_are_short_too() -> None:
    job = Job.from_dict(
        {"_id": "j", "current": {"printerName": "p1", "checkinTime": 1736150400000, "pagesFromFileContent": 3}}
    )
    assert repr(job) == "Job(id='j', printer_name='p1', checkin_time=2025-01-06 08:00:00Z, …)"
    assert (
        repr(job.current)
        == "JobAttributes(printer_name='p1', checkin_time=1736150400000, **{'pagesFromFileContent': 3})"
    )
    printer = Printer.from_dict({"_id": "p1", "runtime": {"status": "idle"}, "physical": {}})
    assert repr(printer) == "Printer(id='p1', status='idle', …)"
    assert repr(printer.runtime) == "PrinterRuntime(status='idle')"


def test_lists_of_models_are_counted() -> None:
    stage = {"fileName": "f", "mimeType": "application/pdf", "createdBy": "checkin", "createdAt": 1}
    job = Job.from_dict({"_id": "j", "stages": [stage] * 7})
    assert pretty(job) == "Job(id='j', stages=[<7 JobStage>])"
    assert pretty(Job.from_dict({"_id": "j", "stages": []})) == "Job(id='j', stages=[])"
    assert job.stages
    # the items themselves are short when shown on their own
    assert (
        repr(job.stages[0])
        == "JobStage(file_name='f', mime_type='application/pdf', created_by='checkin', created_at=1)"
    )
    assert isinstance(job.stages[0], JobStage)


def test_long_values_are_cut() -> None:
    files = [f"f{n}" for n in range(10)]
    assert (
        pretty(Job.from_dict({"_id": "j", "fileName": files}))
        == "Job(id='j', file_name=['f0', 'f1', 'f2', 'f3', … +6])"
    )
    entry = LogEntry(message="x" * 500)
    assert repr(entry) == f"LogEntry(message='{'x' * 59}…')"
    stats = Statistics.from_dict({f"k{n}": n for n in range(6)} | {"deep": {"a": {"b": {"c": 1}}}})
    assert repr(stats) == "Statistics(**{'k0': 0, 'k1': 1, 'k2': 2, 'k3': 3, … +3})"
    series = Statistics.from_dict({"deep": {"a": {"b": 1}, "list": [1, 2]}, "series": [{"time": 1, "count": 2}] * 24})
    assert repr(series) == "Statistics(**{'deep': {'a': {<1 keys>}, 'list': [<2 items>]}, 'series': [<24 dict>]})"


def test_reprs_stay_short_for_a_full_job(spec: dict[str, Any]) -> None:
    example = spec["components"]["schemas"]["Job"]["example"]
    job = Job.from_dict({**example, "stages": example["stages"] * 20})
    text = repr(job)  # what print(job) shows: key, status, printer, check-in time
    assert re.fullmatch(
        r"Job\(id='myJobId123', status='WaitProcessing', printer_name='[^']+', "
        r"checkin_time=\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ, …\)",
        text,
    ), text
    assert len(text) < 120
    full = pretty(job)  # IPython's text view keeps every field
    assert full.startswith("Job(id='myJobId123',\n    status='WaitProcessing',\n    ref_id='48727e72',")
    assert full.endswith("stages=[<20 JobStage>])")


def test_ipython_pretty_puts_one_field_a_line_when_long() -> None:
    job = Job.from_dict(
        {"_id": "j" * 30, "status": "Error", "current": {"printerName": "p" * 30, "userName": "u" * 30}, "x": 1}
    )
    assert pretty(job).splitlines() == [
        f"Job(id='{'j' * 30}',",
        "    status='Error',",
        f"    current=JobAttributes(user_name='{'u' * 30}',",
        f"                          printer_name='{'p' * 30}'),",
        "    **{'x': 1})",
    ]
    assert pretty(Job(id="j")) == "Job(id='j')"
    assert pretty([Job(id="a"), Job(id="b")]) == "[Job(id='a'), Job(id='b')]"


@pytest.mark.parametrize("schema_name", ["Job", "Printer", "Flow", "ActionResult", "UserRoles"])
def test_attrs_behaviour_is_unchanged(spec: dict[str, Any], schema_name: str) -> None:
    schema = spec["components"]["schemas"][schema_name]
    cls = getattr(generated_models, schema_name)
    data = {**schema["example"], "unknownField": {"nested": [1, 2]}}
    model = cls.from_dict(data)
    assert model.to_dict() == data
    assert cls.from_dict(data) == model
    assert cls.from_dict({**data, "unknownField": 2}) != model
    assert attrs.has(cls)
    assert "__slots__" in cls.__dict__
    assert "__dict__" not in cls.__dict__
    with pytest.raises(AttributeError):
        model.not_a_field = 1


def test_flow_shows_its_python_field_names() -> None:
    flow = Flow.from_dict({"name": "main", "type": "custom", "source": "def main() {}"})
    assert repr(flow) == "Flow(name='main', type_='custom', source='def main() {}')"
