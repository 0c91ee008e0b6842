"""printmgmt.server (query reading): the server's query language, with the examples of the query-language note.

The differential test (tests/referees/test_querylang_differential.py) holds the reader to the real packages
on a large corpus; these are the rules one by one, readable.
"""

from __future__ import annotations

import itertools
import math
import pickle
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from printmgmt_sim.translation import (
    UNDEFINED,
    ObjectId,
    Regex,
    ServerQuery,
    parse_filter,
    parse_orderby,
    parse_select,
    read_query,
)

from printmgmt.server import JsDate, Member, QueryRefused, filter_members, misreadings, read_option

OID = "67725342cfddd0c58b71cce6"


def ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> int:
    return int(datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp() * 1000)


def refused(text: str, option: str = "$filter") -> QueryRefused:
    with pytest.raises(QueryRefused) as caught:
        if option == "$filter":
            parse_filter(text)
        elif option == "$orderby":
            parse_orderby(text)
        else:
            parse_select(text)
    return caught.value


# --- precedence and the scope of not -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "document"),
    [
        # and/or: one precedence, grouped to the right: a and (b or c)
        (
            "status eq 'Error' and current/copies eq 1 or current/copies eq 3",
            {"$and": [{"status": "Error"}, {"$or": [{"current.copies": 1}, {"current.copies": 3}]}]},
        ),
        ("ab eq 1 or cd eq 2 and ef eq 3", {"$or": [{"ab": 1}, {"$and": [{"cd": 2}, {"ef": 3}]}]}),
        ("ab eq 1 and cd eq 2 and ef eq 3", {"$and": [{"ab": 1}, {"$and": [{"cd": 2}, {"ef": 3}]}]}),
        ("(ab eq 1 and cd eq 2) or ef eq 3", {"$or": [{"$and": [{"ab": 1}, {"cd": 2}]}, {"ef": 3}]}),
        # not takes the whole rest: not (a and b)
        ("not ab eq 1 and cd eq 2", {"$or": [{"ab": {"$ne": 1}}, {"cd": {"$ne": 2}}]}),
        ("not (ab eq 1) and cd eq 2", {"$or": [{"ab": {"$ne": 1}}, {"cd": {"$ne": 2}}]}),
        ("(not (ab eq 1)) and cd eq 2", {"$and": [{"ab": {"$ne": 1}}, {"cd": 2}]}),
        (
            "ab eq 1 and not cd eq 2 or ef eq 3",
            {"$and": [{"ab": 1}, {"$and": [{"cd": {"$ne": 2}}, {"ef": {"$ne": 3}}]}]},
        ),
    ],
)
def test_and_or_group_to_the_right_and_not_takes_the_rest(text: str, document: dict[str, Any]) -> None:
    assert parse_filter(text) == document


def test_a_filter_of_thousands_of_clauses_is_read() -> None:
    ids = [f"{i:024x}" for i in range(3000)]
    text = " or ".join(f"_id eq '{i}'" for i in ids)
    document = parse_filter(text)
    for i in ids[:-1]:
        assert document["$or"][0] == {"_id": ObjectId(i)}
        document = document["$or"][1]
    assert document == {"_id": ObjectId(ids[-1])}
    assert len(filter_members(text)) == 3000
    assert misreadings(text) == []
    (found,) = misreadings("ab eq 1 and " + text)
    assert found.odata.startswith(f"(ab eq 1 and _id eq '{ids[0]}') or _id eq '{ids[1]}' or ")
    negated = parse_filter(f"not ({text})")
    assert negated["$and"][0] == {"_id": {"$not": ObjectId(ids[0])}}


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "(" * n + "ab eq 1" + ")" * n,
        lambda n: "not " * n + "ab eq 1",
        lambda n: "ab eq " + "(" * n + "1" + ")" * n,
        lambda n: "startswith(ab," + "(" * n + "'x'" + ")" * n + ")",
    ],
    ids=["parentheses", "not", "around-a-literal", "around-an-argument"],
)
def test_nesting_the_middleware_reads_is_read_without_a_recursion_error(make: Callable[[int], str]) -> None:
    # the middleware reads such nesting about 1,600 (parentheses) to 5,000 (around a literal) levels deep
    limit = sys.getrecursionlimit()
    for depth in (150, 300, 1_600, 2_900):
        assert read_option("$filter", make(depth)).refused is None, depth
    assert sys.getrecursionlimit() == limit  # the room a deep reading took is given back


