from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS, read_key
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..models.job_status import JobStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_attributes import JobAttributes
    from ..models.job_stage import JobStage


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """A print job (the server's job document, projected by `$select`).

    Example:
        {'_id': 'myJobId123', 'status': 'WaitProcessing', 'refId': '48727e72', 'fileName':
            ['0b6f5c1e-6f0e-4d6a-9a8e-3f1f3c2b1a00'], 'orig': {'userName': 'tol', 'jobName': '5Bgb', 'printerName':
            'printer1', 'checkinTime': 1608280547459, 'copies': 1}, 'current': {'userName': 'tol', 'jobName': '5Bgb',
            'printerName': 'printer1', 'checkinTime': 1608280547459, 'copies': 1, 'fileFormat': 'application/postscript'},
            'stages': [{'fileName': '0b6f5c1e-6f0e-4d6a-9a8e-3f1f3c2b1a00', 'mimeType': 'application/pdf', 'createdBy':
            'checkin', 'createdAt': 1608280547460}]}

    Attributes:
        id (str): The key; `id` when `_id` is missing.
        status (JobStatus | Unset): Job status. Open - values the SDK does not know are kept, not rejected.
        ref_id (str | Unset):
        file_name (list[str] | Unset):
        orig (JobAttributes | Unset): Job attributes (`orig` as received, `current` as now). Times are epoch
            milliseconds.
        current (JobAttributes | Unset): Job attributes (`orig` as received, `current` as now). Times are epoch
            milliseconds.
        lc_current (JobAttributes | Unset): Job attributes (`orig` as received, `current` as now). Times are epoch
            milliseconds.
        stages (list[JobStage] | Unset):
    """

    id: str
    status: JobStatus | Unset = UNSET
    ref_id: str | Unset = UNSET
    file_name: list[str] | Unset = UNSET
    orig: JobAttributes | Unset = UNSET
    current: JobAttributes | Unset = UNSET
    lc_current: JobAttributes | Unset = UNSET
    stages: list[JobStage] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {
        "_id": "id",
    }
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "id": "_id",
        "status": "status",
        "ref_id": "refId",
        "file_name": "fileName",
        "orig": "orig",
        "current": "current",
        "lc_current": "lcCurrent",
        "stages": "stages",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = (
        "_id",
        "status",
        "current/printerName",
        "current/jobName",
        "current/checkinTime",
    )
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = (
        "_id",
        "status",
        "current/printerName",
        "current/checkinTime",
    )

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
        id = self.id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        ref_id = self.ref_id

        file_name: list[str] | Unset = UNSET
        if not isinstance(self.file_name, Unset):
            file_name = self.file_name

        orig: dict[str, Any] | Unset = UNSET
        if not isinstance(self.orig, Unset):
            orig = self.orig.to_dict()

        current: dict[str, Any] | Unset = UNSET
        if not isinstance(self.current, Unset):
            current = self.current.to_dict()

        lc_current: dict[str, Any] | Unset = UNSET
        if not isinstance(self.lc_current, Unset):
            lc_current = self.lc_current.to_dict()

        stages: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.stages, Unset):
            stages = []
            for stages_item_data in self.stages:
                stages_item = stages_item_data.to_dict()
                stages.append(stages_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": id,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status
        if ref_id is not UNSET:
            field_dict["refId"] = ref_id
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if orig is not UNSET:
            field_dict["orig"] = orig
        if current is not UNSET:
            field_dict["current"] = current
        if lc_current is not UNSET:
            field_dict["lcCurrent"] = lc_current
        if stages is not UNSET:
            field_dict["stages"] = stages

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"Job must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        id = read_key(d, "_id", "id", pop=True)

        _wire_status = d.pop("status", UNSET)
        if _wire_status is UNSET:
            status = UNSET
        else:
            try:
                status = _read_status(_wire_status)
            except LENIENT_ERRORS:
                status = UNSET
                d["status"] = _wire_status

        _wire_ref_id = d.pop("refId", UNSET)
        if _wire_ref_id is UNSET:
            ref_id = UNSET
        else:
            try:
                ref_id = _read_ref_id(_wire_ref_id)
            except LENIENT_ERRORS:
                ref_id = UNSET
                d["refId"] = _wire_ref_id

        _wire_file_name = d.pop("fileName", UNSET)
        if _wire_file_name is UNSET:
            file_name = UNSET
        else:
            try:
                file_name = _read_file_name(_wire_file_name)
            except LENIENT_ERRORS:
                file_name = UNSET
                d["fileName"] = _wire_file_name

        _wire_orig = d.pop("orig", UNSET)
        if _wire_orig is UNSET:
            orig = UNSET
        else:
            try:
                orig = _read_orig(_wire_orig)
            except LENIENT_ERRORS:
                orig = UNSET
                d["orig"] = _wire_orig

        _wire_current = d.pop("current", UNSET)
        if _wire_current is UNSET:
            current = UNSET
        else:
            try:
                current = _read_current(_wire_current)
            except LENIENT_ERRORS:
                current = UNSET
                d["current"] = _wire_current

        _wire_lc_current = d.pop("lcCurrent", UNSET)
        if _wire_lc_current is UNSET:
            lc_current = UNSET
        else:
            try:
                lc_current = _read_lc_current(_wire_lc_current)
            except LENIENT_ERRORS:
                lc_current = UNSET
                d["lcCurrent"] = _wire_lc_current

        _wire_stages = d.pop("stages", UNSET)
        if _wire_stages is UNSET:
            stages = UNSET
        else:
            try:
                stages = _read_stages(_wire_stages)
            except LENIENT_ERRORS:
                stages = UNSET
                d["stages"] = _wire_stages

        job = cls(
            id=id,
            status=status,
            ref_id=ref_id,
            file_name=file_name,
            orig=orig,
            current=current,
            lc_current=lc_current,
            stages=stages,
        )

        job.additional_properties = d
        return job

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


def _read_status(value: Any) -> JobStatus | Unset:
    _status = value
    status: JobStatus | Unset
    if isinstance(_status, Unset):
        status = UNSET
    else:
        status = JobStatus(_status)

    return status


def _read_ref_id(value: Any) -> str | Unset:
    ref_id = value
    if not isinstance(ref_id, str):
        raise TypeError
    return ref_id


def _read_file_name(value: Any) -> list[str] | Unset:
    if not isinstance(value, list):  # iterating a dict or a string would read it as some list
        raise TypeError
    file_name = cast(list[str], value)

    if not (isinstance(file_name, list) and all(isinstance(v, str) for v in file_name)):
        raise TypeError
    return file_name


def _read_orig(value: Any) -> JobAttributes | Unset:
    from ..models.job_attributes import JobAttributes  # noqa: PLC0415

    _orig = value
    orig: JobAttributes | Unset
    if isinstance(_orig, Unset):
        orig = UNSET
    else:
        orig = JobAttributes.from_dict(_orig)

    return orig


def _read_current(value: Any) -> JobAttributes | Unset:
    from ..models.job_attributes import JobAttributes  # noqa: PLC0415

    _current = value
    current: JobAttributes | Unset
    if isinstance(_current, Unset):
        current = UNSET
    else:
        current = JobAttributes.from_dict(_current)

    return current


def _read_lc_current(value: Any) -> JobAttributes | Unset:
    from ..models.job_attributes import JobAttributes  # noqa: PLC0415

    _lc_current = value
    lc_current: JobAttributes | Unset
    if isinstance(_lc_current, Unset):
        lc_current = UNSET
    else:
        lc_current = JobAttributes.from_dict(_lc_current)

    return lc_current


def _read_stages(value: Any) -> list[JobStage] | Unset:
    from ..models.job_stage import JobStage  # noqa: PLC0415

    if not isinstance(value, list):  # iterating a dict or a string would read it as some list
        raise TypeError
    _stages = value
    stages: list[JobStage] | Unset = UNSET
    if _stages is not UNSET:
        stages = []
        for stages_item_data in _stages:
            stages_item = JobStage.from_dict(stages_item_data)

            stages.append(stages_item)

    return stages


Job.READERS = {
    "status": _read_status,
    "ref_id": _read_ref_id,
    "file_name": _read_file_name,
    "orig": _read_orig,
    "current": _read_current,
    "lc_current": _read_lc_current,
    "stages": _read_stages,
}
