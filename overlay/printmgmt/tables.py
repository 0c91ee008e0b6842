"""Pages and lists of models as pandas DataFrames (docs/quickstart.md, "Tables"): pandas, an optional extra
(``printmgmt[pandas]``), is imported when a table is made, never by ``import printmgmt``."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .fields import EPOCH_MS_FIELDS, epoch_ms_datetime, epoch_ms_text, is_epoch_ms

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["EPOCH_MS_FIELDS", "to_pandas"]


def to_pandas(items: Iterable[Any]) -> pd.DataFrame:
    """A DataFrame with one row per item, in the order given.

    ``items`` is a :class:`~printmgmt.Page`, or an iterable of models (``Job``, ``Printer``, ``Flow``, ...:
    anything with ``to_dict()``) or of mappings shaped like the server's JSON. A ``Pager`` is asynchronous:
    collect it first (``await pager.to_list()``).

    - Columns carry the wire names, nested objects flattened (``current.printerName``); lists stay in one cell.
      The summary (key, status, printer, times) comes first, then single values, then lists and objects.
    - ``_id`` becomes the column ``id`` (unless an item also has ``id``); the index is a ``RangeIndex``.
    - Epoch-millisecond fields (:data:`EPOCH_MS_FIELDS`) become ``datetime64[ms, UTC]``, ``NaT`` where missing
      or ``0`` (the server's "never"); a time column holding anything else is left as sent.
    - A field missing from some items is ``NaN`` there; no items give an empty DataFrame.

    Raises ``ImportError`` when pandas is not installed and ``TypeError`` for anything but the above.
    """
    given = list(_items(items))
    rows = [_row(item) for item in given]
    try:
        import pandas  # the optional extra, imported on use only
    except ImportError as exc:
        raise ImportError("to_pandas() needs pandas: pip install 'printmgmt[pandas]'", name="pandas") from exc
    if not rows:
        return pandas.DataFrame()
    frame = pandas.json_normalize(rows)
    frame = frame[_column_order(frame, getattr(type(given[0]), "SUMMARY", ()) or ("_id",))]
    if "_id" in frame.columns and "id" not in frame.columns:
        frame = frame.rename(columns={"_id": "id"})
    for column in frame.columns:
        if is_epoch_ms(str(column)):
            frame[column] = _times(pandas, frame[column])
    return frame


def _times(pandas: Any, values: pd.Series) -> pd.Series:
    """A column of epoch ms as UTC datetimes, ``NaT`` where missing (``NaN`` in a gap) or ``0``; a column holding
    anything that cannot be a date (text, a year beyond 9999) is left as sent."""
    times = [epoch_ms_datetime(value) for value in values]
    for value, when in zip(values, times, strict=True):
        if when is None and epoch_ms_text(value) and not (isinstance(value, float) and math.isnan(value)):
            return values
    converted: pd.Series = pandas.Series(times, index=values.index, dtype="datetime64[ms, UTC]")
    return converted


def _column_order(frame: pd.DataFrame, summary_paths: tuple[str, ...]) -> list[str]:
    """The model's ``SUMMARY`` first, then columns of one value per cell, then lists and objects, in document order."""
    columns = [str(column) for column in frame.columns]
    summary = [path.replace("/", ".") for path in summary_paths]
    first = [column for column in summary if column in columns]
    rest = [column for column in columns if column not in first]
    scalars = [column for column in rest if not frame[column].map(lambda v: isinstance(v, list | dict)).any()]
    return [*first, *scalars, *(column for column in rest if column not in scalars)]


def _items(items: object) -> Iterable[Any]:
    # a Page iterates over its items
    if isinstance(items, Mapping) or hasattr(items, "to_dict"):
        raise TypeError(
            f"to_pandas() takes a Page or a list of items, not one {type(items).__name__}: wrap it in [...]"
        )
    if hasattr(items, "__aiter__"):
        raise TypeError("to_pandas() cannot iterate asynchronously: collect first, e.g. await pager.to_list()")
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise TypeError(f"to_pandas() takes a Page or a list of items, not {type(items).__name__}")
    return items


def _row(item: object) -> dict[str, Any]:
    if isinstance(item, Mapping):
        return dict(item)
    to_dict = getattr(item, "to_dict", None)
    if callable(to_dict):
        row = to_dict()
        if isinstance(row, dict):
            return row
    raise TypeError(f"to_pandas() needs models with to_dict() or mappings, got {type(item).__name__}")