def test_nesting_deeper_than_the_server_reads_is_refused_naming_the_depth() -> None:
    error = refused("(" * 6_001 + "ab eq 1" + ")" * 6_001)
    assert error.reason == "the filter nests parentheses or 'not' deeper than 6,000 levels, which the server refuses"
    assert parse_filter("(" * 6_000 + "ab eq 1" + ")" * 6_000) == {"ab": 1}
    assert misreadings("(" * 7_000 + "ab eq 1" + ")" * 7_000) == []


def test_key_order_follows_breeze() -> None:
    document = parse_filter("tags/all(tt: tt/name eq 'x')")
    assert list(document) == ["tags", "tags.0"]


# --- literals ----------------------------------------------------------------------------------------------


def test_24_hex_digits_are_an_object_id_everywhere() -> None:
    assert parse_filter(f"_id eq '{OID.upper()}'") == {"_id": ObjectId(OID)}
    assert parse_filter(f"current/printerName ne '{OID}'") == {"current.printerName": {"$ne": ObjectId(OID)}}
    # inside a regex it is concatenated back as (lower-case) hex text
    assert parse_filter(f"startswith(ab,'{OID.upper()}')") == {"ab": Regex("^" + OID, "i")}
    # 23 digits, and guid'…', stay strings
    assert parse_filter(f"_id eq '{OID[:23]}'") == {"_id": OID[:23]}
    assert parse_filter(f"_id eq guid'{OID}'") == {"_id": OID}


def test_null_is_undefined() -> None:
    assert parse_filter("ab eq null") == {"ab": UNDEFINED}
    assert parse_filter("ab ne null") == {"ab": {"$ne": UNDEFINED}}
    assert parse_filter("ab gt null'Edm.String'") == {"ab": {"$gt": UNDEFINED}}
    assert parse_filter("startswith(ab,null)") == {"ab": Regex("^undefined", "i")}
    assert repr(UNDEFINED) == "UNDEFINED"
    assert pickle.loads(pickle.dumps(UNDEFINED)) is UNDEFINED


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("1", 1),
        ("-1.5", -1.5),
        ("1.0", 1),
        ("1L", 1),
        ("1.5m", 1.5),
        ("2f", 2),
        ("9007199254740993", 9007199254740992),  # a JS number is a double
        ("true", True),
        ("'it''s'", "it's"),
        ("%x27Error'", "Error"),
        ("'a\\b'", "a\\b"),
        ("binary'AB'", ["binary", "'", "A", "B", "'"]),
        ("%d88%x270f'", ["%d88", "%x27", "0", "f", "'"]),
        ("1$top=5", 1),  # the number rule reads a query option after "$" (a grammar slip) and ignores it
    ],
)
def test_literals(literal: str, value: Any) -> None:
    assert parse_filter(f"ab eq {literal}") == {"ab": value}


@pytest.mark.parametrize(
    ("text", "epoch_ms"),
    [
        ("2025-01-06T08:00:00Z", ms(2025, 1, 6, 8)),
        ("2025-01-06T08:00", ms(2025, 1, 6, 8)),  # zone-less: the server's local time (UTC here)
        ("2025-01-06T08:00:00.1239999Z", ms(2025, 1, 6, 8) + 123),  # beyond milliseconds: dropped
        ("2025-02-30T00:00Z", ms(2025, 3, 2)),  # rolls over
        ("2025-01-31T24:00Z", ms(2025, 2, 1)),  # hour 24 is the next day
        ("2025-01-06T08:00+01:30", ms(2025, 1, 6, 6, 30)),
        ("2025-13-01T00:00Z", None),  # month 13: Invalid Date
        ("2025-01-06T08:00:60Z", None),
        ("2025-01-31T24:01Z", None),
    ],
)
def test_datetime_literals_are_javascript_dates(text: str, epoch_ms: int | None) -> None:
    assert parse_filter(f"ab eq datetime'{text}'") == {"ab": JsDate(epoch_ms)}


