"""A server's profile: how it answers where the interface document shows no body, as named settings.

Every setting but three is a :class:`~enum.StrEnum` whose first member is ``openapi.yaml``'s guess;
:class:`Variants` holds one value of each. ``max_top`` is a number: a server-side cap on ``$top``, or
:data:`NO_CAP`; ``max_depth`` and ``max_header_size`` (:data:`LIMITS`) are the limits of the server's
MongoDB and Node HTTP layer, where a server may be configured otherwise. ``printmgmt doctor
--write-profile`` writes a profile from what a server answered, and the simulator (``printmgmt_sim``)
answers as a profile says. A profile file (TOML, or JSON when its name ends in
``.json``) holds a ``settings`` table that states every name of :data:`PROFILE_SETTINGS`, :data:`UNKNOWN`
where nothing decided (the simulator then keeps its default); ``server``, ``statuses`` and ``observed`` are
for people.

==================  ====================  ==========================================================
setting             default (the guess)   alternatives
==================  ====================  ==========================================================
``list_shape``      ``middleware``        ``results`` (always wrapped), ``value`` (``{"value": [...],
                                          "odata.count": n}``), ``verbose`` (``{"d": {"results":
                                          [...], "__count": "n"}}``): job and printer lists
``count_form``      ``usual``             ``string`` (``"23"``), ``float`` (``23.0``), ``none`` (``$inlinecount``
                                          ignored: no total): the total of a counted job or printer list
                                          (usual: a number; a string in ``verbose``)
``skip``            ``honoured``          ``ignored``: ``$skip`` never reaches the server (a proxy strips it)
``top_zero``        ``everything``        ``nothing``: ``$top=0`` answers no item (to MongoDB a limit of 0 is
                                          none: every matching item comes)
``job_ids``         ``objectid``          ``string``: job keys stored as strings, so a ``$filter`` by a
                                          24-hex ``_id`` (an ObjectId to the server) finds nothing
``nulls``           ``off``               ``on``: optional fields of jobs and printers as null or as
                                          another type (``copies: "2"``)
``status_form``     ``capitalised``       ``prefixed``: ``job-waitprocessing`` (the stored value stays)
``open_reads``      ``object``            ``array``, ``scalar``, ``text`` (reads the document shows no
                                          body for: root, roles, metadata, statistics, page info)
``list_reads``      ``array``             ``wrapped`` (``{"results": [...]}``), ``text`` (one item a
                                          line): flows and logs
``write_answer``    ``object``            ``ack`` (``{"ok": true}``), ``text`` (``OK``), ``empty`` (204);
                                          never probed: the doctor changes nothing
``auth_errors``     ``json``              ``text``: 401/403 as plain ``Unauthorized``/``Forbidden``
``unknown_routes``  ``json``              ``express``: Express's HTML ``Cannot GET /path`` 404
``bad_bodies``      ``spec``              ``400``: an unreadable or invalid request body answers 400
                                          (Express's HTML page when it is not JSON)
``max_top``         ``none``              a positive integer: the server caps every page at that many items
``max_depth``       ``100``               a positive integer: MongoDB refuses (500) a query whose documents
                                          nest deeper (breeze nests one level per ``and``/``or`` term)
``max_header_size`` ``16384``             a positive integer: Node answers ``431`` to a request line and
                                          headers longer than that many bytes (``--max-http-header-size``;
                                          8192 before Node 13.13)
==================  ====================  ==========================================================
"""

from __future__ import annotations

import dataclasses
import json
import os
import tomllib
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Final, TypeAlias, get_type_hints

from printmgmt.server import CountType, PageForm

__all__ = [
    "COUNT_TYPES",
    "LIMITS",
    "MAX_DEPTH",
    "MAX_HEADER_SIZE",
    "MAX_TOP",
    "NO_CAP",
    "PAGE_FORMS",
    "PROFILE_SETTINGS",
    "UNKNOWN",
    "AuthErrors",
    "BadBodies",
    "Choice",
    "CountForm",
    "JobIds",
    "ListReads",
    "ListShape",
    "Nulls",
    "OpenReads",
    "Profile",
    "Skip",
    "StatusForm",
    "TopZero",
    "UnknownRoutes",
    "Variants",
    "WriteAnswer",
    "alternatives",
    "parse_variant",
    "read_settings",
    "settings_of",
    "write_profile",
]

