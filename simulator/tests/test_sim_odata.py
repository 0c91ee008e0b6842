"""OData list options against a store of hand-made documents (no HTTP)."""

from __future__ import annotations

from typing import Any

import pytest
from printmgmt_sim.odata import ODataError, parse_query, project
from printmgmt_sim.store import JobRecord, Store

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
    query = parse_query(options.items())
    docs, _ = store.find(
        "jobs", where=query.where, order=query.order, params=query.params, skip=query.skip, top=query.top
    )
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
        ("STATUS eq 'Error'", set()),  # field names are case-sensitive, keywords are not
        ("status EQ 'Error'", {"a1", "d4"}),
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
        ("stages/any(s: s/createdBy eq 'checkin')", {"a1", "b2"}),
        ("stages/all(s: s/createdBy eq 'checkin')", {"b2"}),  # all() needs a non-empty array
        ("stages/any()", {"a1", "b2"}),
        ("fileName/any(f: startswith(f, 'f-3'))", {"b2"}),
        ("current/checkinTime eq null", {"d4"}),  # eq null matches a missing field
        ("current/checkinTime ne null", {"a1", "b2", "c3"}),
        ("flag eq true", {"a1"}),
        ("flag ne true", {"b2", "c3", "d4"}),
        # dates never match the stored epoch-ms numbers (a JavaScript Date in MongoDB): the SDK sends numbers
        ("current/checkinTime gt datetime'2025-01-06T08:00:00'", set()),
        ("current/checkinTime ge datetime'2025-01-06T08:00:00'", set()),
        ("current/checkinTime lt 2025-01-06T07:58:00Z", set()),
        ("current/checkinTime lt 1736150280000", {"a1", "c3"}),
        ("current/userName eq current/userName", {"a1", "b2", "c3", "d4"}),
        ("current/copies gt current/checkinTime", set()),
        ("status eq current/jobName", set()),
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
        "startswith(status, current/jobName)",
        "status eq 'a' and",
        "startswith(current/jobName,'Pay (') eq true",  # not a valid regular expression: 400 on the real server
    ],
)
def test_unparsable_filters_are_errors(text: str) -> None:
    with pytest.raises(ODataError):
        parse_query([("$filter", text)])


@pytest.mark.parametrize(
    "items",
    [
        [("$expand", "x")],
        [("$format", "json")],
        [("$top", "1"), ("$top", "2")],
        [("$top", "-1")],
        [("$top", "1.5")],
        [("$top", "")],
        [("$skip", "x")],
        [("$inlinecount", "yes")],
        [("$inlinecount", "")],
        [("$orderby", "status sideways")],
        [("$orderby", "a,,b")],
        [("$select", "a b")],
        [("$select", "current.jobName")],
    ],
)
def test_bad_options_are_errors(items: list[tuple[str, str]]) -> None:
    with pytest.raises(ODataError):
        parse_query(items)


def test_other_keys_and_empty_values_are_ignored(store: Store) -> None:
    assert ids(store, **{"foo": "bar", "$filter": "", "$orderby": "", "$select": ""}) == ["a1", "b2", "c3", "d4"]


def test_orderby_several_keys_and_directions(store: Store) -> None:
    assert ids(store, **{"$orderby": "status desc, _id desc"}) == ["b2", "c3", "d4", "a1"]
    assert ids(store, **{"$orderby": "current/userName asc,_id"}) == ["b2", "c3", "d4", "a1"]


def test_orderby_sorts_types_like_mongodb(store: Store) -> None:
    # missing, then numbers, then strings
    assert ids(store, **{"$orderby": "current/copies"}) == ["a1", "d4", "b2", "c3"]
    assert ids(store, **{"$orderby": "current/checkinTime desc"}) == ["b2", "c3", "a1", "d4"]


def test_top_and_skip(store: Store) -> None:
    assert ids(store, **{"$orderby": "_id", "$top": "2", "$skip": "1"}) == ["b2", "c3"]
    assert ids(store, **{"$top": "0"}) == []
    assert ids(store, **{"$skip": "10"}) == []


def test_inlinecount() -> None:
    assert parse_query([("$inlinecount", "allpages")]).count
    assert not parse_query([("$inlinecount", "none")]).count
    assert not parse_query([]).count


def test_find_reports_the_total_of_the_filter(store: Store) -> None:
    query = parse_query([("$filter", "status eq 'Error'")])
    docs, total = store.find("jobs", where=query.where, order=query.order, params=query.params, top=1)
    assert (len(docs), total) == (1, 2)


def test_select_projects_nested_paths_and_keeps_id() -> None:
    query = parse_query([("$select", "status, current/jobName,stages/createdBy, missing/field")])
    assert query.select is not None
    assert project(DOCS[0], query.select) == {
        "_id": "a1",
        "status": "Error",
        "current": {"jobName": "Invoice 1"},
        "stages": [{"createdBy": "checkin"}, {"createdBy": "convert-pdf2ps"}],
    }
    assert parse_query([("$select", "*")]).select is None