def test_zone_less_datetimes_are_local_time_of_the_server() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    assert parse_filter("ab eq datetime'2025-07-01T12:00'", tz=berlin) == {"ab": JsDate(ms(2025, 7, 1, 10))}
    # a skipped hour takes the offset before the change; a zone in the text wins
    assert parse_filter("ab eq datetime'2025-03-30T02:30'", tz=berlin) == {"ab": JsDate(ms(2025, 3, 30, 1, 30))}
    assert parse_filter("ab eq datetime'2025-07-01T12:00Z'", tz=berlin) == {"ab": JsDate(ms(2025, 7, 1, 12))}


# --- names -------------------------------------------------------------------------------------------------


def test_dots_keep_the_part_before_the_first_dot() -> None:
    assert parse_filter("current.printerName eq 'x'") == {"current": "x"}
    assert parse_filter("ab.cd/ef.gh eq 1") == {"ab.ef": 1}
    assert parse_orderby("current.printerName desc") == [("current", "desc")]
    assert parse_select("current.printerName,x-y") == {"current": 1, "x-y": 1}


def test_keyword_look_alikes_are_names() -> None:
    assert parse_filter("ab eq True") == {"$where": "function() { return (this.ab === this.True); }"}
    assert parse_filter("notes eq 1 and binaryX eq 2") == {"$and": [{"notes": 1}, {"binaryX": 2}]}


# --- translation -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "document"),
    [
        ("ab ne cd", {"$where": "function() { return (this.ab != this.cd); }"}),
        ("ab/cd ge ef", {"$where": "function() { return (this.ab.cd >= this.ef); }"}),
        (
            "startswith(ab,cd)",
            {"$where": "function() { return ((new RegExp('^' + this.cd,'i')).test(this.ab)); }"},
        ),
        ("startswith(ab,'PRT')", {"ab": Regex("^PRT", "i")}),
        ("endswith(ab,'a/b') eq true", {"ab": Regex("a\\/b$", "i")}),
        ("substringof('v1.2',ab) ne true", {"ab": Regex("v1.2", "i")}),  # the operator is ignored
        ("startswith(ab,'x') eq false", {"ab": {"$not": Regex("^x", "i")}}),
        ("startswith(ab,1.5)", {"ab": Regex("^1.5", "i")}),
        ("startswith(ab,'(?<n>x)')", {"ab": Regex("^(?<n>x)", "i")}),
        ("(ab eq 1) eq false", {"ab": {"$ne": 1}}),
        # the not rewriting, also into forms MongoDB rejects
        (f"not (ab eq '{OID}')", {"ab": {"$not": ObjectId(OID)}}),
        ("not (ab gt 1)", {"ab": {"$not": {"$gt": 1}}}),
        ("not (ab eq cd)", {"$where": {"$ne": "function() { return (this.ab === this.cd); }"}}),
        ("not (ab eq datetime'1970-01-01T00:00Z')", {"ab": {"$not": JsDate(0)}}),
    ],
)
def test_translation(text: str, document: dict[str, Any]) -> None:
    assert parse_filter(text) == document


