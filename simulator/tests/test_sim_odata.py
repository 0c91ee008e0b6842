"""List options, read as the server's middleware reads them and run with MongoDB's rules, against a store of
hand-made documents (no HTTP)."""

from __future__ import annotations

from typing import Any

import pytest
from printmgmt_sim.listquery import read
from printmgmt_sim.store import JobRecord, Store

from printmgmt.server import QueryRefused

DOCS: list[dict[str, Any]] = [
    {
        "_id": "a1",
        "status": "Error",
        "fileName": ["f-1", "f-2"],
        "current": {"jobName": "Invoice 1", "userName": "tol", "copies": 1, "checkinTime": 1_736_150_000_000},
        "stages": [{"createdBy": "checkin"}, {"createdBy": "convert-pdf2ps"}],
        "flag": True,
    },
    {
        "_id": "b2",
        "status": "Processed",
        "fileName": ["f-3"],
        "current": {"jobName": "Letter to O'Brien", "userName": "TOL", "copies": 3, "checkinTime": 1_736_150_400_000},
        "stages": [{"createdBy": "checkin"}],
        "flag": False,
    },
    {
        "_id": "c3",
        "status": "Paused",
        "current": {"jobName": "invoice 2", "userName": "jdoe", "copies": "2", "checkinTime": 1_736_150_200_000},
        "stages": [],
    },
    {"_id": "d4", "status": "Error", "current": {"jobName": "Über Report", "userName": "jdoe", "copies": 2}},
]


@pytest.fixture(scope="module")
def store() -> Store:
    store = Store()
    store.insert_jobs(JobRecord(doc) for doc in DOCS)
    return store


def ids(store: Store, **options: str) -> list[str]:
    query, _ = read(list(options.items()))
    docs, _ = store.find("jobs", query)
    return [doc["_id"] for doc in docs]


def where(store: Store, text: str) -> set[str]:
    return set(ids(store, **{"$filter": text}))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("status eq 'Error'", {"a1", "d4"}),
        ("status ne 'Error'", {"b2", "c3"}),
        ("current/copies gt 1", {"b2", "d4"}),  # "2" (a string) never compares with a number
        ("current/copies ge 2", {"b2", "d4"}),
        ("current/copies lt 2", {"a1"}),
        ("current/copies le 1", {"a1"}),
        ("current/copies eq '2'", {"c3"}),
        ("current/userName eq 'tol'", {"a1"}),  # eq is case-sensitive
        ("current/jobName eq 'Letter to O''Brien'", {"b2"}),
        ("status eq 'Error' and current/copies eq 2", {"d4"}),
        ("status eq 'Paused' or current/copies eq 3", {"b2", "c3"}),
        ("(status eq 'Paused' or status eq 'Processed') and current/userName eq 'jdoe'", {"c3"}),
        ("not (status eq 'Error')", {"b2", "c3"}),
        ("STATUS eq 'Error'", set()),  # field names are case-sensitive
        ("startswith(current/jobName,'inv') eq true", {"a1", "c3"}),
        ("startswith(current/jobName, 'INV')", {"a1", "c3"}),
        ("startswith(current/jobName,'Inv') eq false", {"b2", "d4"}),
        ("endswith(current/jobName,'REPORT') eq true", {"d4"}),
        ("substringof('o''brien',current/jobName) eq true", {"b2"}),
        ("substringof('über',current/jobName) eq true", {"d4"}),  # Unicode case folding
        ("substringof('',current/jobName) eq true", {"a1", "b2", "c3", "d4"}),
        # the middleware's text is a regular expression, unescaped: "." matches any character
        ("substringof('.',current/jobName) eq true", {"a1", "b2", "c3", "d4"}),
        ("substringof('\\.',current/jobName) eq true", set()),  # escaped, it is a literal dot
        ("startswith(current/jobName,'inv.') eq true", {"a1", "c3"}),
        ("fileName eq 'f-2'", {"a1"}),  # an array matches by any element
        ("fileName ne 'f-2'", {"b2", "c3", "d4"}),
        ("stages/createdBy eq 'convert-pdf2ps'", {"a1"}),  # a path through an array of objects
        ("stages/any(st: st/createdBy eq 'checkin')", {"a1", "b2"}),
        ("stages/all(st: st/createdBy eq 'checkin')", {"b2"}),  # all() needs a non-empty array
        # over an array of scalars the variable stays a field name: $elemMatch never matches a string
        ("fileName/any(fn: startswith(fn, 'f-3'))", set()),
        ("current/checkinTime eq null", {"d4"}),  # eq null matches a missing field
        ("current/checkinTime ne null", {"a1", "b2", "c3"}),
        ("flag eq true", {"a1"}),
        ("flag ne true", {"b2", "c3", "d4"}),
        # dates never match the stored epoch-ms numbers (a JavaScript Date in MongoDB): the SDK sends numbers
        ("current/checkinTime gt datetime'2025-01-06T08:00:00'", set()),
        ("current/checkinTime ge datetime'2025-01-06T08:00:00'", set()),
        ("current/checkinTime lt 1736150280000", {"a1", "c3"}),
        ("current/userName eq current/userName", {"a1", "b2", "c3", "d4"}),
        ("current/copies gt current/checkinTime", set()),
        ("status eq current/jobName", set()),
        ("startswith(current/jobName, current/userName)", set()),  # a $where
        ("startswith(current/jobName, current/jobName)", {"a1", "b2", "c3", "d4"}),
    ],
)
def test_filter(store: Store, text: str, expected: set[str]) -> None:
    assert where(store, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "status eq",
        "status eq 'x",
        "'Error' eq status",  # the middleware wants the field on the left
        "length(status) gt 3",
        "contains(status,'x')",  # OData v4
        "current/copies add 1 eq 2",
        "status in ('a','b')",
        "$status eq 'x'",
        "status EQ 'Error'",  # keywords are lower case
        "stages/any()",
        "current/checkinTime lt 2025-01-06T07:58:00Z",  # a date-time needs datetime'...'
        "stages/any(s: s/createdBy eq 'checkin')",  # one-letter names
        "status eq 'a' and",
        "startswith(current/jobName,'Pay (') eq true",  # not a valid regular expression: 400 on the real server
    ],
)
def test_unparsable_filters_are_refused(text: str) -> None:
    with pytest.raises(QueryRefused):
        read([("$filter", text)])


