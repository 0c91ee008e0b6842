"""The fast path (models decoded on access, :mod:`printmgmt._lazy`) gives the same models as the reference path
(the generated ``from_dict``) for every model of the spec: hypothesis-generated documents with fitting values,
nulls, values of other types and unknown fields, read in any order."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import printmgmt_api.models as models
from printmgmt._lazy import lazy
from printmgmt._model_runtime import KeyFieldError

SPEC = yaml.safe_load((Path(__file__).parent.parent / "openapi.yaml").read_text())
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]
MODELS = [name for name, schema in SCHEMAS.items() if schema.get("type") == "object" and hasattr(models, name)]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _value(schema: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    """A value that fits ``schema`` more often than not, else any JSON value."""
    if "$ref" in schema:
        target_name = schema["$ref"].rsplit("/", 1)[1]
        target = SCHEMAS[target_name]
        if "enum" in target:
            values = [*target["enum"], *(f"job-{value.lower()}" for value in target["enum"]), "Archived"]
            fitting: st.SearchStrategy[Any] = st.sampled_from(values)
        elif depth < 2:
            fitting = document(target_name, depth + 1)
        else:
            fitting = st.dictionaries(st.text(max_size=6), JSON, max_size=2)
    elif schema.get("type") == "string":
        fitting = st.text(max_size=8)
    elif schema.get("type") == "integer":
        fitting = st.integers(min_value=-(2**53), max_value=2**53)
    elif schema.get("type") == "number":
        fitting = st.floats(allow_nan=False)
    elif schema.get("type") == "boolean":
        fitting = st.booleans()
    elif schema.get("type") == "array":
        fitting = st.lists(_value(schema.get("items", {}), depth + 1), max_size=3)
    else:
        fitting = JSON
    return st.one_of(fitting, fitting, JSON)


def document(name: str, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    schema = SCHEMAS[name]
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    keys = {key: st.text(min_size=1, max_size=8) for key in required if properties[key].get("type") == "string"}
    lists = {
        key: st.lists(document(properties[key]["items"]["$ref"].rsplit("/", 1)[1], depth + 1), max_size=2)
        for key in required
        if key not in keys
    }
    optional = {key: _value(prop, depth) for key, prop in properties.items() if key not in required}
    declared = st.fixed_dictionaries({**keys, **lists}, optional=optional)
    extra = st.dictionaries(st.text(max_size=6).filter(lambda key: key not in properties), JSON, max_size=3)
    return st.tuples(declared, extra).map(lambda pair: {**pair[1], **pair[0]})


def _fields(model: Any) -> dict[str, Any]:
    return {field.name: getattr(model, field.name) for field in attrs.fields(type(model).__mro__[0])}


@pytest.mark.parametrize("name", MODELS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fast_path_gives_the_reference_model(name: str, data: st.DataObject) -> None:
    cls = getattr(models, name)
    doc = data.draw(document(name))
    reference = cls.from_dict(copy.deepcopy(doc))
    fast = lazy(cls, doc)
    assert isinstance(fast, cls)
    # a few fields first, in any order, as a caller reads them
    names = [field.name for field in attrs.fields(cls) if field.name != "additional_properties"]
    for attribute in data.draw(st.lists(st.sampled_from(names), max_size=3)) if names else []:
        assert getattr(fast, attribute) == getattr(reference, attribute)
    assert fast.to_dict() == reference.to_dict() == doc
    assert repr(fast) == repr(reference)
    assert fast == reference and reference == fast
    assert _fields(fast) == _fields(reference)  # reads additional_properties: decodes the rest
    assert fast.to_dict() == reference.to_dict()
    assert pickle.loads(pickle.dumps(fast)) == reference


def test_every_model_is_covered() -> None:
    assert {"Job", "Printer", "Flow", "JobAttributes", "PrinterRuntime", "LogEntry"} <= set(MODELS)


@pytest.mark.parametrize("key", [None, 5, "", ["j"]])
def test_keys_stay_strict_on_the_fast_path(key: Any) -> None:
    with pytest.raises(KeyFieldError):
        lazy(models.Job, {"_id": key, "status": "Error"})
    with pytest.raises(KeyFieldError):
        models.Job.from_dict({"_id": key, "status": "Error"})


def test_changes_to_a_fast_model_are_kept() -> None:
    job = lazy(models.Job, {"_id": "j1", "status": "Error", "TRAY_1": "upper"})
    job.status = models.JobStatus.PAUSED
    job["note"] = 1
    assert job.to_dict() == {"_id": "j1", "status": "Paused", "TRAY_1": "upper", "note": 1}
    current = lazy(models.Job, {"_id": "j2", "current": {"printerName": "p1"}})
    held = current.current
    current["x"] = 1  # decodes the rest; what was handed out stays the same object
    assert current.current is held
    assert attrs.evolve(job, ref_id="r").to_dict()["refId"] == "r"