def test_lambdas() -> None:
    assert parse_filter("tags/any(tt: tt/name eq 'x')") == {"tags": {"$elemMatch": {"name": "x"}}}
    # a scalar variable stays a field name
    assert parse_filter("fileName/any(fn: fn eq 'x')") == {"fileName": {"$elemMatch": {"fn": "x"}}}
    assert parse_filter("tags/all(tt: tt/copies gt 1)") == {
        "tags": {"$not": {"$elemMatch": {"copies": {"$not": {"$gt": 1}}}}},
        "tags.0": {"$exists": True},
    }
    # "var/" is removed by a string replace of its first occurrence, anywhere in a path (also the collection)
    assert parse_filter("xit/ab/any(it: it/name eq 1)") == {"xab": {"$elemMatch": {"name": 1}}}
    assert parse_filter("aa/any(xx: bb/any(yy: yy/vv eq xx/ww))") == {
        "aa": {"$elemMatch": {"bb": {"$elemMatch": {"$where": "function() { return (this.vv === this.ww); }"}}}}
    }
    assert parse_filter("not (tags/all(tt: tt eq 1))") == {
        "$or": [
            {"tags": {"$not": {"$not": {"$elemMatch": {"tt": {"$ne": 1}}}}}},
            {"tags.0": {"$not": {"$exists": True}}},
        ]
    }


def test_proto_is_no_key_in_javascript() -> None:
    assert parse_filter("__proto__ eq 1") == {}
    assert parse_filter("not (__proto__ eq 1)") == {"$or": []}
    assert parse_select("__proto__,ab") == {"ab": 1}


# --- refusals: positions and reasons -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "reason"),
    [
        ("status EQ 'x'", 7, "keywords are lower case: EQ -> eq"),
        ("ab eq 1 OR cd eq 2", 8, "keywords are lower case: OR -> or"),
        ("StartsWith(ab,'x')", 0, "keywords are lower case: StartsWith -> startswith"),
        ("ab eq Datetime'2025-01-01T00:00'", 6, "keywords are lower case: Datetime -> datetime"),
        ("status eq 'x' ", 13, "a blank may not end the filter"),
        ("status eq 'x'  ", 13, "a blank may not end the filter"),
        ("ab eq 1 and ", 8, "the filter ends after 'and': something must follow it"),
        ("a eq 1", 0, "names have at least two characters: 'a'"),
        ("tags/any(t: t eq 1)", 9, "names have at least two characters: 't'"),
        ("ab eq 1e3", 6, "exponents are not accepted: 1e3"),
        ("ab eq 1.5E+3", 6, "exponents are not accepted: 1.5E+3"),
        ("ab eq 1d", 7, "a number's suffix is one of m, M, f, L: 1d"),
        ("ab eq 01", 6, "numbers do not begin with 0: 01"),
        ("ab eq 2025-01-06T08:00:00Z", 6, "a date-time literal is written datetime'2025-01-06T08:00:00Z'"),
        ("status\teq 'x'", 6, "only the space character separates words, not a tab"),
        ("not(ab eq 1)", 0, "'not' must be followed by a blank: not (…)"),
        ("nullable eq 1", 0, "names may not begin with the literal 'null': nullable"),
        ("trueColor eq 1", 0, "names may not begin with the literal 'true': trueColor"),
        ("current/allPages eq 1", 8, "a path segment may not begin with 'all': allPages"),
        ("ab eq 'x", 6, "the quote opened here is never closed (a quote inside a text is written '')"),
        ("(ab eq 1", 0, "the parenthesis opened here is never closed"),
        ("startswith (ab,'x')", 10, "no blank between a function name and '(': startswith("),
        ("startswith(ab ,'x')", 13, "no blank before ',' in a function call"),
        ("contains(ab,'x')", 0, "the server knows no function 'contains' (use substringof('text',field))"),
        (
            "ab eq datetime'2025-01-01'",
            6,
            "a datetime literal is written datetime'YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]'",
        ),
        ("ab eq binary'A'", 6, "a binary literal is written binary'hh' (two hex digits)"),
        ("tags/any(tt:tt eq 1)", 12, "a lambda needs a blank after ':'"),
        ("tags/any(tt tt eq 1)", 11, "a lambda is written path/any(xx: condition), with ':' after the variable"),
        (
            "tags/any eq 1",
            8,
            "any and all need a lambda: path/any(xx: xx/field eq …) (a variable of two or more characters)",
        ),
        ("replace(ab,'x') eq true", 14, "replace takes 3 arguments"),
        ("ab eq 1.d", 7, "a decimal needs a digit after the point: 1.d"),
        ("NOT ab eq 1", 0, "keywords are lower case: NOT -> not"),
        ("ab == 1", 3, "operators are words: eq ne lt le gt ge, and or, not"),
        # the grammar accepts these; the translation refuses them
        ("status", 0, "a field alone is not a condition: status (compare it, e.g. status eq …)"),
        ("'x' eq ab", 0, "a comparison needs a field on the left, not the literal 'x'"),
        ("ab eq 1 eq 2", 6, "comparisons do not chain (… eq … eq …): use and/or"),
        ("ab add 1 eq 2", 0, "the left side of 'eq' must be a field"),
        ("tolower(ab) eq 'x'", 0, "a function is compared only with true or false (tolower(…) eq …)"),
        ("substringof(ab,'x')", 0, "substringof takes a quoted text first, then a field: substringof('text',field)"),
        ("startswith(ab,'(?i)x')", 14, "not a valid JavaScript regular expression: /^(?i)x/: Invalid group"),
        ("startswith(ab,'x(')", 14, "not a valid JavaScript regular expression: /^x(/: Unterminated group"),
    ],
)
def test_refusals_say_where_and_why(text: str, position: int, reason: str) -> None:
    error = refused(text)
    assert (error.option, error.text, error.position, error.reason) == ("$filter", text, position, reason)
    assert str(error) == f"$filter: {reason} at position {position}"
    assert isinstance(error, ValueError)
    assert pickle.loads(pickle.dumps(error)).reason == reason