@pytest.mark.parametrize(
    "items",
    [
        [("$expand", "x")],
        [("$format", "json")],
        [("$filter", "status eq 'x'"), ("$filter", "status eq 'y'")],
        [("$orderby", "status sideways")],
        [("$orderby", "status desc ")],
        [("$select", "status current")],
        [("$select", "*")],
    ],
)
def test_bad_options_are_refused(items: list[tuple[str, str]]) -> None:
    with pytest.raises(QueryRefused):
        read(items)


def test_other_keys_and_empty_values_are_ignored(store: Store) -> None:
    assert ids(store, **{"foo": "bar", "$filter": "", "$orderby": "", "$select": ""}) == ["a1", "b2", "c3", "d4"]


def test_orderby_several_keys_and_directions(store: Store) -> None:
    assert ids(store, **{"$orderby": "status desc, _id desc"}) == ["b2", "c3", "d4", "a1"]
    assert ids(store, **{"$orderby": "current/userName asc,_id"}) == ["b2", "c3", "d4", "a1"]


def test_orderby_sorts_types_like_mongodb(store: Store) -> None:
    # missing, then numbers, then strings
    assert ids(store, **{"$orderby": "current/copies"}) == ["a1", "d4", "b2", "c3"]
    assert ids(store, **{"$orderby": "current/checkinTime desc"}) == ["b2", "c3", "a1", "d4"]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"$top": "2", "$skip": "1"}, ["b2", "c3"]),
        ({"$top": "0"}, ["a1", "b2", "c3", "d4"]),  # MongoDB: a limit of 0 is no limit
        ({"$top": "5.7"}, ["a1", "b2", "c3", "d4"]),  # parseInt: 5
        ({"$top": "1.5"}, ["a1"]),
        ({"$top": "abc"}, ["a1", "b2", "c3", "d4"]),  # NaN: the driver sends 0
        ({"$top": ""}, ["a1", "b2", "c3", "d4"]),
        ({"$top": "-1"}, ["a1"]),  # one batch of |n|
        ({"$skip": "x"}, ["a1", "b2", "c3", "d4"]),
        ({"$skip": "2abc"}, ["c3", "d4"]),
        ({"$skip": "10"}, []),
    ],
)
def test_top_and_skip_are_read_with_parseint(store: Store, options: dict[str, str], expected: list[str]) -> None:
    assert ids(store, **{"$orderby": "_id", **options}) == expected


def test_top_given_twice_is_parseint_of_both() -> None:
    query, _ = read([("$top", "1"), ("$top", "2")])
    assert query.limit == 1  # Express makes ["1", "2"]; parseInt("1,2") is 1


@pytest.mark.parametrize(("value", "count"), [("allpages", True), ("yes", True), ("none", False), ("", False)])
def test_inlinecount_is_anything_but_none(value: str, count: bool) -> None:
    assert read([("$inlinecount", value)])[1] is count
    assert read([])[1] is False


def test_find_reports_the_total_of_the_filter(store: Store) -> None:
    query, _ = read([("$filter", "status eq 'Error'"), ("$top", "1")])
    docs, total = store.find("jobs", query)
    assert (len(docs), total) == (1, 2)


def test_select_projects_nested_paths_and_keeps_id(store: Store) -> None:
    query, _ = read([("$select", "status, current/jobName,stages/createdBy, missing/field"), ("$top", "1")])
    assert store.find("jobs", query)[0] == [
        {
            "_id": "a1",
            "status": "Error",
            "current": {"jobName": "Invoice 1"},
            "stages": [{"createdBy": "checkin"}, {"createdBy": "convert-pdf2ps"}],
        }
    ]
    dotted, _ = read([("$select", "current.jobName"), ("$top", "1")])  # only the part before the dot counts
    assert store.find("jobs", dotted)[0] == [{"_id": "a1", "current": DOCS[0]["current"]}]
