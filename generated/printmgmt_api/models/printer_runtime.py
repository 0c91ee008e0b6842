from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import LENIENT_ERRORS, UNSET, Unset
from ..types import model_repr as _repr
from ..types import model_repr_pretty as _repr_pretty

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

    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "status": "status",
        "current_printing_job": "currentPrintingJob",
        "last_printed_job_time": "lastPrintedJobTime",
        "queued_jobs": "queuedJobs",
        "message": "message",
        "redirected_to": "redirectedTo",
    }

    def __repr__(self) -> str:
        return _repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython and Jupyter: repr(), one field a line when it does not fit."""
        _repr_pretty(self, p, cycle)

    def to_dict(self) -> dict[str, Any]:
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
        d = dict(src_dict)
        _wire_status = d.pop("status", UNSET)
        try:
            status = _wire_status
            if status is not UNSET and not isinstance(status, str):
                raise TypeError
        except LENIENT_ERRORS:
            status = UNSET
            d["status"] = _wire_status

        _wire_current_printing_job = d.pop("currentPrintingJob", UNSET)
        try:
            current_printing_job = _wire_current_printing_job
            if current_printing_job is not UNSET and not isinstance(current_printing_job, str):
                raise TypeError
        except LENIENT_ERRORS:
            current_printing_job = UNSET
            d["currentPrintingJob"] = _wire_current_printing_job

        _wire_last_printed_job_time = d.pop("lastPrintedJobTime", UNSET)
        try:
            last_printed_job_time = _wire_last_printed_job_time
            if last_printed_job_time is not UNSET and type(last_printed_job_time) is not int:
                raise TypeError
        except LENIENT_ERRORS:
            last_printed_job_time = UNSET
            d["lastPrintedJobTime"] = _wire_last_printed_job_time

        _wire_queued_jobs = d.pop("queuedJobs", UNSET)
        try:
            queued_jobs = _wire_queued_jobs
            if queued_jobs is not UNSET and type(queued_jobs) is not int:
                raise TypeError
        except LENIENT_ERRORS:
            queued_jobs = UNSET
            d["queuedJobs"] = _wire_queued_jobs

        _wire_message = d.pop("message", UNSET)
        try:
            message = _wire_message
            if message is not UNSET and not isinstance(message, str):
                raise TypeError
        except LENIENT_ERRORS:
            message = UNSET
            d["message"] = _wire_message

        _wire_redirected_to = d.pop("redirectedTo", UNSET)
        try:
            redirected_to = _wire_redirected_to
            if redirected_to is not UNSET and not isinstance(redirected_to, str):
                raise TypeError
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
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
