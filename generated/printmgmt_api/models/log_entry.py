from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import LENIENT_ERRORS, UNSET, Unset
from ..types import model_repr as _repr
from ..types import model_repr_pretty as _repr_pretty

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

    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "time": "time",
        "level": "level",
        "message": "message",
    }

    def __repr__(self) -> str:
        return _repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython and Jupyter: repr(), one field a line when it does not fit."""
        _repr_pretty(self, p, cycle)

    def to_dict(self) -> dict[str, Any]:
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
        d = dict(src_dict)
        _wire_time = d.pop("time", UNSET)
        try:
            time = _wire_time
            if time is not UNSET and type(time) is not int:
                raise TypeError
        except LENIENT_ERRORS:
            time = UNSET
            d["time"] = _wire_time

        _wire_level = d.pop("level", UNSET)
        try:
            level = _wire_level
            if level is not UNSET and not isinstance(level, str):
                raise TypeError
        except LENIENT_ERRORS:
            level = UNSET
            d["level"] = _wire_level

        _wire_message = d.pop("message", UNSET)
        try:
            message = _wire_message
            if message is not UNSET and not isinstance(message, str):
                raise TypeError
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
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
