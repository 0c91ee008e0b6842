"""Writes ``printmgmt_api/field_catalog.py``: the fields of each listed collection's documents, typed.

For every operation declared ``pages: true`` (``jobs.list``), the schema of its items (``Job``) becomes a class
whose snake_case properties are its fields (``current`` -> ``current/``, ``printer_name`` -> ``printerName``),
nested objects nested classes, arrays of objects the class of their items (a path through an array matches
any element). What a leaf is, is the caller's: ``JobFields(leaf)`` calls ``leaf("current/printerName")``, so
the SDK's filter builder gets its own field type and a misspelt attribute is a type checker's error. The same
walk gives the set of known paths per collection (the query checks' "unknown field" warning). The names of the
properties marked ``x-printmgmt-epoch-ms`` anywhere in the schemas are the fields shown and compared as times
(the functions that read them are in ``HEADER``: the generated models' views and the SDK share them).

``make generate`` runs it after the generator (``python templates/field_catalog.py openapi.yaml <package>``).
"""

from __future__ import annotations

import keyword
import re
import sys
from pathlib import Path
from typing import Any

import yaml

HEADER = '''"""The fields of the documents each collection lists, from openapi.yaml, typed.

Written by ``templates/field_catalog.py`` during ``make generate``; do not edit.

``JobFields(leaf)`` has one property per field of a job: ``.status`` is ``leaf("status")``,
``.current.printer_name`` is ``leaf("current/printerName")`` (wire paths, ``/`` between names). A path through
an array of objects (``.stages.created_by``) matches a document where any element matches. ``PATHS`` holds
every known path per collection; ``OPEN_PATHS`` the objects whose fields the spec leaves open (anything below
them is a field the spec cannot know). ``EPOCH_MS_FIELDS`` names the fields holding epoch milliseconds, which
the models' views, tables and filters read as times; ``TYPES`` the JSON type of each path's values.
"""

import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Final, Generic, TypeVar

F = TypeVar("F")


def is_epoch_ms(path: str) -> bool:
    """Whether the field at ``path`` (``current/checkinTime`` or ``current.checkinTime``) holds epoch ms."""
    return path.replace(".", "/").rsplit("/", 1)[-1] in EPOCH_MS_FIELDS


def epoch_ms_datetime(value: object) -> datetime | None:
    """The UTC time an epoch-milliseconds value stands for, or ``None`` when it stands for none: ``0`` (the
    server's "never", e.g. a printer that has printed nothing yet), ``None``, anything but a finite number, and
    numbers beyond the years 1 to 9999."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value == 0:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    try:
        return datetime.fromtimestamp(value / 1000, UTC)
    except (OverflowError, OSError, ValueError):  # beyond what datetime (or the platform's time_t) holds
        return None


def epoch_ms_text(value: object) -> str:
    """An epoch-milliseconds value as a person reads it: ``2025-01-06 08:00:00Z``; ``""`` for ``0`` and
    ``None`` (no time); anything that cannot be a date (text, NaN, year 0) as sent."""
    when = epoch_ms_datetime(value)
    if when is not None:
        return f"{when:%Y-%m-%d %H:%M:%S}Z"
    if value is None or (isinstance(value, int | float) and not isinstance(value, bool) and value == 0):
        return ""
    return str(value)


class Fields(Generic[F]):
    """The fields of one document (or sub-document) at ``prefix``; ``leaf`` makes each field's value."""

    __slots__ = ("_leaf", "_prefix")

    def __init__(self, leaf: Callable[[str], F], prefix: str = "") -> None:
        self._leaf = leaf
        self._prefix = prefix

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._prefix.rstrip('/') or '<document>'!r})"
'''


def snake(name: str) -> str:
    """``printerName`` -> ``printer_name``; ``_id`` -> ``id`` (as the generated models name it)."""
    plain = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name.lstrip("_")).lower()
    return plain + "_" if keyword.iskeyword(plain) else plain


def ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


