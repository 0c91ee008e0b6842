"""The server's query language over real HTTP: the simulator answers list queries the way the real server's
middleware reads them and its MongoDB runs them (the facts of the query-language note), with 500 where MongoDB
refuses the query and the middleware's plain 400 where it refuses the text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from printmgmt_cli.profile import JobIds
from printmgmt_sim import Simulator
from printmgmt_sim.store import JobRecord
from printmgmt_sim.variants import Variants

J1, J2, J3, J4, J5 = (f"67725342cfddd0c58b71cc{n:02x}" for n in range(1, 6))
REF = "0123456789abcdef01234567"  # a 24-hex text in a string field

JOBS: list[dict[str, Any]] = [
    {
        "_id": J1,
        "status": "Error",
        "refId": REF,
        "fileName": ["a-file"],
        "current": {"copies": 1, "fileSize": 10, "checkinTime": 1_736_150_400_000},
        "stages": [{"createdBy": "checkin", "createdAt": 5}, {"createdBy": "convert", "createdAt": 9}],
    },
    {
        "_id": J2,
        "status": "Processed",
        "fileName": ["b-file"],
        "current": {"copies": 3, "fileSize": 3},
        "stages": [{"createdBy": "checkin", "createdAt": 7}],
    },
    {"_id": J3, "status": "Error", "current": {"copies": 3}, "stages": []},
    {"_id": J4, "status": "Error", "current": {"copies": None}},
    {"_id": J5, "status": "Paused", "current": {}},
]
ALL = [J1, J2, J3, J4, J5]


@pytest.fixture(scope="module")
def sim() -> Iterator[Simulator]:
    with Simulator(jobs=0, printers=3, speed=0, seed=3) as simulator:
        simulator.store.insert_jobs(JobRecord(doc) for doc in JOBS)
        yield simulator


@pytest.fixture
def http(sim: Simulator) -> Iterator[httpx.Client]:
    sim.settings.variants = Variants()
    headers = {"Authorization": f"Bearer {sim.token()}"}
    with httpx.Client(base_url=sim.base_url, headers=headers, timeout=10) as client:
        yield client
    sim.settings.variants = Variants()


def ids(http: httpx.Client, path: str = "/v3/jobs/", **params: str) -> list[str]:
    response = http.get(path, params=params)
    assert response.status_code == 200, response.text
    return [doc["_id"] for doc in response.json()]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # and/or: one precedence, grouped to the right: a and (b or c) (OData would add J2)
        ("status eq 'Error' and current/copies eq 1 or current/copies eq 3", [J1, J3]),
        # not takes the whole rest: not (a and b) (OData would give J2 alone)
        ("not (status eq 'Error') and current/copies eq 3", [J1, J2, J4, J5]),
        ("(not (status eq 'Error')) and current/copies eq 3", [J2]),
        ("current/copies eq null", [J4, J5]),  # null or missing
        ("current/copies ne null", [J1, J2, J3]),
        ("current/copies ge null", [J4, J5]),
        ("current/copies gt null", []),
        ("fileName eq 'a-file'", [J1]),  # an array of scalars matches by any element
        ("stages/createdBy eq 'convert'", [J1]),  # a path through an array of documents
        ("stages/any(st: st/createdAt gt 6)", [J1, J2]),
        ("stages/all(st: st/createdBy eq 'checkin')", [J2]),  # not the empty array
        ("fileName/any(fn: fn eq 'a-file')", []),  # $elemMatch never matches a string element
        ("current/checkinTime gt datetime'2020-01-01T00:00'", []),  # a Date never follows a number
        ("current/checkinTime ne datetime'2020-01-01T00:00'", ALL),
        ("startswith(_id,'6772') eq true", []),  # a regex never matches an ObjectId
        # $where: strict equality, undefined === undefined, null !== undefined
        ("current/copies eq current/fileSize", [J2, J5]),
        ("current/fileSize gt current/copies", [J1]),
        ("refId eq '" + REF + "'", []),  # the 24-hex literal is an ObjectId, the field a string
    ],
)
def test_filters_read_and_run_as_on_the_server(http: httpx.Client, text: str, expected: list[str]) -> None:
    assert ids(http, **{"$filter": text}) == expected


def test_an_id_literal_finds_objectid_keys_only(sim: Simulator, http: httpx.Client) -> None:
    assert ids(http, **{"$filter": f"_id eq '{J1}'"}) == [J1]
    assert http.get(f"/v3/jobs/{J1}").json()["_id"] == J1
    sim.settings.variants = Variants(job_ids=JobIds.STRING)
    assert ids(http, **{"$filter": f"_id eq '{J1}'"}) == []
    assert ids(http, **{"$filter": "startswith(_id,'6772') eq true"}) == ALL  # strings: the regex matches
    assert http.get(f"/v3/jobs/{J1}").json()["_id"] == J1  # path lookups work for both


async def test_the_sdk_reads_jobs_by_id_under_both_variants(sim: Simulator) -> None:
    async with sim.client() as client:
        for variant, found in (("objectid", [J2]), ("string", [])):
            sim.settings.variants = Variants(job_ids=variant)  # type: ignore[arg-type]
            page = await client.jobs.list(filter=f"_id eq '{J2}'")
            assert [job.id for job in page.items] == found
            assert (await client.jobs.get(J2)).id == J2
    sim.settings.variants = Variants()


def test_printers_eq_null_is_not_an_empty_object(http: httpx.Client, sim: Simulator) -> None:
    printers = [doc["_id"] for doc in sim.store.printers()]
    assert all(doc["physical"] == {} for doc in sim.store.printers())
    assert ids(http, "/v3/printers/", **{"$filter": "physical eq null"}) == []
    assert ids(http, "/v3/printers/", **{"$filter": "physical/status eq null"}) == printers


@pytest.mark.parametrize(
    ("orderby", "expected"),
    [
        ("stages/createdAt desc", [J1, J2, J3, J4, J5]),  # by each array's largest element
        ("stages/createdAt", [J3, J4, J5, J1, J2]),  # by the smallest; missing first, natural order
        ("current/copies desc,_id desc", [J3, J2, J1, J5, J4]),  # null and missing tie
    ],
)
def test_sorting_follows_mongodb(http: httpx.Client, orderby: str, expected: list[str]) -> None:
    assert ids(http, **{"$orderby": orderby}) == expected


@pytest.mark.parametrize(
    ("top", "expected"),
    [("0", ALL), ("2.7", [J1, J2]), ("2abc", [J1, J2]), ("abc", ALL), ("", ALL), ("-1", [J1])],
)
def test_top_is_parseint_and_zero_is_no_limit(http: httpx.Client, top: str, expected: list[str]) -> None:
    assert ids(http, **{"$top": top}) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the middleware checks these as JavaScript RegExps (\p, \Q, \h are letters there); MongoDB reads PCRE
        ("startswith(status,'\\p{Lu}\\p{L}+') eq true", [J1, J2, J3, J4, J5]),
        ("startswith(status,'\\P{L}') eq true", []),
        ("substringof('\\pN',status) eq true", []),
        ("startswith(fileName,'\\Qa-f\\E') eq true", [J1]),
        ("endswith(status,'\\Qor\\E') eq true", [J1, J3, J4]),
        ("substringof('a\\h',status) eq true", []),
        ("startswith(status,'\\p{Greek}') eq true", []),  # a script name: PCRE2 reads it
    ],
)
def test_pcre_escapes_the_middleware_lets_through_read_as_mongodb_does(
    http: httpx.Client, text: str, expected: list[str]
) -> None:
    assert ids(http, **{"$filter": text}) == expected


@pytest.mark.parametrize(
    "params",
    [
        {"$filter": f"not (_id eq '{J1}')"},  # $not of an ObjectId
        {"$filter": "not (current/checkinTime eq datetime'2025-01-06T08:00')"},  # $not of a Date
        {"$filter": "not (current/copies eq current/fileSize)"},  # {$where: {$ne: ...}}
        {"$filter": "stages/any(st: st/createdAt eq st/createdBy)"},  # $where inside $elemMatch
        {"$filter": "physical/foo/bar eq status"},  # JavaScript reads a property of undefined
        {"$filter": "startswith(status,'\\u0045') eq true"},  # an escape to JavaScript, PCRE2's error
        {"$filter": "startswith(status,'E\u2028') eq true"},  # the driver writes it into the pattern as \u2028
        {"$filter": "startswith(status,'E\u0000') eq true"},  # MongoDB refuses a NUL in a pattern
        {"$skip": "-1"},
    ],
)
def test_what_mongodb_refuses_answers_500(http: httpx.Client, params: dict[str, str]) -> None:
    response = http.get("/v3/jobs/", params=params)
    assert response.status_code == 500
    assert response.json()["code"] == "ERR_INTERNAL"


@pytest.mark.parametrize(
    "params",
    [{"$filter": "status EQ 'Error'"}, {"$filter": "a eq 1"}, {"$filter": "status eq 'x' "}, {"$top": "1", "$x": ""}],
)
def test_what_the_middleware_refuses_answers_plain_400(http: httpx.Client, params: dict[str, str]) -> None:
    response = http.get("/v3/jobs/", params=params)
    assert (response.status_code, response.text) == (400, "Bad Request")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # MongoDB compares within BSON's type brackets: a boolean field never equals a number, a number field
        # never a boolean (the twin on mongomock found the printers whose flag is true, or whose count is 0)
        ("config/nativeQueue eq 1", set()),
        ("runtime/queuedJobs eq false", set()),
        ("config/nativeQueue ne 1", {"p-true", "p-false"}),
        ("config/nativeQueue eq true", {"p-true"}),
        ("runtime/queuedJobs eq 0", {"p-false"}),
    ],
)
def test_a_boolean_never_equals_a_number(sim: Simulator, http: httpx.Client, text: str, expected: set[str]) -> None:
    for name, flag, queued in (("p-true", True, 1), ("p-false", False, 0)):
        sim.store.save_printer({"_id": name, "config": {"nativeQueue": flag}, "runtime": {"queuedJobs": queued}})
    try:
        found = set(ids(http, "/v3/printers/", **{"$filter": text})) & {"p-true", "p-false"}
    finally:
        sim.store.delete_printer("p-true"), sim.store.delete_printer("p-false")
    assert found == expected


def test_a_sort_key_given_twice_keeps_its_first_place_and_its_last_direction(http: httpx.Client) -> None:
    # the driver builds the sort as an object: {"current.copies": -1, "status": -1} (the twin kept the first
    # direction: J1 first)
    text = "current/copies asc,status desc,current/copies desc"
    assert ids(http, **{"$orderby": text, "$filter": "current/copies ne null"}) == [J2, J3, J1]


def _or_chain(terms: int) -> str:
    return " or ".join(f"current/copies eq {n}" for n in range(terms))


def test_a_filter_nested_past_mongodb_s_depth_answers_500_and_no_length_crashes(http: httpx.Client) -> None:
    # breeze nests each "or" term one document deeper: 100 terms are 100 levels, MongoDB's limit
    assert ids(http, **{"$filter": _or_chain(100)}) == [J1, J2, J3]
    for terms in (101, 300):  # 300 terms crashed the twin with a recursion error (1000 are past Node's 16 KiB)
        response = http.get("/v3/jobs/", params={"$filter": _or_chain(terms)})
        assert response.status_code == 500
        assert "exceeded maximum query tree depth of 100" in response.json()["message"]


def test_a_server_that_reads_deeper_answers_any_chain(sim: Simulator, http: httpx.Client) -> None:
    sim.settings.max_depth, sim.settings.max_header_size = 5000, 64 * 1024
    try:
        assert ids(http, **{"$filter": _or_chain(1000)}) == [J1, J2, J3]
    finally:
        sim.settings.max_depth, sim.settings.max_header_size = 100, 16 * 1024


def test_a_request_head_over_node_s_limit_answers_431(sim: Simulator, http: httpx.Client) -> None:
    filler = "x" * 17000
    response = http.get("/v3/jobs/", params={"$filter": f"status eq '{filler}'"})
    # Node's bare answer: no body, the connection closed
    assert (response.status_code, response.content, response.headers["connection"]) == (431, b"", "close")
    # the limit counts the request line and every header line: just under it is read
    head = len("GET /v3/jobs/?%24filter=status+eq+%27%27 HTTP/1.1\r\n") + 2
    head += sum(len(name) + len(value) + 4 for name, value in http.build_request("GET", "/v3/jobs/").headers.raw)
    under = "x" * (sim.settings.max_header_size - head)
    assert http.get("/v3/jobs/", params={"$filter": f"status eq '{under}'"}).status_code == 200
    over = "x" * (sim.settings.max_header_size - head + 1)
    assert http.get("/v3/jobs/", params={"$filter": f"status eq '{over}'"}).status_code == 431
