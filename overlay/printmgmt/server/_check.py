"""Query options as typed, read with the server's own grammar before sending: ``check_query`` (a client
setting and a keyword of ``list``/``iterate``) is

- ``"strict"`` (the default): refuse what the server refuses, and a filter it reads otherwise than OData (its
  grouping of and/or/not, a value: see :mod:`._meaning`); warn (:class:`~printmgmt.errors.QueryMeaningWarning`)
  where its reading may be what is meant (``startswith`` ignores case);
- ``"syntax"``: refuse only what the server refuses; ``"off"``: send every string as written.

Every mode but ``"off"`` warns (:class:`~printmgmt.errors.UnknownFieldWarning`) about a path that is no field
of the spec's model. An empty option is no option, to the server and here. Filters built with
:mod:`printmgmt.odata` are not read again: the builder writes only what the server reads as meant.
"""

from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING, Literal, get_args

from ..errors import InvalidQuery, QueryMeaningWarning, UnknownFieldWarning

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._verdict import Verdict

__all__ = ["CheckQuery", "check_mode", "check_query"]

CheckQuery = Literal["strict", "syntax", "off"]
_MODES = frozenset(get_args(CheckQuery))


def check_mode(value: object, name: str = "check_query") -> CheckQuery:
    """``value`` if it is one of the modes, else a ``ValueError`` naming them."""
    if value not in _MODES:
        raise ValueError(f"{name} must be 'strict', 'syntax' or 'off', not {value!r}")
    return value  # type: ignore[return-value]


@functools.cache
def _verdict() -> Callable[..., Verdict]:
    from ._verdict import verdict  # the reader loads with the first check, not with the SDK

    return verdict


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
    refusal, found = _verdict()(collection, check_mode(mode), filter or None, orderby or None, select or None)
    if refusal is not None:
        raise InvalidQuery(**dict(refusal))  # type: ignore[arg-type]
    for kind, fields in found:
        if kind == "field":
            warning: Warning = UnknownFieldWarning(**dict(fields))  # type: ignore[arg-type]
        else:  # the verdict serves every text of one literal shape: the text is this call's
            text = {"$filter": filter, "$orderby": orderby, "$select": select}[str(dict(fields)["option"])]
            warning = QueryMeaningWarning(text=text, **dict(fields))  # type: ignore[arg-type]
        warnings.warn(warning, stacklevel=stacklevel + 1)
