"""Checks of caller input, made before any request is sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from ._model_runtime import KeyFieldError


def path_segment(value: object, what: str) -> str:
    """A non-empty string usable as one path segment (it is percent-encoded when sent)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    if not value:
        raise ValueError(f"{what} must not be empty")
    if value in {".", ".."}:
        # URL normalisation would turn these into another path even when percent-encoding is applied
        raise ValueError(f"{what} cannot be {value!r}")
    return value


def non_negative(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must be >= 0, not {value}")
    return value


def positive(value: object, what: str) -> int:
    if (number := non_negative(value, what)) == 0:
        raise ValueError(f"{what} must be >= 1, not 0")
    return number


class _Model(Protocol):
    @classmethod
    def from_dict(cls: type[M], src_dict: Mapping[str, Any]) -> M: ...


M = TypeVar("M", bound=_Model)


def body(value: object, model: type[M], what: str) -> M:
    """Accept a generated model instance or a plain mapping for a request body."""
    if isinstance(value, model):
        return value
    if isinstance(value, Mapping):
        try:
            return model.from_dict(dict(value))
        except KeyError as exc:
            raise ValueError(f"{what} is missing the required field {exc.args[0]!r}") from exc
        except KeyFieldError as exc:
            raise ValueError(f"{what}: {exc}") from exc
        except (TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{what} does not match the {model.__name__} schema: {exc}") from exc
    raise TypeError(f"{what} must be a {model.__name__} or a mapping, not {type(value).__name__}")
