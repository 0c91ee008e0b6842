"""The overlay's field rules equal what openapi.yaml declares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from printmgmt.fields import EPOCH_MS_FIELDS, is_epoch_ms

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"


def _marked(node: Any, mark: str) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict) and schema.get(mark) is True:
                found.add(name)
        for value in node.values():
            found |= _marked(value, mark)
    elif isinstance(node, list):
        for value in node:
            found |= _marked(value, mark)
    return found


def test_epoch_ms_fields_are_the_ones_the_spec_marks() -> None:
    spec = yaml.safe_load(SPEC.read_text())
    assert _marked(spec, "x-printmgmt-epoch-ms") == EPOCH_MS_FIELDS


def test_is_epoch_ms_reads_the_last_part_of_a_path() -> None:
    assert is_epoch_ms("current/checkinTime")
    assert is_epoch_ms("stages.createdAt")
    assert is_epoch_ms("time")
    assert not is_epoch_ms("current/jobName")
    assert not is_epoch_ms("checkinTimeX")
