"""The semantic referee: what OData means by a filter against what the server does, on the same documents.

- **Meaning**: the real parser's tree (breeze-odataparser, ``semantic_referee.cjs``) of the filter with OData's
  grouping made explicit (:func:`breeze_referee.odata_grouping`: every group in parentheses), evaluated by
  :mod:`odata_meaning`.
- **Server**: breeze-mongodb's query document for the filter as written (the same process), run by the twin's
  engine (``printmgmt_sim.listquery.engine_find`` and ``engine.matcher``: mongomock with MongoDB's rules). On
  every ``SECOND_OPINION_EVERY``-th filter montydb (an independent emulation of MongoDB's matching, pinned in
  requirements-dev.txt) answers too, where it models the query (not ``$where``, not ``$gte``/``$lte`` of
  null); its disagreements with the engine are printed for whoever works on the engine, not counted: each of
  the two is wrong somewhere (montydb, for instance, on ``$exists`` of ``a.0`` over an array of texts, and
  in ``$elemMatch`` of conditions, which it lets match an element that is no document: ``null`` in
  ``stages``, which MongoDB's ``$elemMatch`` passes over), so neither decides alone.
- **Classification** (:func:`referee`): every filter whose meaning and server result differ is refused by
  the SDK's check (``printmgmt.server.check_query``, strict, as ``jobs.list`` runs it), or OData's meaning
  read with the server's readings the query guide lists (:data:`LISTED_READINGS`, docs/query-semantics.md)
  and those the check warned about (:data:`WARNED_READINGS`) gives the server's rows (:func:`explained`), or
  OData refuses it for a reason the guide lists (:data:`LISTED`); a refusal's rewrite is held to the meaning
  of the text as written the same way. Anything else is unexplained and fails the test.
"""

from __future__ import annotations

import itertools
import re
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from breeze_referee import _KEYWORD_NAMED, NodeScript, odata_grouping, render, start_script
from odata_meaning import Invalid, NoReading, Type, compile_filter
from printmgmt_sim.engine import QueryRejected, matcher
from printmgmt_sim.listquery import engine_find
from printmgmt_sim.translation import UNDEFINED, ObjectId, Regex, ServerQuery

from printmgmt.errors import InvalidQuery, QueryMeaningWarning
from printmgmt.server import JsDate, QueryRefused, check_query

SCRIPT = Path(__file__).resolve().with_name("semantic_referee.cjs")
SECOND_OPINION_EVERY = 10
Doc = dict[str, Any]


# --- the node process ----------------------------------------------------------------------------------
@dataclass
class SemanticNode(NodeScript):
    """A running ``semantic_referee.cjs``: the parser's tree of one text, breeze's document of another."""

    def answers(self, batch: Sequence[tuple[str | None, str]]) -> list[Any]:
        return self.exchange([{"meaning": meaning, "written": written} for meaning, written in batch])


def start_node() -> SemanticNode:
    """The node process, its server's local time zone UTC (zone-less datetimes then mean UTC to both)."""
    return SemanticNode(start_script(SCRIPT))


def meaning_text(text: str) -> str:
    """``text`` with OData's grouping of and/or/not written out in parentheses (the server reads that as
    OData does); as written where that grouping cannot read it (a ``$`` after a number, a field named and)."""
    if "$" in text or _KEYWORD_NAMED.search(text):
        return text
    return render(odata_grouping(text))


