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

T = TypeVar("T", bound="PrinterRuntime")


@_attrs_define
class PrinterRuntime:
    """Runtime state of a printer. `status` is open (only `idle` is documented).

    Attributes:
        status (str | Unset):
        current_printing_job (str | Unset):
        last_printed_job_time (int | Unset): Epoch milliseconds.
        queued_jobs (int | Unset):
        message (str | Unset): Inferred - the operator message.
        redirected_to (str | Unset): Inferred - target printer of a redirect.
    """

    status: str | Unset = UNSET
    current_printing_job: str | Unset = UNSET
    last_printed_job_time: int | Unset = UNSET
    queued_jobs: int | Unset = UNSET
    message: str | Unset = UNSET
    redirected_to: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "status": "status",
        "current_printing_job": "currentPrintingJob",
        "last_printed_job_time": "lastPrintedJobTime",
        "queued_jobs": "queuedJobs",
        "message": "message",
        "redirected_to": "redirectedTo",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = ()
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = ()

    @property
    def last_printed_job_time_utc(self) -> datetime | None:
        """``last_printed_job_time`` (``lastPrintedJobTime``, epoch milliseconds) as an aware UTC datetime;
        ``None`` when it is unset, null or ``0`` (the server's "never"). ``last_printed_job_time`` keeps the wire value."""
        return _epoch_ms_datetime(self.last_printed_job_time)

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
        status = self.status

        current_printing_job = self.current_printing_job

        last_printed_job_time = self.last_printed_job_time

        queued_jobs = self.queued_jobs

        message = self.message

        redirected_to = self.redirected_to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if current_printing_job is not UNSET:
            field_dict["currentPrintingJob"] = current_printing_job
        if last_printed_job_time is not UNSET:
            field_dict["lastPrintedJobTime"] = last_printed_job_time
        if queued_jobs is not UNSET:
            field_dict["queuedJobs"] = queued_jobs
        if message is not UNSET:
            field_dict["message"] = message
        if redirected_to is not UNSET:
            field_dict["redirectedTo"] = redirected_to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"PrinterRuntime must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_status = d.pop("status", UNSET)
        if _wire_status is UNSET:
            status = UNSET
        else:
            try:
                status = _read_status(_wire_status)
            except LENIENT_ERRORS:
                status = UNSET
                d["status"] = _wire_status

        _wire_current_printing_job = d.pop("currentPrintingJob", UNSET)
        if _wire_current_printing_job is UNSET:
            current_printing_job = UNSET
        else:
            try:
                current_printing_job = _read_current_printing_job(_wire_current_printing_job)
            except LENIENT_ERRORS:
                current_printing_job = UNSET
                d["currentPrintingJob"] = _wire_current_printing_job

        _wire_last_printed_job_time = d.pop("lastPrintedJobTime", UNSET)
        if _wire_last_printed_job_time is UNSET:
            last_printed_job_time = UNSET
        else:
            try:
                last_printed_job_time = _read_last_printed_job_time(_wire_last_printed_job_time)
            except LENIENT_ERRORS:
                last_printed_job_time = UNSET
                d["lastPrintedJobTime"] = _wire_last_printed_job_time

        _wire_queued_jobs = d.pop("queuedJobs", UNSET)
        if _wire_queued_jobs is UNSET:
            queued_jobs = UNSET
        else:
            try:
                queued_jobs = _read_queued_jobs(_wire_queued_jobs)
            except LENIENT_ERRORS:
                queued_jobs = UNSET
                d["queuedJobs"] = _wire_queued_jobs

        _wire_message = d.pop("message", UNSET)
        if _wire_message is UNSET:
            message = UNSET
        else:
            try:
                message = _read_message(_wire_message)
            except LENIENT_ERRORS:
                message = UNSET
                d["message"] = _wire_message

        _wire_redirected_to = d.pop("redirectedTo", UNSET)
        if _wire_redirected_to is UNSET:
            redirected_to = UNSET
        else:
            try:
                redirected_to = _read_redirected_to(_wire_redirected_to)
            except LENIENT_ERRORS:
                redirected_to = UNSET
                d["redirectedTo"] = _wire_redirected_to

        printer_runtime = cls(
            status=status,
            current_printing_job=current_printing_job,
            last_printed_job_time=last_printed_job_time,
            queued_jobs=queued_jobs,
            message=message,
            redirected_to=redirected_to,
        )

        printer_runtime.additional_properties = d
        return printer_runtime

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


def _read_status(value: Any) -> str | Unset:
    status = value
    if not isinstance(status, str):
        raise TypeError
    return status


def _read_current_printing_job(value: Any) -> str | Unset:
    current_printing_job = value
    if not isinstance(current_printing_job, str):
        raise TypeError
    return current_printing_job


def _read_last_printed_job_time(value: Any) -> int | Unset:
    last_printed_job_time = value
    if type(last_printed_job_time) is not int:
        raise TypeError
    return last_printed_job_time


def _read_queued_jobs(value: Any) -> int | Unset:
    queued_jobs = value
    if type(queued_jobs) is not int:
        raise TypeError
    return queued_jobs


def _read_message(value: Any) -> str | Unset:
    message = value
    if not isinstance(message, str):
        raise TypeError
    return message


def _read_redirected_to(value: Any) -> str | Unset:
    redirected_to = value
    if not isinstance(redirected_to, str):
        raise TypeError
    return redirected_to


PrinterRuntime.READERS = {
    "status": _read_status,
    "current_printing_job": _read_current_printing_job,
    "last_printed_job_time": _read_last_printed_job_time,
    "queued_jobs": _read_queued_jobs,
    "message": _read_message,
    "redirected_to": _read_redirected_to,
}
