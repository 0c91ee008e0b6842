from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..field_catalog import epoch_ms_datetime as _epoch_ms_datetime
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_stage_context import JobStageContext


T = TypeVar("T", bound="JobStage")


@_attrs_define
class JobStage:
    """One step of a job's processing history.

    Attributes:
        file_name (str | Unset):
        mime_type (str | Unset):
        created_by (str | Unset):
        created_at (int | Unset): Epoch milliseconds.
        context (JobStageContext | Unset):
    """

    file_name: str | Unset = UNSET
    mime_type: str | Unset = UNSET
    created_by: str | Unset = UNSET
    created_at: int | Unset = UNSET
    context: JobStageContext | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "file_name": "fileName",
        "mime_type": "mimeType",
        "created_by": "createdBy",
        "created_at": "createdAt",
        "context": "context",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = ()
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = ()

    @property
    def created_at_utc(self) -> datetime | None:
        """``created_at`` (``createdAt``, epoch milliseconds) as an aware UTC datetime;
        ``None`` when it is unset, null or ``0`` (the server's "never"). ``created_at`` keeps the wire value."""
        return _epoch_ms_datetime(self.created_at)

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
        file_name = self.file_name

        mime_type = self.mime_type

        created_by = self.created_by

        created_at = self.created_at

        context: dict[str, Any] | Unset = UNSET
        if not isinstance(self.context, Unset):
            context = self.context.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type
        if created_by is not UNSET:
            field_dict["createdBy"] = created_by
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if context is not UNSET:
            field_dict["context"] = context

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"JobStage must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_file_name = d.pop("fileName", UNSET)
        if _wire_file_name is UNSET:
            file_name = UNSET
        else:
            try:
                file_name = _read_file_name(_wire_file_name)
            except LENIENT_ERRORS:
                file_name = UNSET
                d["fileName"] = _wire_file_name

        _wire_mime_type = d.pop("mimeType", UNSET)
        if _wire_mime_type is UNSET:
            mime_type = UNSET
        else:
            try:
                mime_type = _read_mime_type(_wire_mime_type)
            except LENIENT_ERRORS:
                mime_type = UNSET
                d["mimeType"] = _wire_mime_type

        _wire_created_by = d.pop("createdBy", UNSET)
        if _wire_created_by is UNSET:
            created_by = UNSET
        else:
            try:
                created_by = _read_created_by(_wire_created_by)
            except LENIENT_ERRORS:
                created_by = UNSET
                d["createdBy"] = _wire_created_by

        _wire_created_at = d.pop("createdAt", UNSET)
        if _wire_created_at is UNSET:
            created_at = UNSET
        else:
            try:
                created_at = _read_created_at(_wire_created_at)
            except LENIENT_ERRORS:
                created_at = UNSET
                d["createdAt"] = _wire_created_at

        _wire_context = d.pop("context", UNSET)
        if _wire_context is UNSET:
            context = UNSET
        else:
            try:
                context = _read_context(_wire_context)
            except LENIENT_ERRORS:
                context = UNSET
                d["context"] = _wire_context

        job_stage = cls(
            file_name=file_name,
            mime_type=mime_type,
            created_by=created_by,
            created_at=created_at,
            context=context,
        )

        job_stage.additional_properties = d
        return job_stage

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


def _read_file_name(value: Any) -> str | Unset:
    file_name = value
    if not isinstance(file_name, str):
        raise TypeError
    return file_name


def _read_mime_type(value: Any) -> str | Unset:
    mime_type = value
    if not isinstance(mime_type, str):
        raise TypeError
    return mime_type


def _read_created_by(value: Any) -> str | Unset:
    created_by = value
    if not isinstance(created_by, str):
        raise TypeError
    return created_by


def _read_created_at(value: Any) -> int | Unset:
    created_at = value
    if type(created_at) is not int:
        raise TypeError
    return created_at


def _read_context(value: Any) -> JobStageContext | Unset:
    from ..models.job_stage_context import JobStageContext  # noqa: PLC0415

    _context = value
    context: JobStageContext | Unset
    if isinstance(_context, Unset):
        context = UNSET
    else:
        context = JobStageContext.from_dict(_context)

    return context


JobStage.READERS = {
    "file_name": _read_file_name,
    "mime_type": _read_mime_type,
    "created_by": _read_created_by,
    "created_at": _read_created_at,
    "context": _read_context,
}
