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

T = TypeVar("T", bound="PrinterConfig")


@_attrs_define
class PrinterConfig:
    """Printer keys. Numbers are strings on the real server.

    Attributes:
        printer (str | Unset):
        connection (str | Unset): e.g. `socket://printer1:9100`.
        server (str | Unset):
        ppd (str | Unset):
        rotation (str | Unset):
        alignment (str | Unset):
        tolerance (str | Unset):
        web_url (str | Unset):
        native_queue (bool | Unset):
    """

    printer: str | Unset = UNSET
    connection: str | Unset = UNSET
    server: str | Unset = UNSET
    ppd: str | Unset = UNSET
    rotation: str | Unset = UNSET
    alignment: str | Unset = UNSET
    tolerance: str | Unset = UNSET
    web_url: str | Unset = UNSET
    native_queue: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "printer": "printer",
        "connection": "connection",
        "server": "server",
        "ppd": "ppd",
        "rotation": "rotation",
        "alignment": "alignment",
        "tolerance": "tolerance",
        "web_url": "webUrl",
        "native_queue": "nativeQueue",
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
        printer = self.printer

        connection = self.connection

        server = self.server

        ppd = self.ppd

        rotation = self.rotation

        alignment = self.alignment

        tolerance = self.tolerance

        web_url = self.web_url

        native_queue = self.native_queue

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if printer is not UNSET:
            field_dict["printer"] = printer
        if connection is not UNSET:
            field_dict["connection"] = connection
        if server is not UNSET:
            field_dict["server"] = server
        if ppd is not UNSET:
            field_dict["ppd"] = ppd
        if rotation is not UNSET:
            field_dict["rotation"] = rotation
        if alignment is not UNSET:
            field_dict["alignment"] = alignment
        if tolerance is not UNSET:
            field_dict["tolerance"] = tolerance
        if web_url is not UNSET:
            field_dict["webUrl"] = web_url
        if native_queue is not UNSET:
            field_dict["nativeQueue"] = native_queue

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"PrinterConfig must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_printer = d.pop("printer", UNSET)
        if _wire_printer is UNSET:
            printer = UNSET
        else:
            try:
                printer = _read_printer(_wire_printer)
            except LENIENT_ERRORS:
                printer = UNSET
                d["printer"] = _wire_printer

        _wire_connection = d.pop("connection", UNSET)
        if _wire_connection is UNSET:
            connection = UNSET
        else:
            try:
                connection = _read_connection(_wire_connection)
            except LENIENT_ERRORS:
                connection = UNSET
                d["connection"] = _wire_connection

        _wire_server = d.pop("server", UNSET)
        if _wire_server is UNSET:
            server = UNSET
        else:
            try:
                server = _read_server(_wire_server)
            except LENIENT_ERRORS:
                server = UNSET
                d["server"] = _wire_server

        _wire_ppd = d.pop("ppd", UNSET)
        if _wire_ppd is UNSET:
            ppd = UNSET
        else:
            try:
                ppd = _read_ppd(_wire_ppd)
            except LENIENT_ERRORS:
                ppd = UNSET
                d["ppd"] = _wire_ppd

        _wire_rotation = d.pop("rotation", UNSET)
        if _wire_rotation is UNSET:
            rotation = UNSET
        else:
            try:
                rotation = _read_rotation(_wire_rotation)
            except LENIENT_ERRORS:
                rotation = UNSET
                d["rotation"] = _wire_rotation

        _wire_alignment = d.pop("alignment", UNSET)
        if _wire_alignment is UNSET:
            alignment = UNSET
        else:
            try:
                alignment = _read_alignment(_wire_alignment)
            except LENIENT_ERRORS:
                alignment = UNSET
                d["alignment"] = _wire_alignment

        _wire_tolerance = d.pop("tolerance", UNSET)
        if _wire_tolerance is UNSET:
            tolerance = UNSET
        else:
            try:
                tolerance = _read_tolerance(_wire_tolerance)
            except LENIENT_ERRORS:
                tolerance = UNSET
                d["tolerance"] = _wire_tolerance

        _wire_web_url = d.pop("webUrl", UNSET)
        if _wire_web_url is UNSET:
            web_url = UNSET
        else:
            try:
                web_url = _read_web_url(_wire_web_url)
            except LENIENT_ERRORS:
                web_url = UNSET
                d["webUrl"] = _wire_web_url

        _wire_native_queue = d.pop("nativeQueue", UNSET)
        if _wire_native_queue is UNSET:
            native_queue = UNSET
        else:
            try:
                native_queue = _read_native_queue(_wire_native_queue)
            except LENIENT_ERRORS:
                native_queue = UNSET
                d["nativeQueue"] = _wire_native_queue

        printer_config = cls(
            printer=printer,
            connection=connection,
            server=server,
            ppd=ppd,
            rotation=rotation,
            alignment=alignment,
            tolerance=tolerance,
            web_url=web_url,
            native_queue=native_queue,
        )

        printer_config.additional_properties = d
        return printer_config

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


def _read_printer(value: Any) -> str | Unset:
    printer = value
    if not isinstance(printer, str):
        raise TypeError
    return printer


def _read_connection(value: Any) -> str | Unset:
    connection = value
    if not isinstance(connection, str):
        raise TypeError
    return connection


def _read_server(value: Any) -> str | Unset:
    server = value
    if not isinstance(server, str):
        raise TypeError
    return server


def _read_ppd(value: Any) -> str | Unset:
    ppd = value
    if not isinstance(ppd, str):
        raise TypeError
    return ppd


def _read_rotation(value: Any) -> str | Unset:
    rotation = value
    if not isinstance(rotation, str):
        raise TypeError
    return rotation


def _read_alignment(value: Any) -> str | Unset:
    alignment = value
    if not isinstance(alignment, str):
        raise TypeError
    return alignment


def _read_tolerance(value: Any) -> str | Unset:
    tolerance = value
    if not isinstance(tolerance, str):
        raise TypeError
    return tolerance


def _read_web_url(value: Any) -> str | Unset:
    web_url = value
    if not isinstance(web_url, str):
        raise TypeError
    return web_url


def _read_native_queue(value: Any) -> bool | Unset:
    native_queue = value
    if not isinstance(native_queue, bool):
        raise TypeError
    return native_queue


PrinterConfig.READERS = {
    "printer": _read_printer,
    "connection": _read_connection,
    "server": _read_server,
    "ppd": _read_ppd,
    "rotation": _read_rotation,
    "alignment": _read_alignment,
    "tolerance": _read_tolerance,
    "web_url": _read_web_url,
    "native_queue": _read_native_queue,
}