@pytest.mark.parametrize(
    ("option", "text", "position", "reason"),
    [
        ("$orderby", "status desc ", 11, "a blank may not end the orderby"),
        ("$orderby", "status DESC", 7, "keywords are lower case: DESC -> desc"),
        ("$orderby", "ab/c desc", 3, "names have at least two characters: 'c'"),
        ("$select", "*", 0, "'*' is not accepted: name the fields"),
        ("$select", "current/allPages", 8, "a path segment may not begin with 'all': allPages"),
    ],
)
def test_orderby_and_select_refusals(option: str, text: str, position: int, reason: str) -> None:
    error = refused(text, option)
    assert (error.option, error.position, error.reason) == (option, position, reason)


def test_orderby_and_select() -> None:
    assert parse_orderby(" ab desc , cd/ef,gh asc") == [("ab", "desc"), ("cd.ef", "asc"), ("gh", "asc")]
    assert parse_select("ab , cd/ef") == {"ab": 1, "cd.ef": 1}


# --- the options -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "limit"),
    [("5", 5), ("5.7", 5), ("5abc", 5), (" 7", 7), ("-1", -1), ("0", 0), ("abc", math.nan), ("", math.nan)],
)
def test_top_is_parse_int(top: str, limit: float) -> None:
    query = read_query({"$top": top})
    assert query.limit is not None
    assert query.limit == limit or (math.isnan(limit) and math.isnan(query.limit))
    assert query.skip is None


def test_skip_only_when_not_empty_and_keys_given_twice() -> None:
    assert read_query({"$skip": ""}).skip is None
    assert read_query({"$skip": "10"}).skip == 10
    assert read_query({"$top": ["2", "3"]}).limit == 2  # parseInt("2,3")
    with pytest.raises(QueryRefused, match=r"\$filter is given more than once"):
        read_query({"$filter": ["ab eq 1", "cd eq 2"]})


def test_a_limit_of_zero_is_kept() -> None:
    query = read_query({"$filter": f"_id eq '{OID}'", "$top": "0"})
    assert query == ServerQuery(
        filter={"_id": ObjectId(OID)}, sort=None, projection=None, limit=0, skip=None, count=False
    )


