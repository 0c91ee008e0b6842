"""``openapi.yaml``'s schemas as the simulator reads them (``printmgmt_api.schemas``, written by ``make generate``).

:func:`check` holds a value to a schema as leniently as the spec means it: unknown fields are kept, enums are
open, declared fields must have their declared types (an integral float counts as an integer, as in JSON
Schema) and required ones must be there. :func:`properties` lists an object schema's declared fields.
"""

from __future__ import annotations

from typing import Any, Final

from printmgmt_api.schemas import REQUEST_BODIES, SCHEMAS

__all__ = ["REQUEST_BODIES", "SchemaError", "check", "properties", "resolve"]

_INT64: Final = range(-(2**63), 2**63)
_TYPES: Final[dict[str, tuple[type, ...]]] = {
    "string": (str,),
    "boolean": (bool,),
    "number": (int, float),
    "integer": (int,),
    "object": (dict,),
    "array": (list,),
}


class SchemaError(ValueError):
    """A value does not match its schema."""


def resolve(schema: dict[str, Any] | str) -> dict[str, Any]:
    """The schema itself: a component by name, or the target of a ``$ref``."""
    if isinstance(schema, str):
        return SCHEMAS[schema]  # type: ignore[no-any-return]
    ref = schema.get("$ref")
    return SCHEMAS[ref.rsplit("/", 1)[-1]] if isinstance(ref, str) else schema


def properties(schema: dict[str, Any] | str) -> dict[str, dict[str, Any]]:
    """The declared fields of an object schema, by name (empty for an open object)."""
    return resolve(schema).get("properties", {})  # type: ignore[no-any-return]


def check(schema: dict[str, Any] | str, value: Any, path: str = "") -> Any:
    """``value`` as the handler gets it (integral floats as integers), or :class:`SchemaError` saying where it
    breaks ``schema``."""
    spec = resolve(schema)
    kind = spec.get("type")
    where = f"'{path}'" if path else "the body"
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)
    if kind in _TYPES and (not isinstance(value, _TYPES[kind]) or (kind != "boolean" and isinstance(value, bool))):
        article = "an" if kind in ("integer", "object", "array") else "a"
        raise SchemaError(f"{where} must be {article} {kind}")
    if kind == "integer" and spec.get("format") == "int64" and value not in _INT64:
        raise SchemaError(f"{where} must fit in 64 bits")
    if kind == "string" and len(value) < spec.get("minLength", 0):
        raise SchemaError(f"{where} must not be empty" if spec["minLength"] == 1 else f"{where} is too short")
    if kind == "array" and "items" in spec:
        return [check(spec["items"], item, f"{path}[{i}]") for i, item in enumerate(value)]
    if kind == "object":
        if missing := [name for name in spec.get("required", ()) if name not in value]:
            raise SchemaError(f"{where} lacks the required field '{_join(path, missing[0])}'")
        declared = spec.get("properties", {})
        return {
            name: check(declared[name], item, _join(path, name)) if name in declared else item
            for name, item in value.items()
        }
    return value


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
