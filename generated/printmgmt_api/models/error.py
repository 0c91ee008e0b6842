from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_metadata import ErrorMetadata


T = TypeVar("T", bound="Error")


@_attrs_define
class Error:
    """Error body of `@sealsystems/failure` / `SealError`; the server may send plain text instead.

    Example:
        {'code': 'ERR_NOT_FOUND', 'message': 'Not Found', 'metadata': {}}

    Attributes:
        code (str | Unset): Error code, e.g. `ERR_...`.
        message (str | Unset):
        name (str | Unset):
        http_status_code (int | Unset):
        metadata (ErrorMetadata | Unset): Free-form error details, e.g. `kbCode`.
    """

    code: str | Unset = UNSET
    message: str | Unset = UNSET
    name: str | Unset = UNSET
    http_status_code: int | Unset = UNSET
    metadata: ErrorMetadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "code": "code",
        "message": "message",
        "name": "name",
        "http_status_code": "httpStatusCode",
        "metadata": "metadata",
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
        code = self.code

        message = self.message

        name = self.name

        http_status_code = self.http_status_code

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if code is not UNSET:
            field_dict["code"] = code
        if message is not UNSET:
            field_dict["message"] = message
        if name is not UNSET:
            field_dict["name"] = name
        if http_status_code is not UNSET:
            field_dict["httpStatusCode"] = http_status_code
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"Error must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_code = d.pop("code", UNSET)
        if _wire_code is UNSET:
            code = UNSET
        else:
            try:
                code = _read_code(_wire_code)
            except LENIENT_ERRORS:
                code = UNSET
                d["code"] = _wire_code

        _wire_message = d.pop("message", UNSET)
        if _wire_message is UNSET:
            message = UNSET
        else:
            try:
                message = _read_message(_wire_message)
            except LENIENT_ERRORS:
                message = UNSET
                d["message"] = _wire_message

        _wire_name = d.pop("name", UNSET)
        if _wire_name is UNSET:
            name = UNSET
        else:
            try:
                name = _read_name(_wire_name)
            except LENIENT_ERRORS:
                name = UNSET
                d["name"] = _wire_name

        _wire_http_status_code = d.pop("httpStatusCode", UNSET)
        if _wire_http_status_code is UNSET:
            http_status_code = UNSET
        else:
            try:
                http_status_code = _read_http_status_code(_wire_http_status_code)
            except LENIENT_ERRORS:
                http_status_code = UNSET
                d["httpStatusCode"] = _wire_http_status_code

        _wire_metadata = d.pop("metadata", UNSET)
        if _wire_metadata is UNSET:
            metadata = UNSET
        else:
            try:
                metadata = _read_metadata(_wire_metadata)
            except LENIENT_ERRORS:
                metadata = UNSET
                d["metadata"] = _wire_metadata

        error = cls(
            code=code,
            message=message,
            name=name,
            http_status_code=http_status_code,
            metadata=metadata,
        )

        error.additional_properties = d
        return error

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


def _read_code(value: Any) -> str | Unset:
    code = value
    if not isinstance(code, str):
        raise TypeError
    return code


def _read_message(value: Any) -> str | Unset:
    message = value
    if not isinstance(message, str):
        raise TypeError
    return message


def _read_name(value: Any) -> str | Unset:
    name = value
    if not isinstance(name, str):
        raise TypeError
    return name


def _read_http_status_code(value: Any) -> int | Unset:
    http_status_code = value
    if type(http_status_code) is not int:
        raise TypeError
    return http_status_code


def _read_metadata(value: Any) -> ErrorMetadata | Unset:
    from ..models.error_metadata import ErrorMetadata  # noqa: PLC0415

    _metadata = value
    metadata: ErrorMetadata | Unset
    if isinstance(_metadata, Unset):
        metadata = UNSET
    else:
        metadata = ErrorMetadata.from_dict(_metadata)

    return metadata


Error.READERS = {
    "code": _read_code,
    "message": _read_message,
    "name": _read_name,
    "http_status_code": _read_http_status_code,
    "metadata": _read_metadata,
}
