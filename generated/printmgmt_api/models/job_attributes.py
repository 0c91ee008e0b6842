from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset
from ..types import model_repr as _repr
from ..types import model_repr_pretty as _repr_pretty

T = TypeVar("T", bound="JobAttributes")


@_attrs_define
class JobAttributes:
    """Job attributes (`orig` as received, `current` as now). Times are epoch milliseconds.

    Attributes:
        source_host (str | Unset):
        user_name (str | Unset):
        job_name (str | Unset):
        file_name (str | Unset):
        printer_name (str | Unset):
        checkin_type (str | Unset):
        server (str | Unset):
        creator (str | Unset):
        arrived_time (int | Unset):
        checkin_time (int | Unset):
        file_size (int | Unset):
        copies (int | Unset):
        file_format (str | Unset):
    """

    source_host: str | Unset = UNSET
    user_name: str | Unset = UNSET
    job_name: str | Unset = UNSET
    file_name: str | Unset = UNSET
    printer_name: str | Unset = UNSET
    checkin_type: str | Unset = UNSET
    server: str | Unset = UNSET
    creator: str | Unset = UNSET
    arrived_time: int | Unset = UNSET
    checkin_time: int | Unset = UNSET
    file_size: int | Unset = UNSET
    copies: int | Unset = UNSET
    file_format: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        return _repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython and Jupyter: repr(), one field a line when it does not fit."""
        _repr_pretty(self, p, cycle)

    def to_dict(self) -> dict[str, Any]:
        source_host = self.source_host

        user_name = self.user_name

        job_name = self.job_name

        file_name = self.file_name

        printer_name = self.printer_name

        checkin_type = self.checkin_type

        server = self.server

        creator = self.creator

        arrived_time = self.arrived_time

        checkin_time = self.checkin_time

        file_size = self.file_size

        copies = self.copies

        file_format = self.file_format

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if source_host is not UNSET:
            field_dict["sourceHost"] = source_host
        if user_name is not UNSET:
            field_dict["userName"] = user_name
        if job_name is not UNSET:
            field_dict["jobName"] = job_name
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if printer_name is not UNSET:
            field_dict["printerName"] = printer_name
        if checkin_type is not UNSET:
            field_dict["checkinType"] = checkin_type
        if server is not UNSET:
            field_dict["server"] = server
        if creator is not UNSET:
            field_dict["creator"] = creator
        if arrived_time is not UNSET:
            field_dict["arrivedTime"] = arrived_time
        if checkin_time is not UNSET:
            field_dict["checkinTime"] = checkin_time
        if file_size is not UNSET:
            field_dict["fileSize"] = file_size
        if copies is not UNSET:
            field_dict["copies"] = copies
        if file_format is not UNSET:
            field_dict["fileFormat"] = file_format

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source_host = d.pop("sourceHost", UNSET)

        user_name = d.pop("userName", UNSET)

        job_name = d.pop("jobName", UNSET)

        file_name = d.pop("fileName", UNSET)

        printer_name = d.pop("printerName", UNSET)

        checkin_type = d.pop("checkinType", UNSET)

        server = d.pop("server", UNSET)

        creator = d.pop("creator", UNSET)

        arrived_time = d.pop("arrivedTime", UNSET)

        checkin_time = d.pop("checkinTime", UNSET)

        file_size = d.pop("fileSize", UNSET)

        copies = d.pop("copies", UNSET)

        file_format = d.pop("fileFormat", UNSET)

        job_attributes = cls(
            source_host=source_host,
            user_name=user_name,
            job_name=job_name,
            file_name=file_name,
            printer_name=printer_name,
            checkin_type=checkin_type,
            server=server,
            creator=creator,
            arrived_time=arrived_time,
            checkin_time=checkin_time,
            file_size=file_size,
            copies=copies,
            file_format=file_format,
        )

        job_attributes.additional_properties = d
        return job_attributes

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
