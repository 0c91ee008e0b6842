"""Models that decode on access, the fast path for list pages (BENCHMARKS.md, "Decisions"): a subclass of the
generated model keeps the JSON object and decodes a field when first read with the model's own reader
(``READERS``); reading ``additional_properties`` or setting a field decodes the whole document with ``from_dict``.
Keys are checked when the page is read, as on the reference path."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import attrs

from printmgmt_api.types import UNSET

from ._model_runtime import LENIENT_ERRORS, read_key

__all__ = ["lazy"]

M = TypeVar("M")

_CLASSES: dict[type[Any], type[Any]] = {}


def lazy(model: type[M], document: Mapping[str, Any]) -> M:
    """``model.from_dict(document)``, decoded field by field on first access (see the module)."""
    cls: Any = _CLASSES.get(model) or _lazy_class(model)
    instance = cls.__new__(cls)
    if not isinstance(document, dict):
        # the reference path's error for a document that is not an object
        return model.from_dict(document)  # type: ignore[attr-defined, no-any-return]
    for wire in cls._lazy_keys:
        read_key(document, wire, model.KEY_FALLBACKS.get(wire))  # type: ignore[attr-defined]
    instance._wire = document
    instance._decoded = {}
    return cast(M, instance)


def _lazy_class(model: type[M]) -> type[M]:
    """The lazy subclass of a generated model, made once (:func:`lazy` looks in ``_CLASSES`` first)."""
    wire_names: Mapping[str, str] = model.WIRE_NAMES  # type: ignore[attr-defined]
    fields = attrs.fields_dict(model)  # type: ignore[arg-type]
    required = [name for name, field in fields.items() if field.default is attrs.NOTHING]
    # the required strings are the document's keys (read_key); other required fields decode on access
    keys = tuple(wire_names[name] for name in required if str(fields[name].type) == "str")
    others = tuple(wire_names[name] for name in required if str(fields[name].type) != "str")
    namespace: dict[str, Any] = {
        "__slots__": ("_wire", "_decoded"),
        "__module__": model.__module__,
        "__qualname__": model.__qualname__,
        "_lazy_keys": keys,
        "to_dict": _to_dict,
        "__reduce__": _reduce,
        "__eq__": _equal(model),  # the model's __ne__ asks it; defining it leaves the class unhashable, as the model
    }
    for name, wire in wire_names.items():
        # a key's fallback goes with the keys to the parser of another required field
        namespace[name] = _field(model, name, wire, keys, keys + others + tuple(model.KEY_FALLBACKS.values()))  # type: ignore[attr-defined]
    namespace["additional_properties"] = _additional(model)
    cls = type(model.__name__, (model,), namespace)
    _CLASSES[model] = cls
    return cast(type[M], cls)


_MISSING: Any = object()


def _materialize(model: type[Any], instance: Any) -> None:
    """Decode the whole document with the reference ``from_dict`` and become an ordinary model."""
    document = getattr(instance, "_wire", None)  # None once ordinary
    if document is None:
        return
    full = model.from_dict(document)
    decoded = instance._decoded
    for field in attrs.fields(model):
        # values already handed out stay the same objects
        getattr(model, field.name).__set__(instance, decoded.get(field.name, getattr(full, field.name)))
    instance._wire = instance._decoded = None


def _field(model: type[Any], name: str, wire: str, keys: tuple[str, ...], required: tuple[str, ...]) -> property:
    slot = getattr(model, name)  # the attrs slot
    get_slot, set_slot = slot.__get__, slot.__set__
    reader: Callable[[Any], Any] | None = model.READERS.get(name)
    nested = _nested_model(model, name)
    fallback: str | None = model.KEY_FALLBACKS.get(wire) if wire in keys else None

    def get(instance: Any) -> Any:
        decoded = getattr(instance, "_decoded", None)
        if decoded is None:  # decoded whole already, or made by __init__ (attrs.evolve, copies): an ordinary model
            return get_slot(instance, None)
        value: Any = decoded.get(name, _MISSING)
        if value is not _MISSING:
            return value
        document = instance._wire
        if wire in keys:  # a key, checked when the page was read
            value = read_key(document, wire, fallback)
        elif wire not in document:
            value = UNSET
        elif nested is not None and type(document[wire]) is dict:
            value = lazy(nested, document[wire])  # what the reader's from_dict gives, decoded on access too
        elif reader is not None:
            # the generated reader of this field: the same rules as the reference path's from_dict
            try:
                value = reader(document[wire])
            except LENIENT_ERRORS:
                value = UNSET
        else:  # another required field: the generated parser on the required fields
            value = getattr(model.from_dict({key: document[key] for key in required if key in document}), name)
        decoded[name] = value
        return value

    def set(instance: Any, value: Any) -> None:
        _materialize(model, instance)
        set_slot(instance, value)

    return property(get, set, doc=f"The ``{wire}`` field (decoded when first read).")


def _nested_model(model: type[Any], name: str) -> type[Any] | None:
    """The generated model a field holds (``current`` -> ``JobAttributes``), or None for any other type."""
    import printmgmt_api.models as models

    declared = str(attrs.fields_dict(model)[name].type or "")
    candidate = getattr(models, declared.split(" | ")[0].strip(), None)
    return candidate if isinstance(candidate, type) and hasattr(candidate, "WIRE_NAMES") else None


def _additional(model: type[Any]) -> property:
    slot = model.additional_properties

    def get(instance: Any) -> Any:
        _materialize(model, instance)
        return slot.__get__(instance, None)

    def set(instance: Any, value: Any) -> None:
        _materialize(model, instance)
        slot.__set__(instance, value)

    return property(get, set)


def _equal(model: type[Any]) -> Callable[[Any, object], bool | Any]:
    names = [field.name for field in attrs.fields(model)]

    def equal(self: Any, other: object) -> bool | Any:
        # attrs' __eq__ wants the very same class: a lazy Job equals an ordinary Job with the same fields
        if not isinstance(other, model):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in names)

    return equal


def _to_dict(self: Any) -> dict[str, Any]:
    document = getattr(self, "_wire", None)
    if document is None:
        base: Any = type(self).__mro__[1]
        return cast("dict[str, Any]", base.to_dict(self))
    return cast("dict[str, Any]", _copy(document))


def _reduce(self: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    base: Any = type(self).__mro__[1]
    return base.from_dict, (self.to_dict(),)


def _copy(value: Any) -> Any:
    """A copy of a decoded JSON value (dicts and lists new, scalars shared)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
