"""The semantic referee over generated filters: what OData means (``odata_meaning`` over the real parser's
tree) against what the server does (breeze-mongodb's document run with MongoDB's rules), on the same
documents; every difference is refused or warned about by the SDK's check, or listed in the query guide
(``semantic_referee.referee``).

The filters: every function the grammar accepts, every comparison operator, boolean expressions compared
with ``true``/``false`` under every operator, every literal form (text with regex metacharacters, quotes,
case, 24 hex digits and non-ASCII; ``datetime``/``datetimeoffset``/``guid``/``binary`` and ``time``;
integers past 2^53, decimals and suffixes; ``null``; ``$`` and other characters after a literal), on fields
of every type the spec has (epoch-millisecond integers, integers, booleans, texts, arrays of texts, arrays of
documents, open objects with nested arrays), alone and under ``not``, ``and``/``or``, ``any``/``all``. The
documents are drawn from the spec's schemas with the values those filters aim at, nulls and missing fields.

Hypothesis draws the seeds (derandomized: the same filters each run); ``SEMANTIC_REFEREE_BATCHES`` (default
40 batches of 500 filters) runs more.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from odata_meaning import Type, schema_of
from semantic_referee import (
    LISTED,
    LISTED_READINGS,
    RUNS,
    Case,
    Seen,
    SemanticNode,
    Tally,
    examine,
    explained,
    meaning_text,
    referee,
    run_engine,
    run_meaning,
    server_find,
    start_node,
)

from printmgmt_api.field_catalog import EPOCH_MS_FIELDS
from printmgmt_api.schemas import SCHEMAS

BATCH = 500
BATCHES = int(os.environ.get("SEMANTIC_REFEREE_BATCHES", "40"))
SCHEMAS_BY_COLLECTION: dict[str, Type] = {"jobs": schema_of(SCHEMAS, "Job"), "printers": schema_of(SCHEMAS, "Printer")}

# --- values the documents hold and the filters aim at ------------------------------------------------
HEX_ID = "677b8bdbc382d72a50690cc3"
TEXTS = [
    "Error", "error", "ERROR", "Inv-2025.pdf", "Invoice", "inv.x", "invXx", "report.pdf", "reportXpdf",
    "PRT-MUC", "PRT-BER", "PRT-MUC|PRT-BER", "docs/inv.*", "docs/invoice", "(v1.2)", "v1x2", "a+b", "aab",
    "it's", "Müller", "MÜLLER", "straße", "İstanbul", "istanbul", "", " padded ", HEX_ID, HEX_ID.upper(),
    "ab\\d", "a1", "x$", "^x", "[a]", "a",
]  # fmt: skip
NUMBERS = [0, 1, 2, -1, 3, 5, 100, 20000, 2**53, 2**53 + 1, 2**53 + 2, 1.5, -0.5]
EPOCHS = [0, 1735776000000, 1735776000001, 1735689600000, 1608280547459, 1767225600000]
BOOLS = [True, False]


def stored_value(rnd: random.Random, name: str, kind: Type, depth: int = 0) -> Any:
    """A value for a field of type ``kind`` (None and mismatched values now and then: the server keeps any)."""
    roll = rnd.random()
    if roll < 0.08 and depth:
        return None
    if kind.kind == "object":
        if kind.open:
            return {
                "ready": rnd.choice([*BOOLS, 1, 0]),
                "trays": rnd.choice([[[1, 2], [3]], [], [["a4"]], [1, [2]]]),
                "media": [{"names": rnd.sample(["a4", "A4", "letter"], 2)}],
                "level": rnd.choice([*NUMBERS, "5"]),
            }
        assert kind.fields is not None
        out = {}
        for key, sub in kind.fields.items():
            if rnd.random() < 0.9:
                out[key] = stored_value(rnd, key, sub, depth + 1)
        return out
    if kind.kind == "collection":
        assert kind.element is not None
        return [stored_value(rnd, name, kind.element, depth + 1) for _ in range(rnd.choice([0, 1, 2, 2, 3]))]
    if roll < 0.12:  # the server keeps whatever was written: a mismatched type
        return rnd.choice([1, True, "1", 0, False])
    if kind.kind == "string":
        return rnd.choice(TEXTS)
    if kind.kind == "number":
        return rnd.choice(EPOCHS if name in EPOCH_MS_FIELDS else NUMBERS)
    if kind.kind == "bool":
        return rnd.choice(BOOLS)
    return rnd.choice([*TEXTS, *NUMBERS])


def documents(collection: str, count: int, seed: int) -> list[dict[str, Any]]:
    rnd = random.Random(seed)
    schema = SCHEMAS_BY_COLLECTION[collection]
    docs = []
    for i in range(count):
        doc = stored_value(rnd, "", schema)
        assert isinstance(doc, dict)
        if collection == "jobs":
            doc["_id"] = ObjectId(HEX_ID) if i == 0 else ObjectId(f"{i:024x}")
        else:
            doc["_id"] = f"PRT-{i:02d}"
        docs.append(doc)
    return docs


#: documents holding the values the named misreadings' examples aim at, besides the drawn ones
FIXED_JOB = {
    "_id": ObjectId("0" * 23 + "f"),
    "status": "Error",
    "current": {"jobName": "v1x2", "fileName": "reportXpdf", "printerName": "PRT-MUC", "copies": 1,
                "fileSize": 2**53, "checkinTime": 1735776000001},
    "stages": [{"createdBy": "checkin"}],
}  # fmt: skip
FIXED_PRINTER = {"_id": "PRT-FIXED", "config": {"nativeQueue": True}, "runtime": {"currentPrintingJob": HEX_ID}}
DOCS = {
    "jobs": [*documents("jobs", 28, 1), FIXED_JOB],
    "printers": [*documents("printers", 16, 2), FIXED_PRINTER],
}


# --- the fields of each collection, by type --------------------------------------------------------------
def leaves(kind: Type, prefix: str = "") -> Iterator[tuple[str, Type]]:
    assert kind.fields is not None
    for key, sub in kind.fields.items():
        path = f"{prefix}{key}"
        yield path, sub
        if sub.kind == "object" and sub.fields:
            yield from leaves(sub, path + "/")


FIELDS = {name: list(leaves(schema)) for name, schema in SCHEMAS_BY_COLLECTION.items()}
OPEN_FIELDS = ["physical/ready", "physical/level", "physical/trays", "physical/media"]


def field_kind(path: str, kind: Type) -> str:
    if kind.kind == "number" and path.rsplit("/", 1)[-1] in EPOCH_MS_FIELDS:
        return "epoch-ms integer"
    return {"number": "integer", "string": "text", "bool": "boolean"}.get(kind.kind, kind.kind)


# --- the generator ---------------------------------------------------------------------------------
OPERATORS = ["eq", "ne", "lt", "le", "gt", "ge"]
TEXT_FUNCTIONS = ["startswith", "endswith", "substringof"]
STRAYS = ["$", "$x", "$top=1", "$filter=zz eq 1", "x", "#", "&", ";"]


class Filters:
    """Filters and the class each is drawn from, from one seeded ``random.Random``."""

    def __init__(self, rnd: random.Random) -> None:
        self.r = rnd

    def pick(self, options: list[Any]) -> Any:
        return self.r.choice(options)

    def field(self, collection: str, kinds: tuple[str, ...] = ()) -> tuple[str, str]:
        """A path and its kind (``kinds`` limits them); now and then an open or unknown one."""
        roll = self.r.random()
        if collection == "printers" and roll < 0.08:
            return self.pick(OPEN_FIELDS), "open"
        if roll < 0.11:
            return self.pick(["stauts", "current/jobname", "config/speed"]), "unknown field"
        every = [(p, field_kind(p, k)) for p, k in FIELDS[collection]]
        found: tuple[str, str] = self.pick([(p, kind) for p, kind in every if kind in kinds] or every)
        return found

    def literal(self) -> tuple[str, str]:
        """A literal's text and its kind."""
        kind = self.pick(
            ["text"] * 5 + ["number"] * 3 + ["boolean", "null", "date", "guid", "big number", "decimal", "24 hex"]
            + ["binary", "time", "quoted text", "non-ASCII text", "regex text"]
        )  # fmt: skip
        r = self.r
        if kind == "text":
            return "'" + self.pick(TEXTS).replace("'", "''") + "'", kind
        if kind == "quoted text":
            return "'" + self.pick(["it''s", "''", "'''", "a''b"]) + "'", kind
        if kind == "non-ASCII text":
            return "'" + self.pick(["Müller", "MÜLLER", "straße", "İ", "\u0131", "Ü", "日本"]) + "'", kind
        if kind == "regex text":
            text = self.pick([".pdf", ".", "PRT-MUC|PRT-BER", "docs/inv.*", "(v1.2)", "a+b", "^x", "x$", "[a]",
                              "\\d", "(", "a{2}", "inv.x", "Inv", "error", "ERROR", "*", "?", "\\"])  # fmt: skip
            return "'" + text.replace("'", "''") + "'", kind
        if kind == "24 hex":
            return "'" + self.pick([HEX_ID, HEX_ID.upper(), "0" * 23 + "1", "f" * 24]) + "'", kind
        if kind == "number":
            return str(self.pick([0, 1, 2, -1, 3, 5, 100, 20000, *EPOCHS[1:]])) + self.pick(
                [""] * 6 + ["L", "m", "M", "f"]
            ), kind
        if kind == "big number":
            return self.pick([str(2**53 + 1), str(2**53), str(2**53 + 2), "9007199254740993L", str(10**20)]), kind
        if kind == "decimal":
            return self.pick(["1.5", "-0.5", "1.0", "2.50m", "0.1f", "20000.0"]), kind
        if kind == "boolean":
            return self.pick(["true", "false"]), kind
        if kind == "null":
            return self.pick(["null", "null", "null'Edm.String'"]), kind
        if kind == "date":
            keyword = self.pick(["datetime", "datetimeoffset"])
            text = self.pick(["2025-01-02T00:00:00Z", "2025-01-02T00:00", "2025-01-01T00:00:00.001Z",
                              "2020-12-18T08:35:47.459Z", "2025-02-30T00:00:00Z", "2025-01-01T24:00:00Z",
                              "2025-01-02T01:00:00+01:00", "2026-01-01T00:00:00.1234567Z"])  # fmt: skip
            return f"{keyword}'{text}'", f"{keyword} date"
        if kind == "guid":
            return self.pick(["guid'1c8f5a1e-0000-4000-8000-000000000001'", f"guid'{HEX_ID}'"]), kind
        if kind == "binary":
            return "binary'0A'", kind
        return self.pick(["time'PT1H'", "duration'PT1H'"]), kind
        _ = r

    def compare(self, collection: str) -> tuple[str, str]:
        path, fkind = self.field(collection)
        literal, lkind = self.literal()
        return f"{path} {self.pick(OPERATORS)} {literal}", f"{fkind} field compared with a {lkind} literal"

    def text_function(self, collection: str) -> tuple[str, str]:
        name = self.pick(TEXT_FUNCTIONS)
        path, fkind = self.field(collection, ("text",) if self.r.random() < 0.7 else ())
        literal, lkind = self.literal() if self.r.random() < 0.3 else (None, None)
        if literal is None:
            literal, lkind = "'" + self.pick(TEXTS[:24]).replace("'", "''") + "'", "text"
            if self.r.random() < 0.5:
                literal, lkind = self.literal_of("regex text")
        if self.r.random() < 0.05:  # a field as the second argument
            other, _ = self.field(collection, ("text",))
            literal, lkind = other, "field"
        args = f"{literal},{path}" if name == "substringof" else f"{path},{literal}"
        return f"{name}({args})", f"{name}() on a {fkind} field with a {lkind}"

    def literal_of(self, kind: str) -> tuple[str, str]:
        while True:
            literal, found = self.literal()
            if found == kind:
                return literal, found

    def other_function(self, collection: str) -> tuple[str, str]:
        text, _ = self.field(collection, ("text",))
        number, _ = self.field(collection, ("integer",))
        epoch, _ = self.field(collection, ("epoch-ms integer",))
        word = "'" + self.pick(TEXTS[:20]).replace("'", "''") + "'"
        op = self.pick(OPERATORS)
        forms = {
            "tolower": f"tolower({text}) {op} {word}",
            "toupper": f"toupper({text}) {op} {word}",
            "trim": f"trim({text}) {op} {word}",
            "length": f"length({text}) {op} {self.pick([0, 3, 5])}",
            "indexof": f"indexof({text},'r') {op} {self.pick([-1, 0, 1])}",
            "substring": f"substring({text},1) {op} {word}",
            "substring3": f"substring({text},1,2) {op} 'rr'",
            "concat": f"concat({text},'x') {op} {word}",
            "replace": f"replace({text},'r','R') {op} {word}",
            "year": f"year({epoch}) {op} 2025",
            "year-date": f"year(datetime'2025-01-02T00:00:00Z') {op} 2025",
            "month": f"month({epoch}) {op} 1",
            "day": f"day({epoch}) {op} 2",
            "hour": f"hour({epoch}) {op} 0",
            "minute": f"minute({epoch}) {op} 0",
            "second": f"second({epoch}) {op} 0",
            "round": f"round({number}) {op} 2",
            "floor": f"floor({number}) {op} 1",
            "ceiling": f"ceiling({number}) {op} 2",
            "isof": f"isof({text},'Edm.String')",
            "arithmetic": f"{number} add 1 {op} 2",
            "function on the left of a field": f"tolower({text}) eq {text}",
        }
        name = self.pick(list(forms))
        return forms[name], f"{name}()"

    def lambda_(self, collection: str) -> tuple[str, str]:
        r = self.r
        op = self.pick(["any", "all"])
        if collection == "printers":
            form = self.pick(
                ["physical/trays/{op}(tt: tt eq 1)", "physical/media/{op}(md: md/names eq 'a4')",
                 "physical/media/{op}(md: md/names/any(nn: nn eq 'a4'))"]
            )  # fmt: skip
            return form.format(op=op), f"{op}() over an open array (nested arrays)"
        if r.random() < 0.35:
            literal = "'" + self.pick(TEXTS[:20]).replace("'", "''") + "'"
            return f"fileName/{op}(fn: fn {self.pick(OPERATORS)} {literal})", f"{op}() over an array of texts"
        body, origin = self.condition(collection, depth=3, prefix="st/", stage=True)
        return f"stages/{op}(st: {body})", f"{op}() over an array of documents: {origin}"

    def stage_field(self) -> tuple[str, str]:
        stages = SCHEMAS_BY_COLLECTION["jobs"].fields
        assert stages is not None and stages["stages"].element is not None
        found: tuple[str, str] = self.pick([(p, field_kind(p, k)) for p, k in leaves(stages["stages"].element)])
        return found

    def bool_compare(self, collection: str) -> tuple[str, str]:
        inner, origin = self.pick([self.text_function, self.compare, self.lambda_, self.member_member])(collection)
        if not inner.startswith(("startswith", "endswith", "substringof")) or self.r.random() < 0.2:
            inner = f"({inner})"
        op, value = self.pick(OPERATORS), self.pick(["true", "false"])
        return f"{inner} {op} {value}", f"a boolean expression {op} {value}: {origin}"

    def member_member(self, collection: str) -> tuple[str, str]:
        a, ka = self.field(collection)
        b, kb = self.field(collection, (ka,) if self.r.random() < 0.7 else ())
        return f"{a} {self.pick(OPERATORS)} {b}", f"{ka} field against a {kb} field"

    def array_path(self, collection: str) -> tuple[str, str]:
        if collection == "printers":
            return self.compare(collection)
        path, kind = self.pick([("fileName", "text"), ("stages/createdBy", "text"), ("stages/createdAt", "epoch"),
                                ("stages/context/type", "text")])  # fmt: skip
        literal = "'checkin'" if kind == "text" else self.pick(["1608280547460", "0"])
        if self.r.random() < 0.3:
            return f"startswith({path},'che')", "a text function on a path through an array"
        return f"{path} {self.pick(OPERATORS)} {literal}", "a path through an array compared outside any()"

    def stray(self, collection: str) -> tuple[str, str]:
        path, _ = self.field(collection, ("integer", "epoch-ms integer"))
        rest, _ = self.compare(collection)
        literal = self.pick(["1", "0", "20000", "1.5", "-1"]) if self.r.random() < 0.7 else self.literal()[0]
        return f"{path} eq {literal}{self.pick(STRAYS)} and {rest}", "characters after a literal"

    def atom(self, collection: str) -> tuple[str, str]:
        makers: list[Callable[[str], tuple[str, str]]] = [
            self.compare, self.compare, self.compare, self.text_function, self.text_function, self.other_function,
            self.lambda_, self.bool_compare, self.bool_compare, self.member_member, self.array_path, self.stray,
        ]  # fmt: skip
        make: Callable[[str], tuple[str, str]] = self.pick(makers)
        return make(collection)

    def condition(self, collection: str, depth: int = 0, prefix: str = "", stage: bool = False) -> tuple[str, str]:
        """A condition: an atom, or ``not``/``and``/``or`` of conditions (inside a lambda, over ``prefix``)."""
        if stage:
            path, kind = self.stage_field()
            literal, lkind = self.literal()
            if self.r.random() < 0.3:
                name = self.pick(["startswith", "endswith"])
                return f"{name}({prefix}{path},{literal})", f"{name}() on {kind} with a {lkind}"
            return f"{prefix}{path} {self.pick(OPERATORS)} {literal}", f"{kind} compared with a {lkind}"
        roll = self.r.random()
        if depth >= 2 or roll < 0.7:
            return self.atom(collection)
        if roll < 0.8:
            inner, origin = self.condition(collection, depth + 1)
            return f"not ({inner})", f"not: {origin}"
        left, origin = self.condition(collection, depth + 1)
        right, _ = self.condition(collection, depth + 1)
        if self.r.random() < 0.8:
            left, right = f"({left})", f"({right})"
        return f"{left} {self.pick(['and', 'or'])} {right}", origin

    def case(self) -> Case:
        collection = self.pick(["jobs", "jobs", "printers"])
        text, origin = self.condition(collection)
        return Case(text, collection, origin)


