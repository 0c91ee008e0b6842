from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..types import UNSET, Unset

T = TypeVar("T", bound="ActionResult")


@_attrs_define
class ActionResult:
    """Inferred - the answer to an action; an open object, often `{}` or a short message.

    Example:
        {'message': 'OK'}

    Attributes:
        message (str | Unset):
        status (str | Unset):
    """

    message: str | Unset = UNSET
    status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "message": "message",
        "status": "status",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = ()
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = ()

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
        message = self.message

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if message is not UNSET:
            field_dict["message"] = message
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"ActionResult must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_message = d.pop("message", UNSET)
        if _wire_message is UNSET:
            message = UNSET
        else:
            try:
                message = _read_message(_wire_message)
            except LENIENT_ERRORS:
                message = UNSET
                d["message"] = _wire_message

        _wire_status = d.pop("status", UNSET)
        if _wire_status is UNSET:
            status = UNSET
        else:
            try:
                status = _read_status(_wire_status)
            except LENIENT_ERRORS:
                status = UNSET
                d["status"] = _wire_status

        action_result = cls(
            message=message,
            status=status,
        )

        action_result.additional_properties = d
        return action_result

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


def _read_message(value: Any) -> str | Unset:
    message = value
    if not isinstance(message, str):
        raise TypeError
    return message


def _read_status(value: Any) -> str | Unset:
    status = value
    if not isinstance(status, str):
        raise TypeError
    return status


ActionResult.READERS = {
    "message": _read_message,
    "status": _read_status,
}
