"""Names a user types (field paths, job statuses) checked against what exists, with the nearest suggested."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

import typer

__all__ = ["check_names", "check_paths", "job_statuses", "split"]

#: How many known names an error lists when none is near.
_LISTED = 16


def split(values: Iterable[str] | None) -> list[str]:
    """Comma-separated and repeated values as one list (``--until A,B --until C``), blanks dropped."""
    return [part.strip() for value in values or () for part in value.split(",") if part.strip()]


def _nearest(name: str, known: Sequence[str]) -> list[str]:
    """Up to three of ``known`` that ``name`` likely meant: the same but for case, else close whole names or
    close last parts (``jobname`` -> ``current/jobName``)."""
    same = [k for k in known if k.lower() == name.lower()]
    if same:
        return same[:1]
    near = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    by_last: dict[str, list[str]] = {}
    for k in known:
        by_last.setdefault(k.rsplit("/", 1)[-1].lower(), []).append(k)
    last = name.rsplit("/", 1)[-1].lower()
    for match in difflib.get_close_matches(last, list(by_last), n=3, cutoff=0.6):
        near += by_last[match]
    return list(dict.fromkeys(near))[:3]


def _unknown(name: str, known: Sequence[str], what: str, option: str) -> typer.BadParameter:
    near = _nearest(name, known)
    if near:
        said = f"did you mean {' or '.join(near)}?"
    else:
        more = f" and {len(known) - _LISTED} more" if len(known) > _LISTED else ""
        said = f"known: {', '.join(known[:_LISTED])}{more}"
    return typer.BadParameter(f"no {what} {name!r}; {said}", param_hint=option)


def check_names(values: Sequence[str], known: Sequence[str], *, what: str, option: str) -> list[str]:
    """``values`` when each is one of ``known``; else :class:`typer.BadParameter` (exit 2) with the nearest."""
    for value in values:
        if value not in known:
            raise _unknown(value, known, what, option)
    return list(values)


def check_paths(paths: Sequence[str], collection: str, *, noun: str, option: str) -> list[str]:
    """``paths`` when each is a field the spec declares for the ``collection``'s documents (the field catalogue
    the query check reads too); else :class:`typer.BadParameter` (exit 2) with the nearest."""
    from printmgmt.fields import known_paths, unknown_path

    for path in paths:
        if unknown_path(collection, re.sub(r"/+", "/", path.replace(".", "/")).strip("/")):
            raise _unknown(path, sorted(known_paths(collection)[0]), f"{noun} field", option)
    return list(paths)


def job_statuses() -> list[str]:
    """The job statuses the spec names."""
    from printmgmt_api.models import JobStatus

    return [status.value for status in JobStatus]
