from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import LENIENT_ERRORS, UNSET, Unset
from ..types import model_repr as _repr
from ..types import model_repr_pretty as _repr_pretty

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

    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "file_name": "fileName",
        "mime_type": "mimeType",
        "created_by": "createdBy",
        "created_at": "createdAt",
        "context": "context",
    }

    def __repr__(self) -> str:
        return _repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython and Jupyter: repr(), one field a line when it does not fit."""
        _repr_pretty(self, p, cycle)

    def to_dict(self) -> dict[str, Any]:
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
        from ..models.job_stage_context import JobStageContext  # noqa: PLC0415

        d = dict(src_dict)
        _wire_file_name = d.pop("fileName", UNSET)
        try:
            file_name = _wire_file_name
            if file_name is not UNSET and not isinstance(file_name, str):
                raise TypeError
        except LENIENT_ERRORS:
            file_name = UNSET
            d["fileName"] = _wire_file_name

        _wire_mime_type = d.pop("mimeType", UNSET)
        try:
            mime_type = _wire_mime_type
            if mime_type is not UNSET and not isinstance(mime_type, str):
                raise TypeError
        except LENIENT_ERRORS:
            mime_type = UNSET
            d["mimeType"] = _wire_mime_type

        _wire_created_by = d.pop("createdBy", UNSET)
        try:
            created_by = _wire_created_by
            if created_by is not UNSET and not isinstance(created_by, str):
                raise TypeError
        except LENIENT_ERRORS:
            created_by = UNSET
            d["createdBy"] = _wire_created_by

        _wire_created_at = d.pop("createdAt", UNSET)
        try:
            created_at = _wire_created_at
            if created_at is not UNSET and type(created_at) is not int:
                raise TypeError
        except LENIENT_ERRORS:
            created_at = UNSET
            d["createdAt"] = _wire_created_at

        _wire_context = d.pop("context", UNSET)
        try:
            _context = _wire_context
            context: JobStageContext | Unset
            if isinstance(_context, Unset):
                context = UNSET
            else:
                context = JobStageContext.from_dict(_context)

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
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
