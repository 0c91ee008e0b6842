from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..field_catalog import epoch_ms_datetime as _epoch_ms_datetime
from ..types import UNSET, Unset

T = TypeVar("T", bound="LogEntry")


@_attrs_define
class LogEntry:
    """Inferred - one log entry.

    Attributes:
        time (int | Unset): Epoch milliseconds.
        level (str | Unset):
        message (str | Unset):
    """

    time: int | Unset = UNSET
    level: str | Unset = UNSET
    message: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "time": "time",
        "level": "level",
        "message": "message",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = ()
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = ()

    @property
    def time_utc(self) -> datetime | None:
        """``time`` (``time``, epoch milliseconds) as an aware UTC datetime;
        ``None`` when it is unset, null or ``0`` (the server's "never"). ``time`` keeps the wire value."""
        return _epoch_ms_datetime(self.time)

    def __repr__(self) -> str:
        return _repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython and Jupyter: every set field (more than repr()), one a line when they do not fit."""
        _repr_pretty(self, p, cycle)

    def _repr_html_(self) -> str:
        """Jupyter: a compact table, the whole document one click away."""
        return _repr_html(self)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: wire names, unset fields left out, the fields the spec does not declare as sent."""
        time = self.time

        level = self.level

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if time is not UNSET:
            field_dict["time"] = time
        if level is not UNSET:
            field_dict["level"] = level
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"LogEntry must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_time = d.pop("time", UNSET)
        if _wire_time is UNSET:
            time = UNSET
        else:
            try:
                time = _read_time(_wire_time)
            except LENIENT_ERRORS:
                time = UNSET
                d["time"] = _wire_time

        _wire_level = d.pop("level", UNSET)
        if _wire_level is UNSET:
            level = UNSET
        else:
            try:
                level = _read_level(_wire_level)
            except LENIENT_ERRORS:
                level = UNSET
                d["level"] = _wire_level

        _wire_message = d.pop("message", UNSET)
        if _wire_message is UNSET:
            message = UNSET
        else:
            try:
                message = _read_message(_wire_message)
            except LENIENT_ERRORS:
                message = UNSET
                d["message"] = _wire_message

        log_entry = cls(
            time=time,
            level=level,
            message=message,
        )

        log_entry.additional_properties = d
        return log_entry

    @property
    def additional_keys(self) -> list[str]:
        """The names of the fields the spec does not declare, as sent."""
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties


def _read_time(value: Any) -> int | Unset:
    time = value
    if type(time) is not int:
        raise TypeError
    return time


def _read_level(value: Any) -> str | Unset:
    level = value
    if not isinstance(level, str):
        raise TypeError
    return level


def _read_message(value: Any) -> str | Unset:
    message = value
    if not isinstance(message, str):
        raise TypeError
    return message


LogEntry.READERS = {
    "time": _read_time,
    "level": _read_level,
    "message": _read_message,
}
