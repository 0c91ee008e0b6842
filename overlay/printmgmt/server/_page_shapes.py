"""Every plausible shape of a list page (docs/tolerance.md), in one table (:data:`FORMS`): the SDK and
``printmgmt doctor`` read pages with :func:`read_page`, the simulator writes them from it, so none can drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Final, Literal

__all__ = ["FORMS", "LIST_KEYS", "CountType", "PageForm", "PageShape", "ReadPage", "list_items", "read_page"]
__all__ += ["read_total"]

PageForm = Literal["array", "results", "value", "verbose"]
#: The JSON type a count came in.
CountType = Literal["int", "string", "float"]


@dataclass(frozen=True, slots=True)
class PageShape:
    """Where one page form keeps its items and its count."""

    form: PageForm
    #: The key of the items (None: the body is the array).
    items: str | None = None
    #: Keys the count may come under, the usual one first.
    counts: tuple[str, ...] = ()
    #: An object the page is wrapped in (OData v2 verbose: ``d``).
    envelope: str | None = None
    #: The JSON type the count is usually written as (OData v2 verbose writes strings).
    count_type: CountType = "int"


FORMS: Final[dict[str, PageShape]] = {
    shape.form: shape
    for shape in (
        PageShape("array"),
        PageShape("results", "results", ("totalCount",)),
        PageShape("value", "value", ("odata.count", "@odata.count", "__count")),
        PageShape("verbose", "results", ("__count", "totalCount"), envelope="d", count_type="string"),
    )
}


@dataclass(frozen=True, slots=True)
class ReadPage:
    """A list page as read: its form, its items, the total (None when it reported none that reads as one),
    and under which key and as what JSON type the count came."""

    shape: PageShape
    items: list[Any]
    total: int | None = None
    count_key: str | None = None
    count_type: CountType | None = None

    @property
    def form(self) -> PageForm:
        return self.shape.form


def read_total(value: Any) -> int | None:
    """A count as a non-negative int: from an int, a numeric string or an integral float; else None."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(value.strip() if isinstance(value, str) else value)
    except InvalidOperation:
        return None
    return int(number) if number.is_finite() and number == number.to_integral_value() and number >= 0 else None


def _count_type(value: Any) -> CountType | None:
    if isinstance(value, bool) or value is None:
        return None
    return "int" if isinstance(value, int) else "float" if isinstance(value, float) else "string"


def read_page(data: Any) -> ReadPage | None:
    """The page ``data`` (a decoded JSON value) holds, in whichever known form; None when it is none of them."""
    if isinstance(data, list):
        return ReadPage(FORMS["array"], data)
    if not isinstance(data, dict):
        return None
    for shape in FORMS.values():
        inner = data.get(shape.envelope) if shape.envelope else data
        if shape.items is None or not isinstance(inner, dict) or not isinstance(inner.get(shape.items), list):
            continue
        key = next((key for key in shape.counts if key in inner), None)
        raw = inner[key] if key is not None else None
        return ReadPage(shape, inner[shape.items], read_total(raw), key, _count_type(raw))
    return None


#: Keys under which a guessed list (flows, a job's log) may come wrapped in an object, beside the page forms.
LIST_KEYS: Final = ("results", "value", "items", "data", "entries", "logs")


def list_items(data: Any) -> list[Any]:
    """The items of a guessed list: a page in any form, an object holding an array under one of
    :data:`LIST_KEYS` (also inside OData's ``d``), text lines, or one value standing alone."""
    if data is None:
        return []
    if (page := read_page(data)) is not None:
        return list(page.items)
    if isinstance(data, str):
        return [line for line in data.splitlines() if line.strip()]
    if isinstance(data, dict):
        inner = data["d"] if isinstance(data.get("d"), dict) else data
        return next((list(inner[key]) for key in LIST_KEYS if isinstance(inner.get(key), list)), [data])
    return [data]
