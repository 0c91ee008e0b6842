"""The typed catalogue of the spec's fields (``printmgmt.odata.jobs``/``printers``, generated from openapi.yaml)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from typecheck_docs import as_module, check

from printmgmt import odata
from printmgmt.odata import Field
from printmgmt_api.field_catalog import OPEN_PATHS, PATHS, Fields

SPEC = yaml.safe_load((Path(__file__).parent.parent / "openapi.yaml").read_text())
SCHEMAS = SPEC["components"]["schemas"]


def spec_paths(name: str, prefix: str = "") -> set[str]:
    """Every property path of schema ``name``, read from the spec here (through $refs and arrays)."""
    found = set()
    for wire, prop in SCHEMAS[name].get("properties", {}).items():
        found.add(prefix + wire)
        target = prop.get("items", prop) if prop.get("type") == "array" else prop
        if "$ref" in target:
            found |= spec_paths(target["$ref"].rsplit("/", 1)[-1], prefix + wire + "/")
    return found


def attribute_paths(node: Fields[Field]) -> set[str]:
    """Every path reachable through the node's properties, as the builder's Fields render it."""
    found = set()
    for name, member in vars(type(node)).items():
        if not isinstance(member, property):
            continue
        value = getattr(node, name)
        if isinstance(value, Fields):
            found.add(value._prefix.rstrip("/"))
            found |= attribute_paths(value)
        else:
            assert isinstance(value, Field)
            found.add(value.path)
    return found


@pytest.mark.parametrize(
    ("noun", "schema", "node"), [("jobs", "Job", odata.jobs), ("printers", "Printer", odata.printers)]
)
def test_every_field_of_the_spec_is_an_attribute_and_a_known_path(noun: str, schema: str, node: Any) -> None:
    assert attribute_paths(node) == spec_paths(schema) == PATHS[noun]


@pytest.mark.parametrize(
    ("field", "path"),
    [
        (odata.jobs.id, "_id"),
        (odata.jobs.status, "status"),
        (odata.jobs.current.printer_name, "current/printerName"),
        (odata.jobs.lc_current.checkin_time, "lcCurrent/checkinTime"),
        (odata.jobs.stages.created_at, "stages/createdAt"),
        (odata.jobs.stages.context.type, "stages/context/type"),
        (odata.jobs.file_name, "fileName"),
        (odata.printers.config.web_url, "config/webUrl"),
        (odata.printers.runtime.last_printed_job_time, "runtime/lastPrintedJobTime"),
        (odata.printers.physical, "physical"),
    ],
)
def test_snake_case_attributes_give_wire_paths(field: Field, path: str) -> None:
    assert isinstance(field, Field)
    assert field.path == path


def test_catalogue_fields_build_filters_like_field() -> None:
    assert str(odata.jobs.current.printer_name == "PRT-1") == "current/printerName eq 'PRT-1'"
    since = datetime(2020, 12, 18, 8, 35, 47, 459000, tzinfo=UTC)
    assert str(odata.jobs.current.checkin_time >= since) == "current/checkinTime ge 1608280547459"
    expr = (odata.jobs.status == "Error") & odata.jobs.current.job_name.startswith("Inv")
    assert str(expr) == "status eq 'Error' and startswith(current/jobName,'Inv') eq true"
    assert OPEN_PATHS["printers"] == {"physical"}


TYPO = """\
from printmgmt import odata

wrong = odata.jobs.current.printr_name == "PRT-1"
"""
RIGHT = """\
from printmgmt import odata

right = odata.jobs.current.printer_name == "PRT-1"
"""


def test_a_misspelt_field_is_a_type_error() -> None:
    findings = check([("typo", as_module(TYPO, prelude=False)), ("right", as_module(RIGHT, prelude=False))])
    assert findings, "mypy found nothing"
    assert all(finding.startswith("typo") for finding in findings), findings
    assert any('"JobAttributesFields[Field]" has no attribute "printr_name"' in finding for finding in findings)


def test_every_time_field_reads_as_an_aware_datetime_beside_its_wire_value() -> None:
    """Each model has a ``<name>_utc`` reader for exactly the fields the catalogue calls times: an aware UTC
    datetime, the wire value unchanged in the field itself and in ``to_dict()``."""
    import printmgmt_api.models as generated
    from printmgmt_api.field_catalog import EPOCH_MS_FIELDS

    seen: set[str] = set()
    for name in generated.__all__:
        model = getattr(generated, name)
        wire_names: dict[str, str] = getattr(model, "WIRE_NAMES", {})
        readers = {attr.removesuffix("_utc") for attr, member in vars(model).items() if attr.endswith("_utc")}
        times = {attr for attr, wire in wire_names.items() if wire in EPOCH_MS_FIELDS}
        assert readers == times, name
        for attr in times:
            wire = wire_names[attr]
            seen.add(wire)
            item = model.from_dict({wire: 1735546089604})
            assert getattr(item, attr) == 1735546089604
            assert item.to_dict()[wire] == 1735546089604
            assert getattr(item, attr + "_utc") == datetime(2024, 12, 30, 8, 8, 9, 604000, tzinfo=UTC)
            assert getattr(model.from_dict({wire: 0}), attr + "_utc") is None  # the server's "never"
            assert getattr(model.from_dict({}), attr + "_utc") is None
    assert seen == EPOCH_MS_FIELDS


def test_time_readers_type_check_as_datetimes() -> None:
    """What a user writes with a time reader passes ``mypy --strict`` without a cast or a conversion."""
    code = (
        "from datetime import datetime\n"
        "from printmgmt.models import Job\n"
        "def when(job: Job) -> datetime | None:\n"
        "    return job.current.checkin_time_utc if job.current else None\n"
        "def wire(job: Job) -> int | None:\n"
        "    return job.current.checkin_time or None if job.current else None\n"
    )
    assert check([("times", as_module(code, prelude=False))]) == []
