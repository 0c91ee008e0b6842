"""A JavaScript Date as the grammar reads a date literal, and the server's refusal of a query option."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class JsDate:
    """A JavaScript Date: milliseconds since the epoch, or ``None`` for an Invalid Date."""

    epoch_ms: int | None

    def __repr__(self) -> str:
        return f"JsDate({self.epoch_ms!r})"


class QueryRefused(ValueError):
    """The server answers 400 to this query option; ``reason`` says why in words.

    ``option`` is ``"$filter"``, ``"$orderby"``, ... (or the unknown key), ``text`` the option's text and
    ``position`` a 0-based index into it (``None`` when the whole option is at fault).
    """

    def __init__(self, option: str, text: str, position: int | None, reason: str) -> None:
        self.option = option
        self.text = text
        self.position = position
        self.reason = reason
        where = "" if position is None else f" at position {position}"
        super().__init__(f"{option}: {reason}{where}")

    def __reduce__(self) -> tuple[type[QueryRefused], tuple[str, str, int | None, str]]:
        return (QueryRefused, (self.option, self.text, self.position, self.reason))
