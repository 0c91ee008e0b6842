"""Query options as typed, read with the server's own grammar before sending (docs/paging.md): ``check_query``
is ``"strict"`` (the default: refuse what the server refuses or reads otherwise than OData, warn where its
reading may be what is meant), ``"syntax"`` (refuse only what it refuses, but for a text function's literal that
is no valid JavaScript regular expression: the server's 400 reports that) or ``"off"`` (send as written).
"""

from __future__ import annotations

import warnings
from typing import Literal, get_args

from ..errors import InvalidQuery, QueryMeaningWarning, UnknownFieldWarning

__all__ = ["CheckQuery", "check_mode", "check_query"]

CheckQuery = Literal["strict", "syntax", "off"]
_MODES = frozenset(get_args(CheckQuery))


def check_mode(value: object, name: str = "check_query") -> CheckQuery:
    """``value`` if it is one of the modes, else a ``ValueError`` naming them."""
    if value not in _MODES:
        raise ValueError(f"{name} must be 'strict', 'syntax' or 'off', not {value!r}")
    return value  # type: ignore[return-value]


def check_query(
    collection: str,
    mode: CheckQuery,
    *,
    filter: str | None = None,
    orderby: str | None = None,
    select: str | None = None,
    stacklevel: int = 1,
) -> None:
    """Raise :class:`~printmgmt.errors.InvalidQuery` for an option the server would refuse (or, ``strict``,
    misread); warn about fields the spec does not know for ``collection`` (``jobs``) and, ``strict``, about a
    reading that may be meant. ``stacklevel`` counts from the caller."""
    if mode == "off" or not (filter or orderby or select):
        return
    from ._verdict import verdict  # the reader loads with the first check, not with the SDK

    refusal, found = verdict(collection, check_mode(mode), filter or None, orderby or None, select or None)
    if refusal is not None:
        raise InvalidQuery(**dict(refusal))  # type: ignore[arg-type]
    for kind, fields in found:
        if kind == "field":
            warning: Warning = UnknownFieldWarning(**dict(fields))  # type: ignore[arg-type]
        else:  # the verdict serves every text of one literal shape: the text is this call's
            text = {"$filter": filter, "$orderby": orderby, "$select": select}[str(dict(fields)["option"])]
            warning = QueryMeaningWarning(text=text, **dict(fields))  # type: ignore[arg-type]
        warnings.warn(warning, stacklevel=stacklevel + 1)
