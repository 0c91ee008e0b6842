"""Raw query options are read with the server's grammar before anything is sent (``check_query``)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from printmgmt import PrintClient, odata, querylang
from printmgmt._querycheck import _may_be_misread
from printmgmt.errors import InvalidQuery, PrintMgmtError, UnknownFieldWarning
from printmgmt.querylang._quick import common_filter
from printmgmt.sync import PrintClient as SyncPrintClient

BASE = "https://print.test"
MISREAD = "status eq 'Error' and current/copies eq 1 or current/copies eq 3"
MEANT = "(status eq 'Error' and current/copies eq 1) or current/copies eq 3"


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_mocked=True, assert_all_called=False) as mock:
        yield mock


def lists(router: respx.MockRouter) -> respx.Route:
    return router.get("/v3/jobs/").respond(200, json=[])


@pytest.mark.parametrize(
    ("kwargs", "option", "position", "reason"),
    [
        ({"filter": "status EQ 'Error'"}, "$filter", 7, "keywords are lower case: EQ -> eq"),
        ({"filter": "status eq 'Error' "}, "$filter", 17, "a blank may not end"),
        ({"filter": "copies gt 1e3"}, "$filter", None, ""),
        ({"filter": "tolower(status) eq 'x'"}, "$filter", 0, "a function is compared only with true or false"),
        ({"orderby": "status DESC"}, "$orderby", 7, "keywords are lower case: DESC -> desc"),
        ({"select": ["_id", "x"]}, "$select", None, "names have at least two characters"),
    ],
)
async def test_what_the_server_refuses_raises_before_any_request(
    router: respx.MockRouter, kwargs: dict[str, Any], option: str, position: int | None, reason: str
) -> None:
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(InvalidQuery) as refused:
            await client.jobs.list(**kwargs)
        with pytest.raises(InvalidQuery):
            client.jobs.iterate(**kwargs)  # at the call, not at the first page
    assert route.call_count == 0
    error = refused.value
    assert isinstance(error, PrintMgmtError) and isinstance(error, ValueError)
    assert error.option == option and reason in error.reason
    if position is not None:
        assert error.position == position
        assert str(error).startswith(f"{option}: {reason}") and f"at position {position}" in str(error)


async def test_a_filter_the_server_reads_otherwise_is_refused_with_the_meant_rewrite(router: respx.MockRouter) -> None:
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(InvalidQuery) as refused:
            await client.jobs.list(filter=MISREAD)
        assert refused.value.rewrite == MEANT
        assert f"write {MEANT}" in str(refused.value) and "at position 18" in str(refused.value)
        assert route.call_count == 0
        # the opt-outs: per call, per derived client, per client
        await client.jobs.list(filter=MISREAD, check_query="syntax")
        await client.with_options(check_query="syntax").jobs.list(filter=MISREAD)
        await client.jobs.list(filter="status EQ 'x'", check_query="off")
        with pytest.raises(InvalidQuery):  # syntax still refuses what the server refuses
            await client.jobs.list(filter="status EQ 'x'", check_query="syntax")
    async with PrintClient(BASE, auth="t", check_query="syntax") as relaxed:
        await relaxed.jobs.list(filter=MISREAD)
    assert [call.request.url.params["$filter"] for call in route.calls] == [MISREAD, MISREAD, "status EQ 'x'", MISREAD]


async def test_a_dotted_name_is_refused_with_the_slashed_path(router: respx.MockRouter) -> None:
    lists(router)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(InvalidQuery, match="keeps only the name before a dot") as refused:
            await client.jobs.list(filter="status eq 'x' and current.printerName eq 'PRT-1'")
        assert refused.value.rewrite == "status eq 'x' and current/printerName eq 'PRT-1'"
        assert refused.value.position == 18
        with pytest.raises(InvalidQuery) as refused:
            await client.jobs.list(orderby="status, current.copies desc")
        assert refused.value.rewrite == "status, current/copies desc"


async def test_an_unknown_field_warns_with_the_nearest_names_and_is_sent(router: respx.MockRouter) -> None:
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.warns(UnknownFieldWarning) as warned:
            await client.jobs.list(filter="stauts eq 'Error'", orderby="current/printrName", select="_id,physical")
    assert route.call_count == 1
    found = {(w.message.option, w.message.path, tuple(w.message.suggestions)) for w in warned.list}  # type: ignore[union-attr]
    assert found == {
        ("$filter", "stauts", ("status", "stages")),
        ("$orderby", "current/printrName", ("current/printerName", "lcCurrent/printerName", "current/userName")),
        ("$select", "physical", ()),
    }
    assert all(w.filename == __file__ for w in warned.list)  # the caller's line, not the SDK's
    assert "did you mean status or stages?" in str(warned.list[0].message)


async def test_known_paths_lambdas_and_open_objects_do_not_warn(router: respx.MockRouter) -> None:
    lists(router)
    router.get("/v3/printers/").respond(200, json=[])
    async with PrintClient(BASE, auth="t") as client:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            await client.jobs.list(filter="stages/any(st: st/createdBy eq 'checkin')", orderby="_id desc")
            await client.printers.list(filter="physical/tonerLevel lt 10", select="config/webUrl")
            # builder expressions are not read again (the builder's tests read every form it writes)
            await client.jobs.list(filter=odata.field("stauts") == "x")


def test_the_sync_client_checks_too() -> None:
    with respx.mock(base_url=BASE, assert_all_mocked=True) as router:
        route = lists(router)
        with SyncPrintClient(BASE, auth="t") as client:
            with pytest.raises(InvalidQuery, match="keywords are lower case"):
                client.jobs.list(filter="status EQ 'x'")
            with pytest.warns(UnknownFieldWarning) as warned:
                client.jobs.list(filter="stauts eq 'x'")
        assert route.call_count == 1
        assert warned.list[0].filename == __file__


@pytest.mark.parametrize("mode", ["STRICT", "", None, 1])
def test_check_query_takes_only_its_modes(mode: object) -> None:
    with pytest.raises(ValueError, match="check_query must be 'strict', 'syntax' or 'off'"):
        PrintClient(BASE, auth="t", check_query=mode)  # type: ignore[arg-type]


ATOMS = st.sampled_from(
    ["aa eq 1", "bb eq 'x and y or not z'", "startswith(cc,'y') eq true", "dd/any(xx: xx/ee eq 1 and xx/ff eq 2)"]
)


def _grouped(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        inner.map(lambda text: f"({text})"),
        inner.map(lambda text: f"not ({text})"),
        inner.map(lambda text: f"not {text}"),
        st.tuples(inner, st.sampled_from([" and ", " or ", "  and  ", " or  "]), inner).map("".join),
    )


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.recursive(ATOMS, _grouped, max_leaves=8))
def test_the_cheap_pre_scan_never_misses_a_misreading(text: str) -> None:
    # the full reading runs only where the scan says the grouping may differ: it must never say no wrongly
    try:
        querylang.parse_filter(text)
    except querylang.QueryRefused:
        return
    if querylang.misreadings(text):
        assert _may_be_misread(text), text


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("status eq 'Error' and current/copies ne 3", ("status", "current/copies")),
        ("(status eq 'a' or status eq 'b') and not (current/copies gt 1)", ("status", "current/copies")),
        ("stages/any(st: st/createdBy eq 'checkin')", ("stages", "stages/createdBy")),
        ("xit/ab/all(it: it/name eq 1)", ("xab", "xab/name")),  # breeze removes "it/" wherever it stands
        ("aa/any(xx: xx/bb/any(yy: yy/cc eq null))", ("aa", "aa/bb", "aa/bb/cc")),
        ("startswith(fileName,'report') eq true or substringof('x',status)", ("fileName", "status")),
        ("  (status  eq 'x'  or  not  aa eq bb )", ("status",)),  # a field against a field: a $where
    ],
)
def test_common_filters_are_read_quickly_with_their_paths(text: str, paths: tuple[str, ...]) -> None:
    common = common_filter(text)
    assert common is not None
    assert common.paths == paths


@pytest.mark.parametrize(
    "text",
    [
        "status EQ 'x'",  # refused: keyword case
        "status eq 'x' ",  # refused: a trailing blank
        "copies gt 1e3",  # refused: no exponents
        "nullable eq 1",  # refused: read as the literal null
        "current/allPages eq 1",  # refused: the path stops before /all
        "startswith(status,'(') eq true",  # refused: not a JavaScript regular expression
        "(status eq 'x'",  # refused: unbalanced
        "tolower(status) eq 'x'",  # refused: only true or false
        "current.printerName eq 'x'",  # dotted: the check refuses it
    ],
)
def test_the_quick_reading_leaves_everything_else_to_the_full_reader(text: str) -> None:
    assert common_filter(text) is None


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    st.recursive(ATOMS | st.sampled_from(["stauts eq 1", "aa EQ 1", "aa.bb eq 1", "bb eq cc"]), _grouped, max_leaves=6)
)
def test_the_quick_reading_changes_no_verdict(text: str) -> None:
    from printmgmt import _querycheck

    for mode in ("strict", "syntax"):
        quick = _querycheck._verdict.__wrapped__("jobs", mode, text, None, None)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("printmgmt.querylang._quick.common_filter", lambda text: None)
            full = _querycheck._verdict.__wrapped__("jobs", mode, text, None, None)
        assert quick == full, text
