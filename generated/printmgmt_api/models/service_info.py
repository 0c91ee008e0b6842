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

T = TypeVar("T", bound="ServiceInfo")


@_attrs_define
class ServiceInfo:
    """Inferred - an open object describing the service or interface version.

    Example:
        {'name': 'seal-rest', 'version': '11.2.0'}

    Attributes:
        name (str | Unset):
        version (str | Unset):
    """

    name: str | Unset = UNSET
    version: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "name": "name",
        "version": "version",
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

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"ServiceInfo must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_name = d.pop("name", UNSET)
        if _wire_name is UNSET:
            name = UNSET
        else:
            try:
                name = _read_name(_wire_name)
            except LENIENT_ERRORS:
                name = UNSET
                d["name"] = _wire_name

        _wire_version = d.pop("version", UNSET)
        if _wire_version is UNSET:
            version = UNSET
        else:
            try:
                version = _read_version(_wire_version)
            except LENIENT_ERRORS:
                version = UNSET
                d["version"] = _wire_version

        service_info = cls(
            name=name,
            version=version,
        )

        service_info.additional_properties = d
        return service_info

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


def _read_name(value: Any) -> str | Unset:
    name = value
    if not isinstance(name, str):
        raise TypeError
    return name


def _read_version(value: Any) -> str | Unset:
    version = value
    if not isinstance(version, str):
        raise TypeError
    return version


ServiceInfo.READERS = {
    "name": _read_name,
    "version": _read_version,
}
