"""``new Date(text)`` as Node's V8 computes it, for the texts the grammar lets through.

The grammar admits ``YYYY-MM-DDThh:mm[:ss[.f+]][Z|±hh:mm]`` with month and hour ``00``-``24``, day
``00``-``31``, minute and second ``00``-``60``. V8 then takes month ``01``-``12``, day ``01``-``31`` (rolled
over into the next month when the month is shorter), hour ``24`` only as ``24:00[:00[.0…]]``, minute and
second ``00``-``59``, a zone hour ``00``-``23``; anything else is an Invalid Date. A zone-less text is local
time of the server process.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, tzinfo
from typing import Final

from ._values import JsDate

_DAY_MS: Final = 86_400_000
_PARTS: Final = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(?:(Z)|([+-])(\d\d):(\d\d))?\Z")
#: V8 keeps this many significant digits of a fraction (ReadUnsignedNumeral)
_SIGNIFICANT: Final = 9
_EPOCH: Final = datetime(1970, 1, 1)
_CYCLE_DAYS: Final = 146_097  # days in 400 Gregorian years
#: the span Python's datetime holds (years 1-9999, a day inside at each end); offsets outside it use its ends
_FIRST_MS: Final = -62135596800000 + _DAY_MS
_LAST_MS: Final = 253402300799000 - _DAY_MS


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date; ``month`` 1-12, ``day`` may run past the month."""
    cycles, year = divmod(year, 400)  # moved into datetime's span: the calendar repeats every 400 years
    return (datetime(2000 + year, month, 1) - _EPOCH).days + (cycles - 5) * _CYCLE_DAYS + day - 1


def _milliseconds(fraction: str) -> int:
    """V8's ReadMilliseconds: the first three digits, counted from a capped numeral length."""
    significant = fraction.lstrip("0")[:_SIGNIFICANT]
    value = int(significant) if significant else 0
    length = min(len(fraction), _SIGNIFICANT)
    if length < 3:
        return value * (1, 100, 10)[length]
    return value // int(10 ** (length - 3))


def _offset_ms(moment: datetime) -> int:
    offset = moment.utcoffset()
    return 0 if offset is None else offset // timedelta(milliseconds=1)


def _naive(epoch_ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=min(max(epoch_ms, _FIRST_MS), _LAST_MS))


def date_from_text(text: str, tz: tzinfo) -> JsDate:
    """``new Date(text)`` for a text the ``datetime'…'`` grammar accepted."""
    parts = _PARTS.match(text)
    assert parts is not None, text  # the grammar guarantees the shape
    year, month, day, hour, minute = (int(parts.group(i)) for i in range(1, 6))
    second = int(parts.group(6) or 0)
    fraction = parts.group(7) or ""
    if (
        not (1 <= month <= 12 and 1 <= day <= 31 and hour <= 24 and minute <= 59 and second <= 59)
        or (hour == 24 and (minute or second or fraction.strip("0")))
        or (parts.group(9) is not None and (int(parts.group(10)) > 23 or int(parts.group(11)) > 59))
    ):
        return JsDate(None)
    local = (
        days_from_civil(year, month, day) * _DAY_MS
        + ((hour * 60 + minute) * 60 + second) * 1000
        + _milliseconds(fraction)
    )
    if parts.group(8):
        return JsDate(local)
    if parts.group(9):
        sign = 1 if parts.group(9) == "+" else -1
        return JsDate(local - sign * (int(parts.group(10)) * 60 + int(parts.group(11))) * 60_000)
    # a wall-clock time a change skips takes the offset before it, a repeated one the earlier (fold=0), as V8
    return JsDate(local - _offset_ms(_naive(local).replace(tzinfo=tz)))