@pytest.mark.parametrize(
    ("value", "count"), [("allpages", True), ("ALLPAGES", True), ("bogus", True), ("none", False), ("", False)]
)
def test_inlinecount(value: str, count: bool) -> None:
    assert read_query({"$inlinecount": value}).count is count


def test_unknown_dollar_keys_are_refused_and_others_ignored() -> None:
    assert read_query({"other": "x", "$filter": ""}) == ServerQuery({}, None, None, None, None, False)
    with pytest.raises(QueryRefused) as caught:
        read_query({"$FILTER": "ab eq 1"})
    assert caught.value.option == "$FILTER"
    assert caught.value.reason == "keys are case-sensitive: $FILTER -> $filter"
    with pytest.raises(QueryRefused, match=r"\$expand: the server knows only the options"):
        read_query({"$expand": "ab"})


# --- misreadings and members --------------------------------------------------------------------------------


def test_misreadings_show_both_groupings() -> None:
    text = "status eq 'Error' and current/copies eq 1 or current/copies eq 3"
    (found,) = misreadings(text)
    assert found.position == text.index(" and ") + 1
    assert found.server == "status eq 'Error' and (current/copies eq 1 or current/copies eq 3)"
    assert found.odata == "(status eq 'Error' and current/copies eq 1) or current/copies eq 3"
    # what OData means, written so that this server reads it the same way
    assert parse_filter(found.odata) == {
        "$or": [{"$and": [{"status": "Error"}, {"current.copies": 1}]}, {"current.copies": 3}]
    }
    (negated,) = misreadings("not (ab eq 1) and cd eq 2")
    assert negated.position == 0
    assert negated.server == "not ((ab eq 1) and cd eq 2)"  # the parentheses written stay
    assert negated.odata == "(not (ab eq 1)) and cd eq 2"
    assert parse_filter(negated.odata) == {"$and": [{"ab": {"$ne": 1}}, {"cd": 2}]}


@pytest.mark.parametrize(
    ("text", "server", "odata"),
    [
        # parentheses around a member, a literal or a lambda's body are kept, balanced, in both readings
        (
            "(aa) eq 1 and bb eq 2 or cc eq 3",
            "(aa) eq 1 and (bb eq 2 or cc eq 3)",
            "((aa) eq 1 and bb eq 2) or cc eq 3",
        ),
        (
            "aa eq (1) and bb eq 2 or cc eq 3",
            "aa eq (1) and (bb eq 2 or cc eq 3)",
            "(aa eq (1) and bb eq 2) or cc eq 3",
        ),
        (
            "aa/any(xx: (xx/bb eq 1 and xx/cc eq 2 or xx/dd eq 3))",
            "aa/any(xx: (xx/bb eq 1 and (xx/cc eq 2 or xx/dd eq 3)))",
            "aa/any(xx: ((xx/bb eq 1 and xx/cc eq 2) or xx/dd eq 3))",
        ),
    ],
)
def test_misreadings_keep_the_parentheses_written(text: str, server: str, odata: str) -> None:
    found = misreadings(text)
    assert [(m.server, m.odata) for m in found][:1] == [(server, odata)]
    assert misreadings(odata) == [] and misreadings(server) == []
    parse_filter(odata)


@pytest.mark.parametrize(
    "text",
    [
        "ab eq 1 or cd eq 2 and ef eq 3",  # the same grouping in both
        "ab eq 1 and cd eq 2 and ef eq 3",
        "(ab eq 1 and cd eq 2) or ef eq 3",
        "(not (ab eq 1)) and cd eq 2",
        "not ab eq 1",
        "status EQ 'x'",  # refused: nothing to misread
    ],
)
def test_no_misreading(text: str) -> None:
    assert misreadings(text) == []


def test_misreadings_inside_parentheses_and_lambdas() -> None:
    (found,) = misreadings("ef eq 3 and tags/any(tt: tt/aa eq 1 and tt/bb eq 2 or tt/cc eq 3)")
    assert found.odata == "ef eq 3 and tags/any(tt: (tt/aa eq 1 and tt/bb eq 2) or tt/cc eq 3)"


