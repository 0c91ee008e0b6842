from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS, read_key
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.printer_config import PrinterConfig
    from ..models.printer_physical import PrinterPhysical
    from ..models.printer_runtime import PrinterRuntime


T = TypeVar("T", bound="Printer")


@_attrs_define
class Printer:
    """A printer (the server's printer document; `_id` is the printer name).

    Example:
        {'_id': 'printer1', 'config': {'printer': 'printer1', 'connection': 'socket://printer1:9100', 'alignment':
            'center', 'server': 'spooler1'}, 'runtime': {'status': 'idle', 'currentPrintingJob': '', 'lastPrintedJobTime':
            0, 'queuedJobs': 0}, 'physical': {}}

    Attributes:
        id (str): The key; `id` when `_id` is missing.
        config (PrinterConfig | Unset): Printer keys. Numbers are strings on the real server.
        runtime (PrinterRuntime | Unset): Runtime state of a printer. `status` is open (only `idle` is documented).
        physical (PrinterPhysical | Unset): IPP data last read from the device.
    """

    id: str
    config: PrinterConfig | Unset = UNSET
    runtime: PrinterRuntime | Unset = UNSET
    physical: PrinterPhysical | Unset = UNSET
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
        "config": "config",
        "runtime": "runtime",
        "physical": "physical",
    }

    #: The wire paths that sum a document up (``x-printmgmt-summary``): its notebook view, ``to_pandas()``'s first
    #: columns; empty: the fields of one value.
    SUMMARY: ClassVar[tuple[str, ...]] = (
        "_id",
        "runtime/status",
        "runtime/queuedJobs",
        "runtime/redirectedTo",
        "runtime/lastPrintedJobTime",
    )
    #: The wire paths its short repr shows (``x-printmgmt-repr``); empty: every field that is set.
    REPR_PATHS: ClassVar[tuple[str, ...]] = (
        "_id",
        "runtime/status",
        "runtime/queuedJobs",
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

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        runtime: dict[str, Any] | Unset = UNSET
        if not isinstance(self.runtime, Unset):
            runtime = self.runtime.to_dict()

        physical: dict[str, Any] | Unset = UNSET
        if not isinstance(self.physical, Unset):
            physical = self.physical.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": id,
            }
        )
        if config is not UNSET:
            field_dict["config"] = config
        if runtime is not UNSET:
            field_dict["runtime"] = runtime
        if physical is not UNSET:
            field_dict["physical"] = physical

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"Printer must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        id = read_key(d, "_id", "id", pop=True)

        _wire_config = d.pop("config", UNSET)
        if _wire_config is UNSET:
            config = UNSET
        else:
            try:
                config = _read_config(_wire_config)
            except LENIENT_ERRORS:
                config = UNSET
                d["config"] = _wire_config

        _wire_runtime = d.pop("runtime", UNSET)
        if _wire_runtime is UNSET:
            runtime = UNSET
        else:
            try:
                runtime = _read_runtime(_wire_runtime)
            except LENIENT_ERRORS:
                runtime = UNSET
                d["runtime"] = _wire_runtime

        _wire_physical = d.pop("physical", UNSET)
        if _wire_physical is UNSET:
            physical = UNSET
        else:
            try:
                physical = _read_physical(_wire_physical)
            except LENIENT_ERRORS:
                physical = UNSET
                d["physical"] = _wire_physical

        printer = cls(
            id=id,
            config=config,
            runtime=runtime,
            physical=physical,
        )

        printer.additional_properties = d
        return printer

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


def _read_config(value: Any) -> PrinterConfig | Unset:
    from ..models.printer_config import PrinterConfig  # noqa: PLC0415

    _config = value
    config: PrinterConfig | Unset
    if isinstance(_config, Unset):
        config = UNSET
    else:
        config = PrinterConfig.from_dict(_config)

    return config


def _read_runtime(value: Any) -> PrinterRuntime | Unset:
    from ..models.printer_runtime import PrinterRuntime  # noqa: PLC0415

    _runtime = value
    runtime: PrinterRuntime | Unset
    if isinstance(_runtime, Unset):
        runtime = UNSET
    else:
        runtime = PrinterRuntime.from_dict(_runtime)

    return runtime


def _read_physical(value: Any) -> PrinterPhysical | Unset:
    from ..models.printer_physical import PrinterPhysical  # noqa: PLC0415

    _physical = value
    physical: PrinterPhysical | Unset
    if isinstance(_physical, Unset):
        physical = UNSET
    else:
        physical = PrinterPhysical.from_dict(_physical)

    return physical


Printer.READERS = {
    "config": _read_config,
    "runtime": _read_runtime,
    "physical": _read_physical,
}
