from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset
from ..types import model_repr as _repr
from ..types import model_repr_pretty as _repr_pretty

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

    def __repr__(self) -> str:
        return _repr(self)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython and Jupyter: repr(), one field a line when it does not fit."""
        _repr_pretty(self, p, cycle)

    def to_dict(self) -> dict[str, Any]:
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
        d = dict(src_dict)
        printer = d.pop("printer", UNSET)

        connection = d.pop("connection", UNSET)

        server = d.pop("server", UNSET)

        ppd = d.pop("ppd", UNSET)

        rotation = d.pop("rotation", UNSET)

        alignment = d.pop("alignment", UNSET)

        tolerance = d.pop("tolerance", UNSET)

        web_url = d.pop("webUrl", UNSET)

        native_queue = d.pop("nativeQueue", UNSET)

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
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