#: What a profile says of a setting no probe decided.
UNKNOWN: Final = "unknown"
#: What a profile says of ``max_top`` when the server does not cap its pages.
NO_CAP: Final = "none"
#: The name of the setting of a server-side cap on ``$top``.
MAX_TOP: Final = "max_top"
#: The names of the server's limits.
MAX_DEPTH: Final = "max_depth"
MAX_HEADER_SIZE: Final = "max_header_size"
#: The server's limits (positive integers), each with the value the twin takes: MongoDB's query depth and
#: Node's limit on a request's head.
LIMITS: Final[Mapping[str, int]] = {MAX_DEPTH: 100, MAX_HEADER_SIZE: 16 * 1024}


class ListShape(StrEnum):
    """How a job or printer list page comes (forms of :data:`~printmgmt.server.FORMS`)."""

    MIDDLEWARE = "middleware"
    RESULTS = "results"
    VALUE = "value"
    VERBOSE = "verbose"


class CountForm(StrEnum):
    """The JSON type of a counted list's total, or no total."""

    USUAL = "usual"
    STRING = "string"
    FLOAT = "float"
    NONE = "none"


class Skip(StrEnum):
    """Whether ``$skip`` reaches the server."""

    HONOURED = "honoured"
    IGNORED = "ignored"


class TopZero(StrEnum):
    """What ``$top=0`` brings."""

    EVERYTHING = "everything"
    NOTHING = "nothing"


class JobIds(StrEnum):
    """How job keys are stored."""

    OBJECTID = "objectid"
    STRING = "string"


class Nulls(StrEnum):
    """Whether declared fields come as null or as another type."""

    OFF = "off"
    ON = "on"


class StatusForm(StrEnum):
    """How job statuses are spelled."""

    CAPITALISED = "capitalised"
    PREFIXED = "prefixed"


class OpenReads(StrEnum):
    """What the reads the interface shows no body for answer."""

    OBJECT = "object"
    ARRAY = "array"
    SCALAR = "scalar"
    TEXT = "text"


class ListReads(StrEnum):
    """How the guessed lists (flows, logs) come."""

    ARRAY = "array"
    WRAPPED = "wrapped"
    TEXT = "text"


class WriteAnswer(StrEnum):
    """What writes and actions answer."""

    OBJECT = "object"
    ACK = "ack"
    TEXT = "text"
    EMPTY = "empty"


class AuthErrors(StrEnum):
    """The body of a 401 or 403."""

    JSON = "json"
    TEXT = "text"


class UnknownRoutes(StrEnum):
    """The body of a 404 for a path no route serves."""

    JSON = "json"
    EXPRESS = "express"


class BadBodies(StrEnum):
    """How a request body that cannot be read is refused."""

    SPEC = "spec"
    BAD_REQUEST = "400"


#: The value of one of :class:`Variants`' settings.
Choice: TypeAlias = (
    ListShape
    | CountForm
    | Skip
    | TopZero
    | JobIds
    | Nulls
    | StatusForm
    | OpenReads
    | ListReads
    | WriteAnswer
    | AuthErrors
    | UnknownRoutes
    | BadBodies
)


@dataclass(frozen=True, slots=True)
class Variants:
    """One way a real server may answer; the defaults are the spec's guesses (see the module's table).

    Plain strings are read as the setting's values (``Variants(list_shape="value")``); ValueError names the
    choices of a value the setting does not have."""

    list_shape: ListShape = ListShape.MIDDLEWARE
    count_form: CountForm = CountForm.USUAL
    skip: Skip = Skip.HONOURED
    top_zero: TopZero = TopZero.EVERYTHING
    job_ids: JobIds = JobIds.OBJECTID
    nulls: Nulls = Nulls.OFF
    status_form: StatusForm = StatusForm.CAPITALISED
    open_reads: OpenReads = OpenReads.OBJECT
    list_reads: ListReads = ListReads.ARRAY
    write_answer: WriteAnswer = WriteAnswer.OBJECT
    auth_errors: AuthErrors = AuthErrors.JSON
    unknown_routes: UnknownRoutes = UnknownRoutes.JSON
    bad_bodies: BadBodies = BadBodies.SPEC

    def __post_init__(self) -> None:
        for name, kind in _KINDS.items():
            object.__setattr__(self, name, _choice(name, kind, getattr(self, name)))


_KINDS: Final[dict[str, type[Choice]]] = get_type_hints(Variants)
_SETTING_OF: Final[dict[type[Choice], str]] = {kind: name for name, kind in _KINDS.items()}

