from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..field_catalog import epoch_ms_datetime as _epoch_ms_datetime
from ..types import UNSET, Unset

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

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "source_host": "sourceHost",
        "user_name": "userName",
        "job_name": "jobName",
        "file_name": "fileName",
        "printer_name": "printerName",
        "checkin_type": "checkinType",
        "server": "server",
        "creator": "creator",
        "arrived_time": "arrivedTime",
        "checkin_time": "checkinTime",
        "file_size": "fileSize",
        "copies": "copies",
        "file_format": "fileFormat",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = ()
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = ()

    @property
    def arrived_time_utc(self) -> datetime | None:
        """``arrived_time`` (``arrivedTime``, epoch milliseconds) as an aware UTC datetime;
        ``None`` when it is unset, null or ``0`` (the server's "never"). ``arrived_time`` keeps the wire value."""
        return _epoch_ms_datetime(self.arrived_time)

    @property
    def checkin_time_utc(self) -> datetime | None:
        """``checkin_time`` (``checkinTime``, epoch milliseconds) as an aware UTC datetime;
        ``None`` when it is unset, null or ``0`` (the server's "never"). ``checkin_time`` keeps the wire value."""
        return _epoch_ms_datetime(self.checkin_time)

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
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"JobAttributes must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_source_host = d.pop("sourceHost", UNSET)
        if _wire_source_host is UNSET:
            source_host = UNSET
        else:
            try:
                source_host = _read_source_host(_wire_source_host)
            except LENIENT_ERRORS:
                source_host = UNSET
                d["sourceHost"] = _wire_source_host

        _wire_user_name = d.pop("userName", UNSET)
        if _wire_user_name is UNSET:
            user_name = UNSET
        else:
            try:
                user_name = _read_user_name(_wire_user_name)
            except LENIENT_ERRORS:
                user_name = UNSET
                d["userName"] = _wire_user_name

        _wire_job_name = d.pop("jobName", UNSET)
        if _wire_job_name is UNSET:
            job_name = UNSET
        else:
            try:
                job_name = _read_job_name(_wire_job_name)
            except LENIENT_ERRORS:
                job_name = UNSET
                d["jobName"] = _wire_job_name

        _wire_file_name = d.pop("fileName", UNSET)
        if _wire_file_name is UNSET:
            file_name = UNSET
        else:
            try:
                file_name = _read_file_name(_wire_file_name)
            except LENIENT_ERRORS:
                file_name = UNSET
                d["fileName"] = _wire_file_name

        _wire_printer_name = d.pop("printerName", UNSET)
        if _wire_printer_name is UNSET:
            printer_name = UNSET
        else:
            try:
                printer_name = _read_printer_name(_wire_printer_name)
            except LENIENT_ERRORS:
                printer_name = UNSET
                d["printerName"] = _wire_printer_name

        _wire_checkin_type = d.pop("checkinType", UNSET)
        if _wire_checkin_type is UNSET:
            checkin_type = UNSET
        else:
            try:
                checkin_type = _read_checkin_type(_wire_checkin_type)
            except LENIENT_ERRORS:
                checkin_type = UNSET
                d["checkinType"] = _wire_checkin_type

        _wire_server = d.pop("server", UNSET)
        if _wire_server is UNSET:
            server = UNSET
        else:
            try:
                server = _read_server(_wire_server)
            except LENIENT_ERRORS:
                server = UNSET
                d["server"] = _wire_server

        _wire_creator = d.pop("creator", UNSET)
        if _wire_creator is UNSET:
            creator = UNSET
        else:
            try:
                creator = _read_creator(_wire_creator)
            except LENIENT_ERRORS:
                creator = UNSET
                d["creator"] = _wire_creator

        _wire_arrived_time = d.pop("arrivedTime", UNSET)
        if _wire_arrived_time is UNSET:
            arrived_time = UNSET
        else:
            try:
                arrived_time = _read_arrived_time(_wire_arrived_time)
            except LENIENT_ERRORS:
                arrived_time = UNSET
                d["arrivedTime"] = _wire_arrived_time

        _wire_checkin_time = d.pop("checkinTime", UNSET)
        if _wire_checkin_time is UNSET:
            checkin_time = UNSET
        else:
            try:
                checkin_time = _read_checkin_time(_wire_checkin_time)
            except LENIENT_ERRORS:
                checkin_time = UNSET
                d["checkinTime"] = _wire_checkin_time

        _wire_file_size = d.pop("fileSize", UNSET)
        if _wire_file_size is UNSET:
            file_size = UNSET
        else:
            try:
                file_size = _read_file_size(_wire_file_size)
            except LENIENT_ERRORS:
                file_size = UNSET
                d["fileSize"] = _wire_file_size

        _wire_copies = d.pop("copies", UNSET)
        if _wire_copies is UNSET:
            copies = UNSET
        else:
            try:
                copies = _read_copies(_wire_copies)
            except LENIENT_ERRORS:
                copies = UNSET
                d["copies"] = _wire_copies

        _wire_file_format = d.pop("fileFormat", UNSET)
        if _wire_file_format is UNSET:
            file_format = UNSET
        else:
            try:
                file_format = _read_file_format(_wire_file_format)
            except LENIENT_ERRORS:
                file_format = UNSET
                d["fileFormat"] = _wire_file_format

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