# --- the test --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def semantic_node() -> Iterator[SemanticNode]:
    proc = start_node()
    yield proc
    proc.stop()


CHECK = settings(
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    database=None,
    deadline=None,
    max_examples=1,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


@CHECK
@given(st.randoms(use_true_random=True))
def test_generated_filters_mean_what_odata_means_or_are_refused_warned_or_listed(
    semantic_node: SemanticNode, rnd: random.Random
) -> None:
    # one seed for every batch: a failure lists every unexplained class with its shortest example
    filters, tally = Filters(rnd), Tally()
    RUNS.append(tally)
    for _ in range(BATCHES):
        referee(semantic_node, [filters.case() for _ in range(BATCH)], SCHEMAS_BY_COLLECTION, DOCS, tally)
    assert tally.filters == BATCH * BATCHES
    assert not tally.unexplained, tally.report()


#: the named classes of misreading (docs/paging.md), each with one of its filters: the referee finds
#: each as a difference and names its class (whatever the installed check then does with it)
WHY = [
    ("jobs", "startswith(current/jobName,'Inv') ne true", "a boolean expression compared with true/false"),
    ("jobs", "(status eq 'Error') ne true", "a boolean expression compared with true/false"),
    ("jobs", "stages/any(st: st/createdBy eq 'checkin') ne true", "a boolean expression compared with true/false"),
    ("jobs", "startswith(status,'Err') gt false", "a boolean expression compared with true/false"),
    (
        "jobs",
        "current/checkinTime ge datetime'2025-01-02T00:00:00Z'",
        "OData refuses (comparison of mismatched types: instant vs number), the server answers",
    ),
    ("printers", f"runtime/currentPrintingJob eq '{HEX_ID}'", "a text of 24 hex digits (an ObjectId to the server)"),
    ("jobs", "endswith(current/fileName,'.pdf')", "a text function's text read as a regex"),
    ("jobs", "substringof('PRT-MUC|PRT-BER',current/printerName)", "a text function's text read as a regex"),
    ("jobs", "substringof('(v1.2)',current/jobName)", "a text function's text read as a regex"),
    ("jobs", "startswith(status,'error')", "a text function's case-insensitive match"),
    (
        "jobs",
        "current/copies eq 1$x and status eq 'Canceled'",
        "OData refuses (stray characters after a number), the server answers",
    ),
    (
        "printers",
        "config/nativeQueue eq 1",
        "OData refuses (comparison of mismatched types: bool vs number), the server answers",
    ),
    ("jobs", "current/fileSize ne 9007199254740993", "a number beyond 2^53"),
]


@pytest.mark.parametrize(("collection", "text", "named"), WHY, ids=[text for _, text, _ in WHY])
def test_each_named_class_of_misreading_is_found_and_named(
    semantic_node: SemanticNode, collection: str, text: str, named: str
) -> None:
    meant, server, found = examine(
        semantic_node, Case(text, collection, "issue"), SCHEMAS_BY_COLLECTION[collection], DOCS[collection]
    )
    assert meant != server, f"{text!r}: OData {meant}, server {server}: no difference on these documents"
    assert found == named


MISSING = "listed: a text test of a missing value or of one that is no text is false"
CASE = "warned (case): a text function's case-insensitive match"
ALL = "listed: all() is false for an empty or missing array"

#: differences the server's readings make whole only together, or only for the rewrite a refusal offers: each
#: is explained by the smallest set of them (what the guide lists, what the check warns about), named by each
READ_SO = [
    # 24 hex digits are an ObjectId, but in a text function its hex text: what differs is the case and the
    # printers without the field
    ("jobs", "not (startswith(refId,'677b8bdbc382d72a50690cc3'))", f"{MISSING} + {CASE}"),
    # a text test of an array in an open object is false to the server (no element is a text), null to OData
    ("printers", "not ((startswith(physical/trays,'Ü')) eq false)", MISSING),
    # the rewrite (guid'…': a text to the server) is held to the meaning of what was written, not its own
    ("jobs", "stages/all(st: st/createdBy le '677b8bdbc382d72a50690cc3')", f"refused with a rewrite read so: {ALL}"),
    # the escaped rewrite keeps the server's false for a field that holds a number
    ("printers", "not (startswith(runtime/redirectedTo,'.'))", f"refused with a rewrite read so: {MISSING}"),
]


@pytest.mark.parametrize(("collection", "text", "named"), READ_SO, ids=[text for _, text, _ in READ_SO])
def test_a_difference_is_explained_by_the_readings_that_make_it_whole(
    semantic_node: SemanticNode, collection: str, text: str, named: str
) -> None:
    tally = Tally()
    referee(semantic_node, [Case(text, collection, "named")], SCHEMAS_BY_COLLECTION, DOCS, tally)
    assert (dict(tally.explained), dict(tally.unexplained)) == ({named: 1}, {})


def test_a_warned_reading_explains_only_where_the_check_warned(semantic_node: SemanticNode) -> None:
    text = "not (startswith(refId,'677b8bdbc382d72a50690cc3'))"
    (answer,) = semantic_node.answers([(meaning_text(text), text)])
    meant = run_meaning(answer["tree"], SCHEMAS_BY_COLLECTION["jobs"], DOCS["jobs"])
    seen = Seen(answer["tree"], meant, run_engine(server_find(answer["server"]), DOCS["jobs"]),
                SCHEMAS_BY_COLLECTION["jobs"], DOCS["jobs"])  # fmt: skip
    assert seen.meant != seen.server
    assert explained(seen) is None
    assert explained(seen, ["case"]) == f"{MISSING} + {CASE}"


def test_every_listed_difference_is_a_heading_of_the_query_guide() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "query-semantics.md").read_text()
    headings = {line[3:].lower() for line in guide.splitlines() if line.startswith("## ")}
    assert {name.lower() for name in [*LISTED, *LISTED_READINGS]} <= headings