# --- the server's answer -------------------------------------------------------------------------------
def _decoded(value: Any) -> Any:
    """breeze's JSON (``semantic_referee.cjs`` markers) as ``printmgmt.server``'s JavaScript values."""
    if isinstance(value, list):
        return [_decoded(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((key, item),) = value.items()
        if key == "$undefined":
            return UNDEFINED
        if key == "$oid":
            return ObjectId(item)
        if key == "$regex":
            return Regex(item["source"], item["flags"])
        if key == "$date":
            return JsDate(None if item is None else _epoch_ms(item))
        if key == "$number":
            return float(item)
    return {key: _decoded(item) for key, item in value.items()}


def _epoch_ms(iso: str) -> int:
    from datetime import datetime

    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return round(moment.timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one side makes of a filter: ``kind`` is ``rows`` (``keys`` holds the matched documents' indexes),
    ``invalid`` (OData refuses: ``detail`` says why), ``refused`` (the server's 400), ``rejected`` (MongoDB
    refuses the query: 500) or ``unread`` (the referee has no OData reading)."""

    kind: str
    keys: frozenset[int] = frozenset()
    detail: str = ""

    def __str__(self) -> str:
        return f"rows {sorted(self.keys)}" if self.kind == "rows" else f"{self.kind} ({self.detail})"


def run_meaning(tree: Any, schema: Type, docs: Sequence[Doc], **server_readings: bool) -> Outcome:
    """OData's rows for ``tree`` (with any of :func:`compile_filter`'s server readings the guide lists)."""
    if tree is None or "refused" in tree:
        return Outcome("unread", detail=str(tree and tree["refused"]))
    try:
        holds = compile_filter(tree, schema, **server_readings)
    except Invalid as invalid:
        return Outcome("invalid", detail=invalid.kind)
    except NoReading as unread:
        return Outcome("unread", detail=str(unread))
    return Outcome("rows", frozenset(i for i, doc in enumerate(docs) if holds(doc)))


def server_find(document: Mapping[str, Any]) -> Any:
    """The engine's form of breeze's query document (its ``Find.filter``)."""
    query = ServerQuery(_decoded(document), None, None, None, None, False)
    return engine_find(query).filter


def run_engine(query: Mapping[str, Any], docs: Sequence[Doc]) -> Outcome:
    try:
        holds = matcher(query)
        return Outcome("rows", frozenset(i for i, doc in enumerate(docs) if holds(doc)))
    except QueryRejected as rejected:
        return Outcome("rejected", detail=str(rejected)[:80])


# --- montydb, the second opinion --------------------------------------------------------------------
def _montydb_gap(query: Any) -> bool:
    """What montydb does not model: ``$where``, ``$gte``/``$lte`` of null, a pattern it cannot take."""
    if isinstance(query, list):
        return any(_montydb_gap(item) for item in query)
    if isinstance(query, Mapping):
        for key, value in query.items():
            if key == "$where" or (key in ("$gte", "$lte") and value is None):
                return True
            if _montydb_gap(value):
                return True
        return False
    return not isinstance(query, str | int | float | bool | type(None) | re.Pattern) and not _is_oid(query)


def _is_oid(value: Any) -> bool:
    from bson import ObjectId as BsonObjectId

    return isinstance(value, BsonObjectId)


def _montydb_form(query: Any, operator_level: bool = False) -> Any:
    """montydb matches a pattern given as ``{$regex: p}`` (a bare pattern as a field's value it does not)."""
    if isinstance(query, list):
        return [_montydb_form(item) for item in query]
    if not isinstance(query, Mapping):
        return query
    out: dict[str, Any] = {}
    for key, value in query.items():
        if isinstance(value, re.Pattern) and not key.startswith("$"):
            out[key] = {"$regex": value}
        elif key.startswith("$") and key not in ("$and", "$or", "$nor", "$elemMatch"):
            out[key] = value if isinstance(value, re.Pattern) else _montydb_form(value, True)
        else:
            out[key] = _montydb_form(value)
    return out


def run_montydb(query: Mapping[str, Any], docs: Sequence[Doc]) -> Outcome | None:
    """montydb's answer, or None where it does not model the query."""
    from montydb.engine.queries import QueryFilter

    if _montydb_gap(query):
        return None
    try:
        holds = QueryFilter(_montydb_form(query))
        return Outcome("rows", frozenset(i for i, doc in enumerate(docs) if holds(doc)))
    except Exception as error:
        return Outcome("rejected", detail=f"montydb: {type(error).__name__}")


# --- the check ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Verdict:
    """What the SDK's check does with a filter: ``refused`` (with ``rewrite`` or None), ``warned`` (the
    warnings' class names, and the kinds of its meaning warnings) or ``accepted``."""

    kind: str
    rewrite: str | None = None
    warned: tuple[str, ...] = ()
    reason: str = ""
    meanings: tuple[str, ...] = ()


def check(collection: str, text: str) -> Verdict:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            check_query(collection, "strict", filter=text)
        except InvalidQuery as refused:
            return Verdict("refused", refused.rewrite, reason=refused.reason)
    names = tuple(sorted({type(w.message).__name__ for w in caught}))
    kinds = tuple(sorted({w.message.kind for w in caught if isinstance(w.message, QueryMeaningWarning)}))
    return Verdict("warned", warned=names, meanings=kinds) if names else Verdict("accepted")


# --- the guide's list ---------------------------------------------------------------------------------
def _has(tree: Any, test: Callable[[Mapping[str, Any]], bool]) -> bool:
    if isinstance(tree, list):
        return any(_has(item, test) for item in tree)
    if isinstance(tree, Mapping):
        return test(tree) or any(_has(value, test) for value in tree.values())
    return False


@dataclass(frozen=True, slots=True)
class Seen:
    """One difference as the guide's list looks at it: the parser's tree, both outcomes, the documents."""

    tree: Any
    meant: Outcome
    server: Outcome
    schema: Type
    docs: Sequence[Doc]


def _through_array(seen: Seen) -> bool:
    detail = seen.meant.detail
    return seen.meant.kind == "invalid" and (
        detail.startswith(("a path through an array", "a collection compared")) or detail.endswith("() of a collection")
    )


#: The differences docs/query-semantics.md lists as accepted where OData refuses the filter (its headings)
LISTED: dict[str, Callable[[Seen], bool]] = {
    "a path through an array matches where one element does": _through_array,
    "guid'…' is a text": lambda seen: seen.meant.detail == "comparison of mismatched types: guid vs string",
}


def _has_lambda(*ops: str) -> Callable[[Mapping[str, Any]], bool]:
    return lambda n: n.get("type") == "op_anyAll" and n.get("op") in ops


#: The server's readings docs/query-semantics.md lists as accepted (its headings): :func:`compile_filter`'s
#: keyword for each, and the feature of a tree it can change anything in
LISTED_READINGS: dict[str, tuple[str, Callable[[Mapping[str, Any]], bool]]] = {
    "all() is false for an empty or missing array": ("all_needs_element", _has_lambda("all")),
    "a text test of a missing value or of one that is no text is false": (
        "missing_text_false",
        lambda n: _text_literal(n, lambda t: True),
    ),
    "an array in an open object matches where one element does": (
        "open_arrays_by_element",
        lambda n: _open_compared(n),  # defined below
    ),
    "any() and all() pass over elements that are no documents": ("non_documents_skipped", _has_lambda("any", "all")),
}
#: the server's reading each kind of :class:`~printmgmt.errors.QueryMeaningWarning` names (its class's name)
WARNED_READINGS: dict[str, tuple[str, str]] = {
    "case": ("text_ignores_case", "a text function's case-insensitive match"),
}


def explained(seen: Seen, warned: Iterable[str] = ()) -> str | None:
    """The smallest set of the server's readings, of those the guide lists and those the check warned about
    (``warned``: the warnings' kinds), with which OData's meaning is the server's result, named (listed
    readings as ``listed: …``, warned ones as ``warned (…): …``, joined with ``+``); None if there is none.
    Each reading named is needed: without it the rest do not give the server's rows."""
    if seen.meant.kind != "rows" or seen.server.kind != "rows":
        return None
    found = [
        (f"listed: {name}", keyword) for name, (keyword, feature) in LISTED_READINGS.items() if _has(seen.tree, feature)
    ]
    found += [(f"warned ({kind}): {WARNED_READINGS[kind][1]}", WARNED_READINGS[kind][0]) for kind in warned]

    def gives(readings: Sequence[tuple[str, str]]) -> bool:
        flags = dict.fromkeys((keyword for _, keyword in readings), True)
        return run_meaning(seen.tree, seen.schema, seen.docs, **flags) == seen.server

    if not found or not gives(found):
        return None
    return next(
        " + ".join(name for name, _ in readings)
        for size in range(1, len(found) + 1)
        for readings in itertools.combinations(found, size)
        if gives(readings)
    )


def listed(seen: Seen) -> str | None:
    """The heading of the guide's entry for a difference where OData refuses the filter, as ``listed: …``."""
    return next((f"listed: {name}" for name, finds in LISTED.items() if finds(seen)), None)


# --- naming a difference's class ---------------------------------------------------------------------
_REGEX_CHARACTERS = re.compile(r"[.*+?^$|()\[\]{}\\]")
_HEX24 = re.compile(r"[0-9a-fA-F]{24}\Z")
_TEXT_FUNCTIONS = ("startswith", "endswith", "substringof")


def _is(kind: str, **values: Any) -> Callable[[Mapping[str, Any]], bool]:
    return lambda n: n.get("type") == kind and all(n.get(key) == value for key, value in values.items())


def _text_literal(n: Mapping[str, Any], test: Callable[[str], bool]) -> bool:
    return (
        n.get("type") == "fn_2"
        and n.get("name") in _TEXT_FUNCTIONS
        and any(
            isinstance(arg, Mapping) and arg.get("type") == "lit_string" and test(arg["value"])
            for arg in (n.get("p1"), n.get("p2"))
        )
    )


def _big(n: Mapping[str, Any]) -> bool:
    if n.get("type") != "lit_number":
        return False
    text = n["value"]["$number"]
    return bool(re.fullmatch(r"-?[0-9]+", text)) and abs(int(text)) > 2**53


def _ordered(n: Mapping[str, Any]) -> bool:
    """An order (lt/le/gt/ge) of two operands."""
    return n.get("type") == "op_bool" and n.get("op") in ("lt", "le", "gt", "ge") and isinstance(n.get("p2"), Mapping)


def _ordered_null(n: Mapping[str, Any]) -> bool:
    return _ordered(n) and n["p2"].get("type") == "lit_null"


def _boolean_compared(n: Mapping[str, Any]) -> bool:
    """A condition compared with a boolean, but for ``eq true``: that one the server reads as OData does."""
    p1, p2 = n.get("p1"), n.get("p2")
    return (
        n.get("type") == "op_bool"
        and not (n.get("op") == "eq" and isinstance(p2, Mapping) and p2.get("value") is True)
        # nor 'eq false' of a condition that is never null (only a function of a missing field is)
        and not (n.get("op") == "eq" and isinstance(p1, Mapping) and p1.get("type") in ("op_bool", "op_anyAll"))
        and isinstance(p2, Mapping)
        and p2.get("type") == "lit_boolean"
        and isinstance(p1, Mapping)
        and p1.get("type") != "member"
    )


def _scalar_lambda(n: Mapping[str, Any]) -> bool:
    """A lambda whose variable stands alone (``fn eq 'x'``): the element itself, which $elemMatch never is."""
    variable = n.get("lambda")
    return n.get("type") == "op_anyAll" and _has(
        n.get("subquery"), lambda m: m.get("type") == "member" and m.get("value") == variable
    )


def _open_compared(n: Mapping[str, Any]) -> bool:
    """A field of an open object (below ``physical``) compared, also through a lambda over one."""
    if n.get("type") == "op_anyAll":
        return str(n.get("member", "")).startswith("physical/") and _has(
            n.get("subquery"), lambda m: m.get("type") == "op_bool" and m.get("p1", {}).get("type") == "member"
        )
    return n.get("type") == "op_bool" and str(n.get("p1", {}).get("value", "")).startswith("physical/")


#: the features that name a difference where OData answers rows, in the order they are looked for
_FEATURES: list[tuple[str, Callable[[Mapping[str, Any]], bool]]] = [
    ("a boolean expression compared with true/false", _boolean_compared),
    ("characters after a number", lambda n: n.get("type") == "lit_number" and "[object" in n["value"]["$number"]),
    ("a number beyond 2^53", _big),
    (
        "a text of 24 hex digits (an ObjectId to the server)",
        lambda n: n.get("type") == "lit_string" and bool(_HEX24.match(n["value"])),
    ),
    ("a text function's text read as a regex", lambda n: _text_literal(n, lambda t: bool(_REGEX_CHARACTERS.search(t)))),
    ("a text function's case-insensitive match", lambda n: _text_literal(n, lambda t: True)),
    ("any()/all() with the variable alone (an array of scalars)", _scalar_lambda),
    ("lt/le/gt/ge null", _ordered_null),
    (
        "a field against a field ($where)",
        lambda n: (
            n.get("type") == "op_bool"
            and all(isinstance(n.get(k), Mapping) and n[k].get("type") == "member" for k in ("p1", "p2"))
        ),
    ),
    ("a text function of a field", lambda n: n.get("type") == "fn_2" and n.get("name") in _TEXT_FUNCTIONS),
    (
        "an order of keys against a text",
        lambda n: _ordered(n) and n["p1"].get("value") == "_id" and n["p2"].get("type") in ("lit_string", "lit_guid"),
    ),
    ("not over a missing field", _is("op_unary", op="not ")),
    ("an array in an open field compared as a value", _open_compared),
]


def difference_class(tree: Any, meant: Outcome, server: Outcome) -> str:
    """The class a difference belongs to, for grouping (the first feature found)."""
    if meant.kind == "invalid":
        detail = re.sub(
            r"a (object|collection) compared with \w+", "an object or array compared as a value", meant.detail
        )
        detail = re.sub(r"(startswith|endswith|substringof)\(\) of a \w+", "a text function of a non-text", detail)
        return f"OData refuses ({detail}), the server {'fails' if server.kind == 'rejected' else 'answers'}"
    found = next((name for name, test in _FEATURES if _has(tree, test)), "other")
    if server.kind == "rejected":
        return f"MongoDB fails the query (500): {found}"
    return found


# --- one run -----------------------------------------------------------------------------------------
@dataclass
class Tally:
    """The referee's counts and the unexplained differences, grouped by class."""

    filters: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    explained: Counter[str] = field(default_factory=Counter)
    unexplained: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    twin: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    second_opinions: int = 0

    def report(self) -> str:
        lines = [
            f"semantic referee: {self.filters} filters; "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
            + f"; unexplained {sum(map(len, self.unexplained.values()))}"
        ]
        for name, count in sorted(self.explained.items(), key=lambda item: -item[1]):
            lines.append(f"  explained  {count:6d}  {name}")
        for name, examples in sorted(self.unexplained.items(), key=lambda item: -len(item[1])):
            lines.append(f"  unexplained {len(examples):5d}  {name}: e.g. {min(examples, key=len)}")
        for name, examples in sorted(self.twin.items(), key=lambda item: -len(item[1])):
            lines.append(f"  twin≠montydb {len(examples):4d}  {name}: e.g. {min(examples, key=len)}")
        lines.append(f"  second opinions (montydb) taken: {self.second_opinions}")
        return "\n".join(line if len(line) <= 240 else line[:239] + "…" for line in lines)


@dataclass(frozen=True, slots=True)
class Case:
    """One generated filter: its text, the collection it is for, and the class the generator drew it from."""

    text: str
    collection: str
    origin: str


def referee(
    proc: SemanticNode,
    cases: Sequence[Case],
    schemas: Mapping[str, Type],
    docs: Mapping[str, Sequence[Doc]],
    tally: Tally,
) -> None:
    """Run ``cases`` through both sides and classify every difference into ``tally``."""
    answers = proc.answers([(meaning_text(case.text), case.text) for case in cases])
    rewrites: list[tuple[Case, Any, Outcome, str]] = []
    for case, answer in zip(cases, answers, strict=True):
        tally.filters += 1
        collection_docs = docs[case.collection]
        meant = run_meaning(answer["tree"], schemas[case.collection], collection_docs)
        server = _server(case, answer["server"], collection_docs, meant, tally)
        if meant.kind == "unread":
            tally.outcomes["no OData reading"] += 1
            continue
        if server.kind == "refused":
            tally.outcomes["the server refuses (400)"] += 1
            verdict = check(case.collection, case.text)
            if verdict.kind != "refused":
                tally.unexplained["the check accepts what the server refuses"].append(case.text)
            continue
        if meant == server:
            tally.outcomes["same"] += 1
            continue
        tally.outcomes["differ"] += 1
        verdict = check(case.collection, case.text)
        if verdict.kind == "refused" and verdict.rewrite is not None:
            rewrites.append((case, answer["tree"], meant, verdict.rewrite))
            continue
        name = difference_class(answer["tree"], meant, server)
        seen = Seen(answer["tree"], meant, server, schemas[case.collection], collection_docs)
        if verdict.kind == "refused":
            tally.explained[f"refused: {name}"] += 1
        elif "UnknownFieldWarning" in verdict.warned and meant.detail == "unknown field":
            tally.explained[f"warned (UnknownFieldWarning): {name}"] += 1
        elif reading := listed(seen) or explained(seen, verdict.meanings):
            tally.explained[reading] += 1
        else:
            if meant.kind == "rows" and run_montydb(server_find(answer["server"]), docs[case.collection]) == meant:
                # MongoDB's rules as montydb keeps them agree with OData here: the twin's engine is off
                name = f"the twin only (montydb answers as OData means): {name}"
            tally.unexplained[name].append(f"{case.text!r} on {case.collection}: OData {meant}, server {server}")
    if rewrites:
        _check_rewrites(proc, rewrites, schemas, docs, tally)


def examine(proc: SemanticNode, case: Case, schema: Type, docs: Sequence[Doc]) -> tuple[Outcome, Outcome, str]:
    """OData's outcome, the server's, and the class of their difference, for one filter."""
    (answer,) = proc.answers([(meaning_text(case.text), case.text)])
    meant = run_meaning(answer["tree"], schema, docs)
    server = _server(case, answer["server"], docs, meant, Tally())
    return meant, server, difference_class(answer["tree"], meant, server)


def _server(case: Case, document: Any, docs: Sequence[Doc], meant: Outcome, tally: Tally) -> Outcome:
    if "refused" in document:
        return Outcome("refused", detail=document["refused"][:80])
    try:
        query = server_find(document)
    except QueryRejected as rejected:
        return Outcome("rejected", detail=str(rejected)[:80])
    except QueryRefused as refused:  # noqa: F841 - the reader refuses what breeze built: no such case known
        return Outcome("refused", detail="reader")
    engine = run_engine(query, docs)
    if tally.filters % SECOND_OPINION_EVERY == 0 and (second := run_montydb(query, docs)) is not None:
        tally.second_opinions += 1
        if second != engine and not (second.kind == engine.kind == "rejected"):
            tally.twin[difference_class(None, meant, engine) if meant.kind == "invalid" else "rows"].append(
                f"{case.text!r}: twin {engine}, montydb {second}"
            )
    return engine


def _check_rewrites(
    proc: SemanticNode,
    rewrites: Sequence[tuple[Case, Any, Outcome, str]],
    schemas: Mapping[str, Type],
    docs: Mapping[str, Sequence[Doc]],
    tally: Tally,
) -> None:
    """A refusal's rewrite must mean what the user wrote: the server's result for the rewrite is OData's
    meaning of the filter as written (``tree``; where OData refuses that filter too, the refusal stands alone),
    or that meaning read with the server's readings the guide lists or the check warns about for the rewrite."""
    answers = proc.answers([(None, rewrite) for *_, rewrite in rewrites])
    for (case, tree, meant, rewrite), answer in zip(rewrites, answers, strict=True):
        collection_docs = docs[case.collection]
        server = _server(case, answer["server"], collection_docs, meant, tally)
        if meant.kind != "rows":
            tally.explained["refused: OData refuses it too"] += 1
            continue
        name = difference_class(tree, meant, server)
        seen = Seen(tree, meant, server, schemas[case.collection], collection_docs)
        if server == meant:
            tally.explained[f"refused with a rewrite that means it: {name}"] += 1
        elif reading := explained(seen, check(case.collection, rewrite).meanings):
            tally.explained[f"refused with a rewrite read so: {reading}"] += 1
        else:
            tally.unexplained[f"the rewrite misreads too: {name}"].append(
                f"{case.text!r} -> {rewrite!r}: meant {meant}, the rewrite gets {server}"
            )


#: the tallies of this session's runs (the terminal summary prints the last)
RUNS: list[Tally] = []


def chunks(items: Sequence[Case], size: int) -> Iterable[Sequence[Case]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
