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

T = TypeVar("T", bound="PageDetail")


@_attrs_define
class PageDetail:
    """
    Attributes:
        page (int | Unset):
        pagesize (str | Unset): "<w_pt> <h_pt>", e.g. "595 842".
        orientation (str | Unset):
        color_model (str | Unset):
    """

    page: int | Unset = UNSET
    pagesize: str | Unset = UNSET
    orientation: str | Unset = UNSET
    color_model: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "page": "page",
        "pagesize": "PAGESIZE",
        "orientation": "ORIENTATION",
        "color_model": "COLOR_MODEL",
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
        page = self.page

        pagesize = self.pagesize

        orientation = self.orientation

        color_model = self.color_model

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if page is not UNSET:
            field_dict["page"] = page
        if pagesize is not UNSET:
            field_dict["PAGESIZE"] = pagesize
        if orientation is not UNSET:
            field_dict["ORIENTATION"] = orientation
        if color_model is not UNSET:
            field_dict["COLOR_MODEL"] = color_model

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"PageDetail must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_page = d.pop("page", UNSET)
        if _wire_page is UNSET:
            page = UNSET
        else:
            try:
                page = _read_page(_wire_page)
            except LENIENT_ERRORS:
                page = UNSET
                d["page"] = _wire_page

        _wire_pagesize = d.pop("PAGESIZE", UNSET)
        if _wire_pagesize is UNSET:
            pagesize = UNSET
        else:
            try:
                pagesize = _read_pagesize(_wire_pagesize)
            except LENIENT_ERRORS:
                pagesize = UNSET
                d["PAGESIZE"] = _wire_pagesize

        _wire_orientation = d.pop("ORIENTATION", UNSET)
        if _wire_orientation is UNSET:
            orientation = UNSET
        else:
            try:
                orientation = _read_orientation(_wire_orientation)
            except LENIENT_ERRORS:
                orientation = UNSET
                d["ORIENTATION"] = _wire_orientation

        _wire_color_model = d.pop("COLOR_MODEL", UNSET)
        if _wire_color_model is UNSET:
            color_model = UNSET
        else:
            try:
                color_model = _read_color_model(_wire_color_model)
            except LENIENT_ERRORS:
                color_model = UNSET
                d["COLOR_MODEL"] = _wire_color_model

        page_detail = cls(
            page=page,
            pagesize=pagesize,
            orientation=orientation,
            color_model=color_model,
        )

        page_detail.additional_properties = d
        return page_detail

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


def _read_page(value: Any) -> int | Unset:
    page = value
    if type(page) is not int:
        raise TypeError
    return page


def _read_pagesize(value: Any) -> str | Unset:
    pagesize = value
    if not isinstance(pagesize, str):
        raise TypeError
    return pagesize


def _read_orientation(value: Any) -> str | Unset:
    orientation = value
    if not isinstance(orientation, str):
        raise TypeError
    return orientation


def _read_color_model(value: Any) -> str | Unset:
    color_model = value
    if not isinstance(color_model, str):
        raise TypeError
    return color_model


PageDetail.READERS = {
    "page": _read_page,
    "pagesize": _read_pagesize,
    "orientation": _read_orientation,
    "color_model": _read_color_model,
}