#: The page form of each list shape but the middleware's own (a bare array, or counted ``results``).
PAGE_FORMS: Final[Mapping[ListShape, PageForm]] = {
    ListShape.RESULTS: "results",
    ListShape.VALUE: "value",
    ListShape.VERBOSE: "verbose",
}
#: The JSON type a total is written as, for each count form other than the page form's usual one.
COUNT_TYPES: Final[Mapping[CountForm, CountType]] = {CountForm.STRING: "string", CountForm.FLOAT: "float"}

#: Every setting a profile states, in order.
PROFILE_SETTINGS: Final = (*_KINDS, MAX_TOP, *LIMITS)

#: A profile: a file, or its content already read.
Profile: TypeAlias = "str | os.PathLike[str] | Mapping[str, Any]"


def _choice(name: str, kind: type[Choice], value: object) -> Choice:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return kind(value)
    except ValueError:
        choices = ", ".join(kind)
        raise ValueError(f"variant {name} must be one of {choices}, not {value!r}") from None


def alternatives() -> Iterator[tuple[str, Choice]]:
    """Every (setting, value) that differs from the default: one alternative at a time."""
    default = Variants()
    for name, kind in _KINDS.items():
        for choice in kind:
            if choice != getattr(default, name):
                yield name, choice


def parse_variant(text: str, base: Variants | None = None) -> Variants:
    """``base`` with one ``name=value`` setting changed; ValueError naming the settings or the choices."""
    name, _, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if name not in _KINDS:
        raise ValueError(f"unknown variant {name!r}; settings: {', '.join(_KINDS)}")
    changes: dict[str, Any] = {name: _choice(name, _KINDS[name], value.strip())}
    return dataclasses.replace(base or Variants(), **changes)


def settings_of(*values: Choice) -> dict[str, str | int]:
    """The profile entries that ``values`` state, each under its setting's name."""
    return {_SETTING_OF[type(value)]: value for value in values}


def write_profile(data: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a profile document to ``path``: JSON when it ends in ``.json``, else TOML."""
    json_file = os.fspath(path).endswith(".json")
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n" if json_file else _toml(data)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def _toml(data: Mapping[str, Any]) -> str:
    """A profile as TOML (strings, integers, lists of strings and tables of those are all it holds)."""

    def value(item: Any) -> str:
        return json.dumps(item, ensure_ascii=False)  # JSON's strings, integers and arrays of them are TOML's

    lines = [
        "# How a server answered printmgmt doctor's read-only questions, as simulator settings: run the twin",
        "# with printmgmt-sim --profile FILE, Simulator(profile=FILE) or pytest --print-server-profile FILE.",
        f'# "{UNKNOWN}": no probe could decide; the simulator keeps its default.',
    ]
    tables = [(key, item) for key, item in data.items() if isinstance(item, Mapping)]
    lines += [f"{key} = {value(item)}" for key, item in data.items() if not isinstance(item, Mapping)]
    for key, table in tables:
        lines += ["", f"[{key}]", *(f"{json.dumps(name)} = {value(item)}" for name, item in table.items())]
    return "\n".join(lines) + "\n"


def read_settings(profile: Profile) -> dict[str, Choice | int | None]:
    """The settings a profile decides: each of :class:`Variants`' as its value, ``max_top`` as an integer or
    None (no cap), each of :data:`LIMITS` as an integer; :data:`UNKNOWN` ones left out. ValueError for a
    file that is no profile or a value a setting does not have; a setting this version does not know is
    skipped with a warning (a profile from a newer ``printmgmt``)."""
    data = profile if isinstance(profile, Mapping) else _read(Path(profile))
    settings = data.get("settings", {})
    if not isinstance(settings, Mapping):
        raise ValueError("a profile's settings must be a table")
    decided: dict[str, Choice | int | None] = {}
    for name, value in settings.items():
        if value == UNKNOWN:
            continue
        if name == MAX_TOP:
            decided[name] = None if value == NO_CAP else _positive(name, value, f" or {NO_CAP!r}")
        elif name in LIMITS:
            decided[name] = _positive(name, value)
        elif name in _KINDS:
            decided[name] = _choice(name, _KINDS[name], value)
        else:
            warnings.warn(f"profile setting {name}={value!r} is not one this version knows: ignored", stacklevel=2)
    return decided


def _read(path: Path) -> Mapping[str, Any]:
    text = path.read_text(encoding="utf-8")
    try:
        data: Mapping[str, Any] = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError is one
        raise ValueError(f"{path}: not a profile ({exc})") from exc
    return data


def _positive(name: str, value: Any, alternative: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"profile setting {name} must be a positive integer{alternative}, not {value!r}")
    return value