conditions = st.recursive(
    st.sampled_from(
        ["ab eq 1", "cd ne 'x'", "ef gt 2", "startswith(gh,'y')", "tags/any(tt: tt/xx eq 1 or tt/yy eq 2)"]
    ),
    lambda inner: st.one_of(
        st.builds("{} and {}".format, inner, inner),
        st.builds("{} or {}".format, inner, inner),
        st.builds("not {}".format, inner),
        st.builds("({})".format, inner),
        st.builds("(not ({}))".format, inner),
    ),
    max_leaves=6,
)


@settings(derandomize=True, database=None, max_examples=300)
@given(conditions)
def test_both_readings_are_written_so_that_this_server_reads_them_so(text: str) -> None:
    for found in misreadings(text):
        assert parse_filter(found.server) == parse_filter(text)
        assert misreadings(found.odata) == []
        assert misreadings(found.server) == []


@st.composite
def chains(draw: st.DrawFn, depth: int = 0) -> str:
    """and/or/not chains over distinct conditions f0 eq 1, f1 eq 1, ... (numbered afterwards)."""
    kind = draw(st.sampled_from(["atom", "atom"] + (["and", "or", "not", "paren", "paren_not"] if depth < 4 else [])))
    if kind == "atom":
        return "{} eq 1"
    if kind in ("and", "or"):
        return f"{draw(chains(depth + 1))} {kind} {draw(chains(depth + 1))}"
    inner = draw(chains(depth + 1))
    return {"not": f"not {inner}", "paren": f"({inner})", "paren_not": f"(not ({inner}))"}[kind]


def _truth(text: str, odata: bool) -> list[bool]:
    """The filter's truth table over its conditions, grouped as OData (``odata``) or as this server does."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").replace(" eq 1", "").split()
    names = sorted({t for t in tokens if t.startswith("f")})

    def evaluate(values: dict[str, bool]) -> bool:
        at = 0

        def operand() -> bool:  # an atom, a parenthesised expression or not + operand (OData) / + rest (server)
            nonlocal at
            token = tokens[at]
            at += 1
            if token == "not":
                return not (operand() if odata else rest())
            if token == "(":
                value = either()
                at += 1  # ")"
                return value
            return values[token]

        def rest() -> bool:  # the server: operand, then and/or with the whole rest
            nonlocal at
            left = operand()
            if at < len(tokens) and tokens[at] in ("and", "or"):
                op = tokens[at]
                at += 1
                right = rest()
                return (left and right) if op == "and" else (left or right)
            return left

        def joined(op: str, inner: Callable[[], bool]) -> Callable[[], bool]:
            def read() -> bool:  # OData: inner (op inner)*, from the left
                nonlocal at
                value = inner()
                while at < len(tokens) and tokens[at] == op:
                    at += 1
                    right = inner()
                    value = (value and right) if op == "and" else (value or right)
                return value

            return read

        disjunction = joined("or", joined("and", operand))
        either = disjunction if odata else rest
        return either()

    return [
        evaluate(dict(zip(names, bits, strict=True))) for bits in itertools.product([False, True], repeat=len(names))
    ]


@settings(derandomize=True, database=None, max_examples=300)
@given(chains())
def test_a_misreading_is_reported_exactly_when_the_meanings_differ(shape: str) -> None:
    text = shape.format(*(f"f{i}" for i in range(shape.count("{}"))))
    differ = _truth(text, odata=True) != _truth(text, odata=False)
    assert bool(misreadings(text)) == differ
    for found in misreadings(text):
        assert _truth(found.odata, odata=False) == _truth(text, odata=True)


def test_filter_members() -> None:
    assert filter_members("tags/any(tt: tt/name eq 'x') and current.printerName eq False") == [
        Member("tags", 0, "tags"),
        Member("tags/name", 13, "tt/name"),
        Member("current", 33, "current.printerName"),
        Member("False", 56, "False"),
    ]
