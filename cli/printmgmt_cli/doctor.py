"""A read-only conformance probe: how a real server answers, compared with every guess in ``openapi.yaml``.

The interface document shows no bodies, so the SDK guesses shapes, list forms, status spellings and the
OData middleware's semantics (README "Verify first on a real server"). :func:`probe` calls each safe
operation once, plus a few harmless requests (no token; an unknown path; an action on a job id that cannot
exist, with a body that is not JSON; filters that count with ``$top=1``, or that find at most three of the
sampled jobs by key), and returns a :class:`Report`: one :class:`Finding` per question with the guess, what
came back, and what to change when they differ.

Nothing is changed on the server. No secret is part of the report: no token, password or client secret,
only the server's URL and the client id. ``printmgmt doctor`` prints it (``--output json`` to attach it to
an issue); ``--write-profile FILE`` writes :meth:`Report.profile`, the report as a simulator profile, so the
twin answers as the server did (README "Testing against your server's behaviour").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs
import httpx

from printmgmt._json import loads
from printmgmt.auth import client_of
from printmgmt.errors import ApiError, PrintMgmtError, is_html
from printmgmt.server import FORMS, PageShape, ReadPage, list_items, read_page
from printmgmt_api.api.flows import list_flows
from printmgmt_api.api.jobs import list_jobs, move_job
from printmgmt_api.api.printers import list_printers
from printmgmt_api.api.root import get_service_root
from printmgmt_api.endpoints import ENDPOINTS
from printmgmt_api.models import InlineCount, JobStatus, MoveRequest
from printmgmt_api.operations import OPERATIONS, OperationSpec, Request
from printmgmt_api.types import UNSET

from .profile import (
    COUNT_TYPES,
    LIMITS,
    MAX_DEPTH,
    MAX_HEADER_SIZE,
    MAX_TOP,
    NO_CAP,
    PAGE_FORMS,
    PROFILE_SETTINGS,
    UNKNOWN,
    AuthErrors,
    BadBodies,
    Choice,
    CountForm,
    JobIds,
    ListReads,
    ListShape,
    Nulls,
    OpenReads,
    Skip,
    StatusForm,
    TopZero,
    UnknownRoutes,
    settings_of,
)

if TYPE_CHECKING:
    from printmgmt import PrintClient

__all__ = ["Finding", "Report", "Verdict", "probe"]

Verdict = Literal["matches", "differs", "unknown"]

#: A job id no server holds: actions on it are refused before anything changes.
NO_SUCH_JOB = "printmgmt-doctor-no-such-job"
#: A path no server serves: the one path the doctor asks that no operation of the interface has.
NO_SUCH_PATH = "/v3/printmgmt-doctor-no-such-path"
#: How many jobs and printers are sampled for fields, statuses and keys.
SAMPLE = 200


@attrs.define(frozen=True)
class Finding:
    """One question about the server: what the SDK guessed, what the server answered, what to do."""

    #: A stable name (``shape:getUserRoles``, ``list-shape``, ``status-strings``...).
    id: str
    question: str
    guess: str
    observed: str
    verdict: Verdict
    #: What to change (in ``openapi.yaml`` or in the caller's settings) when the verdict is "differs".
    advice: str = ""
    #: The profile settings this answer shows (``{"list_shape": "value"}``, :mod:`printmgmt.server`): what
    #: ``--write-profile`` writes.
    profile: Mapping[str, str | int] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.define(frozen=True)
class Report:
    """Everything :func:`probe` found, in the order it asked."""

    server: str
    client: str | None
    findings: list[Finding]
    #: The job statuses seen in the sample, as spelled.
    statuses: list[str] = attrs.field(factory=list)

    def __getitem__(self, finding_id: str) -> Finding:
        return next(finding for finding in self.findings if finding.id == finding_id)

    @property
    def differences(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.verdict == "differs"]

    def profile(self) -> dict[str, Any]:
        """The findings as a simulator profile: each of :data:`printmgmt_cli.profile.PROFILE_SETTINGS` as the answers
        showed it (``"unknown"`` where no probe decided or two disagreed), the statuses seen, and every finding's
        observation (``printmgmt-sim --profile``, ``Simulator(profile=...)``)."""
        shown: dict[str, set[str | int]] = {}
        for finding in self.findings:
            for name, value in finding.profile.items():
                shown.setdefault(name, set()).add(value)
        settings = {
            name: next(iter(values)) if len(values := shown.get(name, set())) == 1 else UNKNOWN
            for name in PROFILE_SETTINGS
        }
        observed = {finding.id: finding.observed for finding in self.findings}
        return {"server": self.server, "statuses": self.statuses, "settings": settings, "observed": observed}

    def to_dict(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "client": self.client,
            "summary": dict(Counter(finding.verdict for finding in self.findings)),
            "findings": [finding.to_dict() for finding in self.findings],
        }


async def probe(client: PrintClient) -> Report:
    """Ask the server every question :mod:`printmgmt_cli.doctor` knows, without changing anything."""
    doctor = _Doctor(client)
    await doctor.run()
    client_name = client_of(client.http.auth)
    return Report(server=client.base_url, client=client_name, findings=doctor.findings, statuses=doctor.statuses_seen)


# -- what an answer is ---------------------------------------------------------------------------------


def _kind(answer: httpx.Response) -> str:
    """``object``, ``array``, ``scalar``, ``null``, ``text``, ``html`` or ``empty``."""
    text = answer.text.strip()
    if not text:
        return "empty"
    if is_html(text):
        return "html"
    try:
        value = loads(answer.text)
    except ValueError:
        return "text"
    return {dict: "object", list: "array", type(None): "null"}.get(type(value), "scalar")


def _json(answer: httpx.Response) -> Any:
    try:
        return loads(answer.text)
    except ValueError:
        return None


def _describe(shape: PageShape, count_key: str | None = None) -> str:
    """A page form as people write it: ``{value, odata.count}``, ``a bare array``."""
    if shape.items is None:
        return "a bare array"
    inner = f"{{{shape.items}, {count_key or 'no count'}}}"
    return f"{{{shape.envelope}: {inner}}}" if shape.envelope else inner


def _page(answer: httpx.Response | None) -> ReadPage | None:
    """The list page an answer holds (:func:`printmgmt.server.read_page`), or None."""
    if answer is None or not answer.is_success:
        return None
    return read_page(_json(answer))


def _odd_fields(model: Any, path: str = "") -> Iterable[str]:
    """Declared fields the model could not read (null or another type), as wire paths, recursively."""
    wire_names: Mapping[str, str] = getattr(type(model), "WIRE_NAMES", {})
    declared = set(wire_names.values())
    for key in model.additional_properties:
        if key in declared:
            yield f"{path}{key}"
    for attribute, wire in wire_names.items():
        value = getattr(model, attribute)
        if hasattr(type(value), "WIRE_NAMES"):
            yield from _odd_fields(value, f"{path}{wire}/")
        elif isinstance(value, list):
            for item in value:
                if hasattr(type(item), "WIRE_NAMES"):
                    yield from _odd_fields(item, f"{path}{wire}[]/")


# -- the questions -------------------------------------------------------------------------------------

_GUESSED_KIND = {"model": "object", "open": "object", "list": "array"}
#: The profile setting that answers a guessed read (by the spec's ``answer``), by the kind of answer.
_READ_KINDS: Mapping[str, Mapping[str, Choice]] = {
    "open": {"object": OpenReads.OBJECT, "array": OpenReads.ARRAY, "scalar": OpenReads.SCALAR, "text": OpenReads.TEXT},
    "list": {"array": ListReads.ARRAY, "object": ListReads.WRAPPED, "text": ListReads.TEXT},
}
_JSON_ERROR = "JSON {code, message}"
_AUTH_ERRORS: Mapping[str, Choice] = {_JSON_ERROR: AuthErrors.JSON, "text": AuthErrors.TEXT}
_UNKNOWN_ROUTES: Mapping[str, Choice] = {_JSON_ERROR: UnknownRoutes.JSON, "html": UnknownRoutes.EXPRESS}
_BAD_BODIES = {404: BadBodies.SPEC, 400: BadBodies.BAD_REQUEST}
#: The list shape of each page form the plain and the counted list came in, where they agree.
_LIST_SHAPES: Mapping[str, ListShape] = {form: shape for shape, form in PAGE_FORMS.items()}
_COUNT_FORMS: Mapping[str, CountForm] = {kind: form for form, kind in COUNT_TYPES.items()}


#: The deepest filter and the longest request head the doctor tries.
_DEEPEST, _LONGEST = 1024, 64 * 1024  # httpx sends no URL component over 64 KiB


#: How far the head a transport writes may be from the one httpx builds: a caller's own transport object may
#: encode the query's ``$`` and ``'`` otherwise, a few bytes off.
_HEAD_SLACK = 64


def _whole_kib(size: int) -> int:
    """``size`` as the whole KiB it lies within :data:`_HEAD_SLACK` bytes of (Node's limit is set that way:
    8 KiB, 16 KiB), else as measured."""
    kib = round(size / 1024) * 1024
    return kib if kib and abs(size - kib) <= _HEAD_SLACK else size


def _filler_filter(length: int) -> str:
    """A filter that finds nothing, ``length`` bytes longer in the URL than with no filler."""
    return f"ab eq '{'x' * length}'"


async def _largest(reads: Callable[[int], Awaitable[bool | None]], guess: int, low: int, high: int) -> int | None:
    """The largest ``n`` in ``[low, high]`` that ``reads(n)`` accepts, where every smaller one is accepted and
    every larger one refused: ``guess`` and ``guess + 1`` decide the usual case in two questions, a binary
    search the others. None where an answer decides nothing, or every ``n`` up to ``high`` is read."""
    at, past = await reads(guess), await reads(guess + 1)
    if at is None or past is None:
        return None
    if at and not past:
        return guess
    read, refused = (guess + 1, high + 1) if past else (low - 1, guess)
    if past and await reads(high):
        return None
    while refused - read > 1:
        middle = (read + refused) // 2
        answer = await reads(middle)
        if answer is None:
            return None
        read, refused = (middle, refused) if answer else (read, middle)
    return read if read >= low else None


def _id_eq(key: str) -> str:
    return "_id eq '" + key.replace("'", "''") + "'"


def _id_regex(key: str) -> str:
    # the server's regexes are unescaped: escape what a key could hold, and anchor both ends
    return "startswith(_id,'" + re.sub(r"[\\^$.|?*+()\[\]{}]", r"\\\g<0>", key).replace("'", "''") + "$')"


def _list_settings(plain: ReadPage, counted: ReadPage) -> dict[str, str | int]:
    """``list_shape`` and ``count_form`` as the two list answers show them."""
    shown: list[Choice] = []
    if counted.form == "results" or (counted.form == "array" and plain.form == "array"):
        shape = {"array": ListShape.MIDDLEWARE, "results": ListShape.RESULTS}.get(plain.form)
    else:
        shape = _LIST_SHAPES.get(counted.form) if counted.form == plain.form else None
    if shape:
        shown.append(shape)
    if counted.count_type is None:
        shown.append(CountForm.NONE)
    elif counted.count_type == counted.shape.count_type:
        shown.append(CountForm.USUAL)
    elif (form := _COUNT_FORMS.get(counted.count_type)) is not None:
        shown.append(form)
    return settings_of(*shown)


def _spelling(value: Any) -> str:
    """How a job status is spelled: a :class:`~printmgmt_cli.profile.StatusForm`, or another spelling in words."""
    if not isinstance(value, str):
        return "not a string"
    if value in _KNOWN_STATUSES:
        return StatusForm.CAPITALISED
    if not JobStatus(value).is_known:
        return f"unknown ({value})"
    return StatusForm.PREFIXED if value.startswith("job-") else "another spelling"


#: The questions on two jobs whose keys the sample showed, by finding.
_KNOWN_DATA: Final = {
    "job-ids": "Do job keys behave as ObjectIds (_id eq '<24 hex>' finds the job)?",
    "top-zero": "What does $top=0 bring (asked on a one-job filter)?",
    "grouping": "How do and/or group without parentheses (a and b or c)?",
    "not-scope": "How far does 'not' reach without parentheses (not a and b)?",
}
_COUNT_WORDS = {"int": "number", "string": "string", "float": "float"}
_KNOWN_STATUSES = frozenset(status.value for status in JobStatus)


class _Doctor:
    def __init__(self, client: PrintClient) -> None:
        self.client = client
        self.findings: list[Finding] = []
        self.keys: dict[str, str] = {}
        #: The first jobs by ``_id`` (for questions on known data).
        self.jobs: list[dict[str, Any]] = []
        self.statuses_seen: list[str] = []
        self.forbidden: httpx.Response | None = None
        #: The request line and headers of a list with the doctor's shortest filter, in bytes.
        self.head_base: int | None = None

    def add(
        self,
        finding_id: str,
        question: str,
        guess: str,
        observed: str,
        matches: bool | None,
        advice: str = "",
        profile: Mapping[str, str | int] | None = None,
    ) -> None:
        verdict: Verdict = "unknown" if matches is None else "matches" if matches else "differs"
        advice = "" if matches else advice
        self.findings.append(Finding(finding_id, question, guess, observed, verdict, advice, dict(profile or {})))

    async def send(self, request: Request[Any], *, drop: tuple[str, ...] = (), **changes: Any) -> httpx.Response | None:
        """``request`` through the client, once (its httpx arguments without ``drop``, with ``changes``): what
        came back, 2xx or not; None when nothing did."""
        if drop or changes:
            kwargs = {key: value for key, value in request.kwargs.items() if key not in drop}
            request = attrs.evolve(request, kwargs={**kwargs, **changes})
        try:
            answer = await self.client.request_raw(request)
        except ApiError as error:
            answer = httpx.Response(error.status_code, text=error.raw_body)
        except (httpx.HTTPError, PrintMgmtError):
            return None
        if answer.status_code == 403 and self.forbidden is None:
            self.forbidden = answer
        return answer

    async def run(self) -> None:
        await self.lists()
        await self.shapes()
        await self.odata()
        await self.known_data()
        await self.limits()
        await self.errors()

    # lists, documents, keys, statuses, nulls

    async def lists(self) -> None:
        plain_response = await self.send(list_jobs.request(top=1))
        counted_response = await self.send(
            list_jobs.request(top=SAMPLE, inlinecount=InlineCount.ALLPAGES, orderby="_id")
        )
        printers = await self.send(list_printers.request(top=SAMPLE, inlinecount=InlineCount.ALLPAGES))
        plain, counted = _page(plain_response), _page(counted_response)
        if plain is None or counted is None:
            answer = plain_response if plain is None else counted_response
            status = "no answer" if answer is None else f"{answer.status_code}"
            self.add("list-shape", "How does a list come?", "a bare array", status, None)
            return
        usual = FORMS["results"]
        self.add(
            "list-shape",
            "How does a list come (without and with $inlinecount=allpages)?",
            f"{_describe(FORMS['array'])}; {_describe(usual, usual.counts[0])} with the count (a number)",
            f"{_describe(plain.shape, plain.count_key)}; {_describe(counted.shape, counted.count_key)}"
            + (f" with the count (a {_COUNT_WORDS[counted.count_type]})" if counted.count_type else ""),
            plain.form == "array" and counted.form == "results" and counted.count_type == "int",
            "the SDK reads every known page shape and count form; update the list schemas (JobCollection) in "
            "openapi.yaml",
            _list_settings(plain, counted),
        )
        total = counted.total
        self.add(
            "inlinecount",
            "Does $inlinecount=allpages give the total?",
            "yes",
            "yes" if total is not None else "no count in the answer",
            total is not None,
            "iterate() then confirms each short page with one more request; Page.total stays None",
        )
        jobs = counted.items
        self.jobs = [doc for doc in jobs[:2] if isinstance(doc, dict) and isinstance(doc.get("_id"), str)]
        printer_page = _page(printers)
        printer_docs = printer_page.items if printer_page is not None else []
        if jobs:
            first = jobs[0]
            self.keys["job"] = str(first.get("_id", first.get("id", ""))) if isinstance(first, dict) else ""
        if len(printer_docs) >= 1 and isinstance(printer_docs[0], dict):
            self.keys["printer"] = str(printer_docs[0].get("_id", ""))
        self.documents(jobs, printer_docs)
        self.statuses(jobs)
        if total is not None:
            asked = min(SAMPLE, total)
            self.add(
                "top-cap",
                f"Is $top={SAMPLE} honoured?",
                "yes (no server-side cap)",
                f"{len(jobs)} of {asked} asked-for jobs",
                len(jobs) >= asked,
                f"the server caps pages at {len(jobs)}: pass page_size<={len(jobs)} to iterate()",
                {MAX_TOP: len(jobs) if len(jobs) < asked else NO_CAP} if asked > 1 else None,
            )
        await self.skip(jobs)

    async def skip(self, jobs: list[Any]) -> None:
        """Whether ``$skip`` reaches the server: the second job by ``_id`` is what ``$skip=1`` brings."""
        question = "Does $skip reach the server (no proxy strips it)?"
        if len(jobs) < 2 or not all(isinstance(doc, dict) for doc in jobs[:2]):
            self.add("skip", question, "yes", "fewer than 2 jobs", None)
            return
        second = _page(await self.send(list_jobs.request(top=1, skip=1, orderby="_id")))
        if second is None or not second.items or not isinstance(second.items[0], dict):
            self.add("skip", question, "yes", "no answer", None)
            return
        got = second.items[0].get("_id")
        self.add(
            "skip",
            question,
            "yes",
            "yes" if got == jobs[1].get("_id") else "no: $skip=1 brought the first job again",
            got != jobs[0].get("_id"),
            "iterate() raises PagingError on such a server: ask whoever runs the proxy to pass $skip on",
            settings_of(Skip.IGNORED if got == jobs[0].get("_id") else Skip.HONOURED),
        )

    def documents(self, jobs: list[Any], printers: list[Any]) -> None:
        from printmgmt_api.models import Job, Printer

        odd: Counter[str] = Counter()
        bad_keys: Counter[str] = Counter()
        for model, docs in ((Job, jobs), (Printer, printers)):
            for doc in docs:
                if not isinstance(doc, dict) or not isinstance(doc.get("_id"), str) or not doc["_id"]:
                    other = "id" if isinstance(doc, dict) and "id" in doc else "missing"
                    bad_keys[f"{model.__name__}: _id {other}"] += 1
                    continue
                odd.update(_odd_fields(model.from_dict(doc), f"{model.__name__.lower()}s: "))
        sampled = f"{len(jobs)} jobs, {len(printers)} printers"
        self.add(
            "keys",
            "Does every job and printer carry its key _id as a string?",
            "yes",
            f"yes ({sampled})" if not bad_keys else ", ".join(f"{k}: {n}" for k, n in bad_keys.items()),
            not bad_keys if (jobs or printers) else None,
            "keys feed every later call: change the key property (required: [_id]) of Job/Printer in openapi.yaml",
        )
        self.add(
            "nulls",
            "Do declared fields come with their declared types?",
            "yes (no nulls, no other types)",
            ", ".join(f"{path}: {n}" for path, n in odd.most_common(8)) or f"yes ({sampled})",
            not odd if (jobs or printers) else None,
            "the SDK reads these fields as unset and keeps the wire value; make them nullable or change their "
            "type in openapi.yaml",
            settings_of(Nulls.ON if odd else Nulls.OFF) if (jobs or printers) else None,
        )

    def statuses(self, jobs: list[Any]) -> None:
        seen = Counter(doc.get("status") for doc in jobs if isinstance(doc, dict) and "status" in doc)
        if not seen:
            self.add("status-strings", "How are job statuses spelled?", "capitalised (Processed)", "no jobs", None)
            return
        forms: Counter[str] = Counter()
        for value, n in seen.items():
            forms[_spelling(value)] += n
        spelled, *others = forms
        self.add(
            "status-strings",
            "How are job statuses spelled?",
            "capitalised (Processed)",
            ", ".join(f"{form}: {n}" for form, n in forms.most_common(6)) + f" (e.g. {next(iter(seen))!r})",
            set(forms) == {StatusForm.CAPITALISED},
            "statuses are matched case-insensitively and in the job-<status> form; filters must use the "
            "server's spelling: update the JobStatus enum in openapi.yaml",
            settings_of(spelled) if isinstance(spelled, StatusForm) and not others else None,
        )
        self.statuses_seen = sorted(str(value) for value in seen)

    # each safe operation's answer

    async def shapes(self) -> None:
        keys = {"id": self.keys.get("job"), "printerName": self.keys.get("printer")}
        flows = await self.send(list_flows.request())
        if flows is not None and flows.is_success:
            first = next(iter(list_items(_json(flows))), None)
            keys["name"] = first.get("name") if isinstance(first, dict) else None
        for spec in OPERATIONS.values():
            if spec.repeat != "safe" or spec.pages or not spec.probe:
                continue
            await self.shape(spec, keys)

    async def shape(self, spec: OperationSpec, keys: Mapping[str, str | None]) -> None:
        names = [name for name in ("id", "printerName", "name") if "{" + name + "}" in spec.path]
        if any(not keys.get(name) for name in names):
            self.add(f"shape:{spec.id}", f"What does {spec.name} answer?", "", "nothing to ask about", None)
            return
        endpoint = ENDPOINTS[spec.id]
        response = await self.send(endpoint.request(*(keys[name] for name in names)))
        guess = "text" if endpoint.operation.body == "text" else _GUESSED_KIND.get(spec.answer, "object")
        question = f"What does {spec.name} ({spec.method} {spec.path}) answer?"
        if response is None or not response.is_success:
            observed = "no answer" if response is None else f"{response.status_code}"
            self.add(f"shape:{spec.id}", question, guess, observed, None)
            return
        kind = _kind(response)
        value = _READ_KINDS.get(spec.answer, {}).get(kind)
        self.add(
            f"shape:{spec.id}",
            question,
            f"JSON {guess}" if guess != "text" else guess,
            kind if kind not in ("object", "array", "scalar", "null") else f"JSON {kind}",
            kind == guess,
            f"the SDK reads it as declared (answer: {spec.answer}); to type it, change {spec.id}'s 200 schema "
            "in openapi.yaml",
            settings_of(value) if value else None,
        )

    # the OData middleware

    async def odata(self) -> None:
        total = await self.count()
        if not total:
            for finding_id in ("datetime", "regex"):
                self.add(finding_id, "OData semantics", "", "no jobs to count", None)
            return
        numbers = await self.count("current/checkinTime ge 0")
        literal = await self.count("current/checkinTime ge datetime'1970-01-01T00:00:00'")
        self.add(
            "datetime",
            "Do epoch-ms fields compare with numbers (and not with datetime'...' literals)?",
            "numbers match, datetime literals match nothing",
            f"numbers: {numbers} of {total}; datetime literal: {literal} of {total}",
            numbers == total and not literal,
            "the server stores datetimes: remove x-printmgmt-epoch-ms from the time fields in openapi.yaml (the "
            "SDK then sends datetime'...' literals)",
        )
        # a regex never matches a number or an ObjectId (job keys may be either): ask of a text field
        texts = await self.count("status ne null")
        anything = await self.count("startswith(status,'.') eq true")
        self.add(
            "regex",
            "Are startswith/endswith/substringof read as regular expressions (so the SDK escapes text)?",
            "yes: an unescaped '.' matches any first character",
            f"startswith(status,'.'): {anything} of {texts} jobs with a status",
            None if not texts or anything is None else anything == texts,
            "the server matches literally: odata.startswith(...) must not escape (odata.regex_literal)",
        )

    # the query language on known data: two jobs whose keys the sample showed

    async def known_data(self) -> None:
        first, second = (doc["_id"] for doc in self.jobs) if len(self.jobs) == 2 else ("", "")
        one = await self.one_job_filter(first) if first else None
        if one is None:
            why = "fewer than 2 jobs" if not first else "no filter finds exactly one job by its key"
            for finding_id, question in _KNOWN_DATA.items():
                if finding_id != "job-ids" or not first:
                    self.add(finding_id, question, "", why, None)
            return
        zero = await self.few(one(first), top=0)
        self.add(
            "top-zero",
            _KNOWN_DATA["top-zero"],
            "everything it matches (to MongoDB a limit of 0 is none)",
            {None: "no answer", 0: "nothing"}.get(zero, "everything it matches"),
            None if zero is None else zero == 1,
            "here $top=0 answers no item; the SDK never sends it (counts ask for $top=1)",
            None if zero is None else settings_of(TopZero.EVERYTHING if zero else TopZero.NOTHING),
        )
        grouped = await self.few(f"{one(first)} and {one(first)} or {one(second)}")
        self.add(
            "grouping",
            _KNOWN_DATA["grouping"],
            "to the right, a and (b or c): one job here",
            {None: "no answer", 1: "to the right (1 job)", 2: "as OData, (a and b) or c (2 jobs)"}.get(grouped, "?"),
            None if grouped not in (1, 2) else grouped == 1,
            "the server reads and/or as OData does: parenthesise every mixed and/or (printmgmt.odata does)",
        )
        # by regex: the server negates an ObjectId equality into a query MongoDB refuses, never a regex (which
        # matches no ObjectId: then the next term alone finds nothing, the whole rest every job)
        negated = await self.few(f"not {_id_regex(first)} and {_id_regex(second)}")
        reach = "the whole rest" if negated is not None and negated >= 2 else "only the next term"
        self.add(
            "not-scope",
            _KNOWN_DATA["not-scope"],
            "over the whole rest, not (a and b): every job here",
            "no answer" if negated is None else f"{reach} ({negated} jobs)",
            None if negated is None else negated >= 2,
            "'not' binds to the next term only: parenthesise what it negates (printmgmt.odata does)",
        )

    async def one_job_filter(self, key: str) -> Callable[[str], str] | None:
        """A filter form that finds exactly the job with a key (``_id eq``, else a regex on ``_id``); the
        ``job-ids`` finding says which held."""
        by_equality = await self.few(_id_eq(key))
        hex_key = re.fullmatch(r"[0-9a-fA-F]{24}", key) is not None
        by_regex = await self.few(_id_regex(key)) if by_equality != 1 else None
        found = 1 in (by_equality, by_regex)
        kind = JobIds.OBJECTID if by_equality == 1 and hex_key else JobIds.STRING if found else None
        observed = (
            f"_id eq '<a job's key>' finds {by_equality} job(s)"
            + ("" if by_regex is None else f"; startswith(_id, ...) finds {by_regex}")
            + ("" if hex_key else " (keys are not 24 hex digits)")
        )
        self.add(
            "job-ids",
            _KNOWN_DATA["job-ids"],
            "yes (MongoDB's default key)",
            observed,
            None if kind is None else kind == JobIds.OBJECTID,
            "a filter by _id finds no job: reading jobs by key must go one by one (jobs.get)",
            settings_of(kind) if kind else None,
        )
        if by_equality == 1:
            return _id_eq
        return _id_regex if by_regex == 1 else None

    async def few(self, filter: str, top: int = 3) -> int | None:
        """How many jobs ``filter`` brings with ``$top`` (at most 3: nothing large is downloaded)."""
        page = _page(await self.send(list_jobs.request(top=top, filter_=filter)))
        return len(page.items) if page is not None else None

    async def count(self, filter: str | None = None) -> int | None:
        # $top=1, never 0: MongoDB reads a limit of 0 as "no limit", and the whole collection would come
        counted = list_jobs.request(top=1, inlinecount=InlineCount.ALLPAGES, filter_=filter or UNSET)
        page = _page(await self.send(counted))
        return page.total if page is not None else None

    # the server's limits: the deepest filter MongoDB reads, the longest request head Node reads

    async def limits(self) -> None:
        depth = await _largest(self.reads_depth, LIMITS[MAX_DEPTH], 1, _DEEPEST)
        self.limit_finding(
            "query-depth",
            "How deep may a filter nest (breeze nests each and/or term one level deeper)?",
            MAX_DEPTH,
            depth,
            "levels",
            "filters nested deeper fail with 500 here: split long or-chains into several requests",
        )
        self.head_base = await self.head_size(_filler_filter(0))
        low = self.head_base or 1
        size = await _largest(self.reads_head, LIMITS[MAX_HEADER_SIZE], low, _LONGEST) if self.head_base else None
        self.limit_finding(
            "head-size",
            "How long may a request line and its headers be before the server answers 431?",
            MAX_HEADER_SIZE,
            None if size is None else _whole_kib(size),
            "bytes",
            "longer requests (long filters) fail with 431 here: split them into several requests",
        )

    def limit_finding(
        self, finding_id: str, question: str, name: str, found: int | None, unit: str, advice: str
    ) -> None:
        guess = LIMITS[name]
        observed = "no answer, or past what was tried" if found is None else f"{found} {unit}"
        profile = None if found is None else {name: found}
        self.add(
            finding_id,
            question,
            f"{guess} {unit}",
            observed,
            None if found is None else found == guess,
            advice,
            profile,
        )

    async def reads_depth(self, levels: int) -> bool | None:
        """Whether the server reads a filter of ``levels`` and/or levels (None: neither read nor refused by
        its database)."""
        answer = await self.send(list_jobs.request(top=1, filter_=" or ".join(["ab eq 0"] * levels)))
        return None if answer is None or not (answer.is_success or answer.is_server_error) else answer.is_success

    async def reads_head(self, size: int) -> bool | None:
        """Whether the server reads a request whose line and headers are ``size`` bytes (not 431)."""
        if self.head_base is None or size < self.head_base:
            return None
        answer = await self.send(list_jobs.request(top=1, filter_=_filler_filter(size - self.head_base)))
        if answer is None or answer.status_code not in (200, 431):
            return None
        return answer.status_code == 200

    async def head_size(self, filter: str) -> int | None:
        """The bytes of the request line and headers the client sends for a list with ``filter``."""
        sizes: list[int] = []

        async def measure(request: httpx.Request) -> None:
            target = request.url.raw_path
            headers = sum(len(name) + len(value) + 4 for name, value in request.headers.raw)
            sizes.append(len(request.method) + len(target) + len(b"  HTTP/1.1\r\n") + headers + 2)

        hooks = self.client.http.event_hooks["request"]
        hooks.append(measure)
        try:
            await self.send(list_jobs.request(top=1, filter_=filter))
        finally:
            hooks.remove(measure)
        return sizes[-1] if sizes else None

    # error answers

    async def errors(self) -> None:
        anonymous = await self.send(list_jobs.request(top=1), auth=None)
        self.error_body("401-body", "How does a request without a token fail?", 401, anonymous, _AUTH_ERRORS)
        forbidden = "How does a forbidden request fail?"
        self.error_body("403-body", forbidden, 403, self.forbidden, _AUTH_ERRORS, missing="no 403 seen")
        unknown = await self.send(get_service_root.request(), url=NO_SUCH_PATH)
        self.error_body("unknown-route", "How does an unknown path fail?", 404, unknown, _UNKNOWN_ROUTES)
        not_json = {"content": b"{not json", "headers": {"Content-Type": "application/json"}}
        bad = await self.send(move_job.request(NO_SUCH_JOB, body=MoveRequest(NO_SUCH_JOB)), drop=("json",), **not_json)
        self.add(
            "bad-body",
            "How is a body that is not JSON refused (on a job that does not exist)?",
            "404 (the job is looked up first)",
            "no answer" if bad is None else f"{bad.status_code} {_kind(bad)}",
            None if bad is None else bad.status_code == 404,
            "the server parses bodies first: a malformed body is BadRequest (400) on every write",
            settings_of(_BAD_BODIES[bad.status_code]) if bad is not None and bad.status_code in _BAD_BODIES else None,
        )
        self.add(
            "writes",
            "What do writes and actions answer (object, acknowledgement, text, nothing)?",
            "the changed object",
            "not probed: the doctor never changes the server",
            None,
        )

    def error_body(
        self,
        finding_id: str,
        question: str,
        status: int,
        response: httpx.Response | None,
        forms: Mapping[str, Choice],
        missing: str = "no answer",
    ) -> None:
        guess = f"{status} with {_JSON_ERROR}"
        if response is None:
            self.add(finding_id, question, guess, missing, None)
            return
        body = _json(response)
        form = _JSON_ERROR if isinstance(body, dict) and "message" in body else _kind(response)
        self.add(
            finding_id,
            question,
            guess,
            f"{response.status_code} with {form}",
            response.status_code == status and form == _JSON_ERROR,
            "the SDK maps any body to the status's error (text and HTML pages become the message); document "
            f"it in the {status} response of openapi.yaml",
            settings_of(value) if response.status_code == status and (value := forms.get(form)) else None,
        )
