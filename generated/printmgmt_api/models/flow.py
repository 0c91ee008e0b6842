from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS, read_key
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..types import UNSET, Unset

T = TypeVar("T", bound="Flow")


@_attrs_define
class Flow:
    """Inferred - a named processing flow (JavaScript source run by seal-convert-dispatcher).

    Example:
        {'name': 'main', 'type': 'custom', 'source': 'def main() {}'}

    Attributes:
        name (str): The key; `_id` when `name` is missing (flows live in MongoDB like printers).
        type_ (str | Unset): `standard` or `custom`.
        source (str | Unset): Source code of the flow.
    """

    name: str
    type_: str | Unset = UNSET
    source: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {
        "name": "_id",
    }
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "name": "name",
        "type_": "type",
        "source": "source",
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
        name = self.name

        type_ = self.type_

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"Flow must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        name = read_key(d, "name", "_id", pop=True)

        _wire_type_ = d.pop("type", UNSET)
        if _wire_type_ is UNSET:
            type_ = UNSET
        else:
            try:
                type_ = _read_type_(_wire_type_)
            except LENIENT_ERRORS:
                type_ = UNSET
                d["type"] = _wire_type_

        _wire_source = d.pop("source", UNSET)
        if _wire_source is UNSET:
            source = UNSET
        else:
            try:
                source = _read_source(_wire_source)
            except LENIENT_ERRORS:
                source = UNSET
                d["source"] = _wire_source

        flow = cls(
            name=name,
            type_=type_,
            source=source,
        )

        flow.additional_properties = d
        return flow

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


def _read_type_(value: Any) -> str | Unset:
    type_ = value
    if not isinstance(type_, str):
        raise TypeError
    return type_


def _read_source(value: Any) -> str | Unset:
    source = value
    if not isinstance(source, str):
        raise TypeError
    return source


Flow.READERS = {
    "type_": _read_type_,
    "source": _read_source,
}
