"""Every declared field in the simulator's documents: what the seed does not set is drawn from the schema.

A field's value comes from its ``x-printmgmt-sample`` (plausible values; ``[]`` leaves the field out, for one an
action sets, such as a printer's operator message), else its ``enum``, its ``example``, or its type (an epoch
time near the document's, a small integer, a word). Each field draws from its own stream (:mod:`.draws`), so a
field added to the spec changes no other value.
"""

from __future__ import annotations

import random
from typing import Any, Final

from .draws import Draws
from .schemas import properties, resolve

__all__ = ["complete"]

_ABSENT: Final = object()
Doc = dict[str, Any]


def complete(doc: Doc, schema: str | dict[str, Any], draws: Draws, *, time_ms: int, path: str = "") -> Doc:
    """Give ``doc`` (and the objects in it) every declared field of ``schema`` it lacks; return it."""
    declared, nested = _plan(resolve(schema))
    for name in [name for name in declared if name not in doc]:
        where = f"{path}/{name}" if path else name
        value = _sample(name, declared[name], draws(where), time_ms, draws, where)
        if value is not _ABSENT:
            doc[name] = value
    for name, inner, many in nested:
        value = doc.get(name)
        where = f"{path}/{name}" if path else name
        if not many and isinstance(value, dict):
            complete(value, inner, draws, time_ms=time_ms, path=where)
        elif many and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    complete(item, inner, draws, time_ms=time_ms, path=f"{where}/{index}")
    return doc


_PLANS: dict[int, tuple[dict[str, Any], list[tuple[str, dict[str, Any], bool]]]] = {}


def _plan(spec: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any], bool]]]:
    """An object schema's declared fields, and those holding objects (or arrays of them) with declared fields."""
    if (plan := _PLANS.get(id(spec))) is None:
        declared = properties(spec)
        nested = []
        for name, field in declared.items():
            inner = resolve(field)
            many = inner.get("type") == "array"
            inner = resolve(inner.get("items", {})) if many else inner
            if properties(inner):
                nested.append((name, inner, many))
        plan = _PLANS[id(spec)] = (declared, nested)
    return plan


def _sample(name: str, field: dict[str, Any], rng: random.Random, time_ms: int, draws: Draws, where: str) -> Any:
    spec = resolve(field)
    if "x-printmgmt-sample" in spec:
        values = spec["x-printmgmt-sample"]
        return rng.choice(values) if values else _ABSENT
    if spec.get("enum"):
        return rng.choice(spec["enum"])
    if "example" in spec:
        return spec["example"]
    kind = spec.get("type")
    if spec.get("x-printmgmt-epoch-ms"):
        return time_ms + rng.randint(0, 60_000)
    if kind == "integer":
        return rng.randint(spec.get("minimum", 0), spec.get("maximum", 9))
    if kind == "number":
        return round(rng.uniform(spec.get("minimum", 0), spec.get("maximum", 100)), 2)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        return []
    if kind == "object":
        return complete({}, spec, draws, time_ms=time_ms, path=where)
    return f"{name}-{rng.randint(1, 99)}"