class Catalog:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = spec["components"]["schemas"]
        self.classes: dict[str, str] = {}  # schema name -> rendered class
        self.order: list[str] = []

    def resolve(self, schema: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        name = ref_name(schema)
        return (name, self.schemas[name]) if name else (None, schema)

    def object_of(self, schema: dict[str, Any]) -> str | None:
        """The schema name of an object with declared properties (directly or as an array's items)."""
        name, body = self.resolve(schema)
        if body.get("type") == "array":
            return self.object_of(body.get("items", {}))
        return name if name and body.get("type") == "object" and body.get("properties") else None

    def render(self, name: str) -> str:
        """The class of schema ``name`` (and, first, those of its nested objects); its class name."""
        cls = f"{name}Fields"
        if name in self.classes or name in self.order:
            return cls
        self.order.append(name)
        body = self.schemas[name]
        lines = [f"class {cls}(Fields[F]):", f'    """The fields of ``{name}``."""', ""]
        for wire, prop in body["properties"].items():
            attr = snake(wire)
            nested = self.object_of(prop)
            _, resolved = self.resolve(prop)
            kind = resolved.get("type", "value")
            if nested:
                sub = self.render(nested)
                lines += [
                    "    @property",
                    f"    def {attr}(self) -> {sub}[F]:",
                    f'        """``{wire}/...``{" (an array: any element)" if kind == "array" else ""}."""',
                    f'        return {sub}(self._leaf, self._prefix + "{wire}/")',
                    "",
                ]
            else:
                items = resolved.get("items", {}).get("type") if kind == "array" else None
                what = f"array of {items}" if items else kind
                lines += [
                    "    @property",
                    f"    def {attr}(self) -> F:",
                    f'        """``{wire}`` ({what})."""',
                    f'        return self._leaf(self._prefix + "{wire}")',
                    "",
                ]
        self.classes[name] = "\n".join(lines).rstrip() + "\n"
        return cls

    def paths(self, name: str, prefix: str = "") -> tuple[dict[str, str], set[str]]:
        """Every path of schema ``name`` below ``prefix`` with the JSON type of its values (an array's: its
        items' type, which a query compares each element with), and the open objects among them."""
        known: dict[str, str] = {}
        open_: set[str] = set()
        for wire, prop in self.schemas[name]["properties"].items():
            path = prefix + wire
            nested = self.object_of(prop)
            _, resolved = self.resolve(prop)
            if resolved.get("type") == "array":
                _, resolved = self.resolve(resolved.get("items", {}))
            known[path] = resolved.get("type", "value")
            if nested:
                below, below_open = self.paths(nested, path + "/")
                known |= below
                open_ |= below_open
            elif resolved.get("type") == "object":
                open_.add(path)  # an object without declared fields (PrinterPhysical)
        return known, open_


def epoch_ms_fields(schemas: dict[str, Any]) -> list[str]:
    """The names of the properties marked ``x-printmgmt-epoch-ms: true``, in any schema."""
    return sorted(
        {
            wire
            for schema in schemas.values()
            for wire, prop in (schema.get("properties") or {}).items()
            if prop.get("x-printmgmt-epoch-ms") is True
        }
    )


def collections(spec: dict[str, Any], catalog: Catalog) -> dict[str, str]:
    """``{"jobs": "Job", ...}``: each ``pages: true`` operation's collection and the schema of its items."""
    found: dict[str, str] = {}
    for item in spec["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict) or not operation.get("x-printmgmt", {}).get("pages"):
                continue
            noun = operation["x-printmgmt"]["name"].split(".")[0]
            schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
            items = set()
            for choice in schema.get("oneOf", [schema]):
                # a bare array of items, or {results: [...], totalCount}
                results = catalog.resolve(choice)[1].get("properties", {}).get("results")
                items.add(catalog.object_of(choice if results is None else results))
            items.discard(None)
            if len(items) != 1:
                raise SystemExit(f"openapi.yaml: {noun}: cannot tell the item schema of the list ({sorted(items)})")
            found[noun] = items.pop()  # type: ignore[arg-type]
    return found


def render(spec: dict[str, Any]) -> str:
    catalog = Catalog(spec)
    lists = collections(spec, catalog)
    for name in lists.values():
        catalog.render(name)
    out = [HEADER]
    out += ["\n\n" + catalog.classes[name] for name in reversed(catalog.order)]
    out.append("\n\n#: Every field path of each collection's documents (``current/printerName``), objects included.\n")
    out.append("PATHS: Final[dict[str, frozenset[str]]] = {\n")
    opens = []
    types = []
    for noun, name in lists.items():
        known, open_ = catalog.paths(name)
        out.append(f"    {noun!r}: frozenset({sorted(known)!r}),\n")
        opens.append(f"    {noun!r}: frozenset({sorted(open_)!r}),\n")
        types.append(f"    {noun!r}: {dict(sorted(known.items()))!r},\n")
    out.append(
        "}\n\n#: The objects of each collection whose fields the spec leaves open (any path below is plausible)."
    )
    out.append("\n")
    out.append("OPEN_PATHS: Final[dict[str, frozenset[str]]] = {\n" + "".join(opens) + "}\n")
    out.append(
        "\n#: Property names whose values are epoch milliseconds, wherever they appear (``current/checkinTime``,"
        " a log entry's ``time``).\n"
    )
    out.append(f"EPOCH_MS_FIELDS: Final[frozenset[str]] = frozenset({epoch_ms_fields(catalog.schemas)!r})\n")
    out.append(
        "\n#: The JSON type of each path's values (``string``, ``integer``, ``number``, ``boolean``, ``object``; an"
        " array's: its items'), which a filter's literal must match: MongoDB never matches across types.\n"
    )
    out.append("TYPES: Final[dict[str, dict[str, str]]] = {\n" + "".join(types) + "}\n")
    return "".join(out)


def main() -> None:
    spec_path, package = Path(sys.argv[1]), Path(sys.argv[2])
    spec = yaml.safe_load(spec_path.read_text())
    (package / "field_catalog.py").write_text(render(spec))


if __name__ == "__main__":
    main()
