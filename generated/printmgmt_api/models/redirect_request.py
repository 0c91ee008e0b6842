from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty
from printmgmt._model_runtime import read_key

T = TypeVar("T", bound="RedirectRequest")


@_attrs_define
class RedirectRequest:
    """Inferred - the target printer of a redirect.

    Attributes:
        printer_name (str):
    """

    printer_name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "printer_name": "printerName",
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
        printer_name = self.printer_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "printerName": printer_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"RedirectRequest must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        printer_name = read_key(d, "printerName", pop=True)

        redirect_request = cls(
            printer_name=printer_name,
        )

        redirect_request.additional_properties = d
        return redirect_request

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


RedirectRequest.READERS = {}
