from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from printmgmt._model_runtime import LENIENT_ERRORS
from printmgmt._model_runtime import model_repr as _repr
from printmgmt._model_runtime import model_repr_html as _repr_html
from printmgmt._model_runtime import model_repr_pretty as _repr_pretty

from ..types import UNSET, Unset

T = TypeVar("T", bound="UserRoles")


@_attrs_define
class UserRoles:
    """Inferred - the caller's resolved roles (realm roles admin, custom, readonly).

    Example:
        {'user': 'seal-admin', 'roles': ['admin']}

    Attributes:
        user (str | Unset):
        roles (list[str] | Unset):
    """

    user: str | Unset = UNSET
    roles: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    #: The lenient reader of each optional property, by attribute (set below the class).
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    #: A key's other wire name, read when the key is missing or null (``x-printmgmt-key-fallback``), by wire name.
    KEY_FALLBACKS: ClassVar[dict[str, str]] = {}
    #: The wire name of each property the spec declares, by attribute (what ``printmgmt doctor`` compares with).
    WIRE_NAMES: ClassVar[dict[str, str]] = {
        "user": "user",
        "roles": "roles",
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
        user = self.user

        roles: list[str] | Unset = UNSET
        if not isinstance(self.roles, Unset):
            roles = self.roles

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if user is not UNSET:
            field_dict["user"] = user
        if roles is not UNSET:
            field_dict["roles"] = roles

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        """The model of a JSON document: a field of another type reads as unset (``to_dict()`` keeps it as sent);
        a key that is missing, empty or not a string is refused."""
        if not isinstance(src_dict, Mapping):
            # dict() would take a list of pairs: [] must not read as {}
            raise TypeError(f"UserRoles must be a JSON object, not {type(src_dict).__name__}")
        d = dict(src_dict)
        _wire_user = d.pop("user", UNSET)
        if _wire_user is UNSET:
            user = UNSET
        else:
            try:
                user = _read_user(_wire_user)
            except LENIENT_ERRORS:
                user = UNSET
                d["user"] = _wire_user

        _wire_roles = d.pop("roles", UNSET)
        if _wire_roles is UNSET:
            roles = UNSET
        else:
            try:
                roles = _read_roles(_wire_roles)
            except LENIENT_ERRORS:
                roles = UNSET
                d["roles"] = _wire_roles

        user_roles = cls(
            user=user,
            roles=roles,
        )

        user_roles.additional_properties = d
        return user_roles

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


def _read_user(value: Any) -> str | Unset:
    user = value
    if not isinstance(user, str):
        raise TypeError
    return user


def _read_roles(value: Any) -> list[str] | Unset:
    if not isinstance(value, list):  # iterating a dict or a string would read it as some list
        raise TypeError
    roles = cast(list[str], value)

    if not (isinstance(roles, list) and all(isinstance(v, str) for v in roles)):
        raise TypeError
    return roles


UserRoles.READERS = {
    "user": _read_user,
    "roles": _read_roles,
}