def _read_source_host(value: Any) -> str | Unset:
    source_host = value
    if not isinstance(source_host, str):
        raise TypeError
    return source_host


def _read_user_name(value: Any) -> str | Unset:
    user_name = value
    if not isinstance(user_name, str):
        raise TypeError
    return user_name


def _read_job_name(value: Any) -> str | Unset:
    job_name = value
    if not isinstance(job_name, str):
        raise TypeError
    return job_name


def _read_file_name(value: Any) -> str | Unset:
    file_name = value
    if not isinstance(file_name, str):
        raise TypeError
    return file_name


def _read_printer_name(value: Any) -> str | Unset:
    printer_name = value
    if not isinstance(printer_name, str):
        raise TypeError
    return printer_name


def _read_checkin_type(value: Any) -> str | Unset:
    checkin_type = value
    if not isinstance(checkin_type, str):
        raise TypeError
    return checkin_type


def _read_server(value: Any) -> str | Unset:
    server = value
    if not isinstance(server, str):
        raise TypeError
    return server


def _read_creator(value: Any) -> str | Unset:
    creator = value
    if not isinstance(creator, str):
        raise TypeError
    return creator


def _read_arrived_time(value: Any) -> int | Unset:
    arrived_time = value
    if type(arrived_time) is not int:
        raise TypeError
    return arrived_time


def _read_checkin_time(value: Any) -> int | Unset:
    checkin_time = value
    if type(checkin_time) is not int:
        raise TypeError
    return checkin_time


def _read_file_size(value: Any) -> int | Unset:
    file_size = value
    if type(file_size) is not int:
        raise TypeError
    return file_size


def _read_copies(value: Any) -> int | Unset:
    copies = value
    if type(copies) is not int:
        raise TypeError
    return copies


def _read_file_format(value: Any) -> str | Unset:
    file_format = value
    if not isinstance(file_format, str):
        raise TypeError
    return file_format


JobAttributes.READERS = {
    "source_host": _read_source_host,
    "user_name": _read_user_name,
    "job_name": _read_job_name,
    "file_name": _read_file_name,
    "printer_name": _read_printer_name,
    "checkin_type": _read_checkin_type,
    "server": _read_server,
    "creator": _read_creator,
    "arrived_time": _read_arrived_time,
    "checkin_time": _read_checkin_time,
    "file_size": _read_file_size,
    "copies": _read_copies,
    "file_format": _read_file_format,
}
