"""Raw query options are read with the server's grammar before anything is sent (``check_query``)."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

import printmgmt_api.field_catalog as known
from printmgmt import PrintClient, odata, server
from printmgmt.errors import InvalidQuery, PrintMgmtError, QueryMeaningWarning, UnknownFieldWarning
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


@pytest.mark.parametrize(
    "kwargs", [{"filter": ""}, {"orderby": ""}, {"select": ""}, {"select": []}, {"filter": "", "orderby": ""}]
)
@pytest.mark.parametrize("mode", ["strict", "syntax", "off"])
async def test_an_empty_option_is_no_option_in_every_mode(
    router: respx.MockRouter, kwargs: dict[str, object], mode: str
) -> None:
    # the server reads $filter= (and the others) as no option: so does the SDK, which sends none
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        await client.jobs.list(**kwargs, check_query=mode)  # type: ignore[arg-type]
        async for _ in client.jobs.iterate(**kwargs, check_query=mode):  # type: ignore[arg-type]
            pass
    sent = [dict(call.request.url.params) for call in route.calls]
    assert [params.keys() & {"$filter", "$orderby", "$select"} for params in sent] == [set(), {"$orderby"}]
    assert sent[1]["$orderby"] == "_id"  # iterate's stable order, as without the option


@pytest.mark.parametrize(
    ("text", "rewrite"),
    [
        # a dotted name whose next part begins with any/all: the slashed path is no path to the server either
        ("current.allPages eq 1", None),
        ("current.anything eq 1 and status eq 'x'", None),
        ("current.printerName eq 'x' and current.copies eq 1", "current/printerName eq 'x' and current/copies eq 1"),
        # dotted, and misread once the dots are slashes: the rewrite is OData's grouping of the slashed text
        ("aa.bb eq 1 and cc eq 2 or dd eq 3", "(aa/bb eq 1 and cc eq 2) or dd eq 3"),
        # parentheses around a member, a literal, a lambda's body: a balanced rewrite
        ("(status) eq 'x' and aa eq 1 or bb eq 2", "((status) eq 'x' and aa eq 1) or bb eq 2"),
        ("status eq ('x') and aa eq 1 or bb eq 2", "(status eq ('x') and aa eq 1) or bb eq 2"),
        (
            "stages/any(st: (st/createdBy eq 'a' and st/status eq 1 or st/status eq 2))",
            "stages/any(st: ((st/createdBy eq 'a' and st/status eq 1) or st/status eq 2))",
        ),
    ],
)
def test_a_rewrite_is_offered_only_where_the_server_reads_it_as_written(text: str, rewrite: str | None) -> None:
    with pytest.raises(InvalidQuery) as refused:
        server.check_query("jobs", "strict", filter=text)
    assert refused.value.rewrite == rewrite
    if rewrite is not None:
        assert f"write {rewrite}" in refused.value.reason or "write " in refused.value.reason
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnknownFieldWarning)
            server.check_query("jobs", "strict", filter=rewrite)  # accepted, read as written


def test_filter_members_are_the_checks_members_with_positions() -> None:
    text = "status eq 'x' and current.printerName eq 'PRT' and stages/any(st: st/createdBy eq aa)"
    assert server.filter_members(text) == [
        server.Member("status", 0, "status"),
        server.Member("current", 18, "current.printerName"),  # once, where it is written
        server.Member("stages", 51, "stages"),
        server.Member("stages/createdBy", 66, "st/createdBy"),
        server.Member("stages/aa", 82, "aa"),  # compared with a field (a $where): the element's field all the same
    ]
    with pytest.raises(InvalidQuery) as refused:
        server.check_query("jobs", "strict", filter=text)
    assert refused.value.position == 18


TEMPLATES = [
    "status eq {s} and current/copies ne {n}",
    "status eq {s} and (current/printerName eq {s} or current/copies gt {n})",
    "stages/any(st: st/createdBy eq {s}) and current/checkinTime ge {n}",
    "startswith(current/jobName,{s}) eq true or substringof({s},status) and not (current/copies lt {n})",
    "endswith(fileName,{s}) eq true and current/copies eq ({n}) or aa.bb eq {s}",
    "current/copies eq {n}{n} and status eq {s}{s}",
    # the values the check holds to the field's type, the case of a text function, numbers a double does not hold
    "refId eq {s} and startswith(status,{s}) eq true or current/fileSize ne {n}",
    "current/copies eq {s} and endswith(current/jobName,{s}) ne true",
    "startswith(status,{s}) eq true",
]
TEXTS = st.one_of(
    st.text(alphabet="ab1 (.'\\*", max_size=3),
    st.text(alphabet="0123456789abcdefAB", min_size=24, max_size=24),
    st.text(alphabet="0123456789_-", max_size=3),
).map(lambda text: "'" + text.replace("'", "''") + "'")
NUMBERS = st.from_regex(r"-?[0-9]{1,3}(\.[0-9])?|9007199254740[0-9]{3}|[1-9][0-9]{16,19}", fullmatch=True)
#: the letters a text is respelt with: one alphabet per text, so that a text may keep its kind or change it
ALPHABETS = ["ab1 (.*", "0123456789abcdef", "0123456789", "ghxyzGH", "_-19"]


def _respelt(value: str, rnd: random.Random) -> str:
    """``value`` with other characters of the same length: a quoted text's letters from the texts' alphabet,
    a number's digits any digits (the literal may keep its shape, or not)."""
    if value.startswith("'"):
        inner = value[1:-1].replace("''", "'")
        alphabet = rnd.choice(ALPHABETS)
        return "'" + "".join(rnd.choice(alphabet) for _ in inner) + "'"
    digits = "0123456789" if rnd.random() < 0.5 else "123456789"  # or each digit zero where it was
    return "".join((c if c == "0" and len(digits) == 9 else rnd.choice(digits)) if c.isdigit() else c for c in value)


@settings(max_examples=1000, derandomize=True, deadline=None)
@given(st.sampled_from(TEMPLATES), st.lists(st.one_of(TEXTS, NUMBERS), min_size=8, max_size=8), st.randoms())
def test_texts_of_one_literal_shape_get_one_verdict(template: str, values: list[str], rnd: random.Random) -> None:
    # the check keeps an acceptance by the filter's literal shape: any two texts of one shape must get it
    from printmgmt.server._lexer import literal_shape
    from printmgmt.server._verdict import read_verdict

    slots = template.replace("{n}", "{}").replace("{s}", "{}")
    first = slots.format(*values)
    second = slots.format(*(_respelt(value, rnd) if rnd.random() < 0.7 else value for value in values))
    if literal_shape(first) is None or literal_shape(first) != literal_shape(second):
        return
    for mode in ("strict", "syntax"):
        one, other = read_verdict("jobs", mode, first, None, None), read_verdict("jobs", mode, second, None, None)
        assert (one[0] is None) == (other[0] is None), (first, second)
        if one[0] is None:
            assert one == other, (first, second)


_KINDS = ("123456789", "abcdefABCDEF", "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ")


def _respelt_as_keyed(text: str, rnd: random.Random) -> str:
    """``text`` with other nonzero digits, and other letters between quotes: hex for hex, as the lookup of a
    text's literal shape does not tell them apart, and now and then not."""
    quoted, respelt = False, []
    for c in text:
        quoted ^= c == "'"
        kind = next((kind for kind in _KINDS if c in kind and (quoted or kind is _KINDS[0])), c)
        if kind is not _KINDS[0] and kind != c and rnd.random() < 0.1:
            kind = _KINDS[1] + _KINDS[2]
        respelt.append(rnd.choice(kind))
    return "".join(respelt)


@settings(max_examples=1000, derandomize=True, deadline=None)
@given(
    st.sampled_from([*TEMPLATES, "current/tray1 eq {n} and x2 eq {s}", "a9 eq {n}", "status eq 'Error' or x eq {s}"]),
    st.lists(st.one_of(TEXTS, NUMBERS), min_size=8, max_size=8),
    st.randoms(),
)
def test_a_shape_looked_up_is_the_shape_worked_out(template: str, values: list[str], rnd: random.Random) -> None:
    # the shape of a text is looked up by the text with its nonzero digits, and its letters between quotes, made
    # one of a kind: any text that differs from one read before only there (in names, quoted texts of any kind,
    # numbers of any length) gets the shape its own reading gives
    from printmgmt.server._lexer import _shape, literal_shape

    first = template.replace("{n}", "{}").replace("{s}", "{}").format(*values)
    second = _respelt_as_keyed(first, rnd)
    literal_shape(first)
    assert literal_shape(second) == _shape(second)[0], (first, second)


def test_the_check_keeps_its_verdict_and_not_the_readings_it_is_made_of() -> None:
    # the reader's own cache is for those who read the query document (the simulator, parse_filter)
    from printmgmt.server import _verdict

    accepted = "status eq 'Error' and current/copies ne 123456789"
    refused = "status EQ 'Error'"
    _verdict.verdict.cache_clear()  # what earlier tests left would answer without reading
    _verdict._ACCEPTED.clear()
    server.read_option.cache_clear()
    server.check_query("jobs", "strict", filter=accepted, orderby="current/copies desc", select="status")
    with pytest.raises(InvalidQuery):
        server.check_query("jobs", "strict", filter=refused)
    assert server.read_option.cache_info().currsize == 0
    assert server.read_option("$filter", accepted).refused is None
    assert server.read_option("$filter", refused).refused is not None
    assert server.read_option.cache_info().currsize == 2


def test_the_server_model_s_door_names_each_export_and_loads_the_reader_when_used() -> None:
    import subprocess
    import sys

    code = (
        "import sys, printmgmt.server as s\n"
        "EAGER = {'printmgmt.server._check', 'printmgmt.server._page_shapes'}\n"
        "assert not [m for m in sys.modules if m.startswith('printmgmt.server._') and m not in EAGER]\n"
        "assert all(getattr(s, name) is not None for name in s.__all__)\n"
        "assert 'printmgmt.server._parser' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        server.nope  # noqa: B018


@pytest.mark.parametrize(
    ("text", "position", "reason", "rewrite"),
    [
        (
            "startswith(current/jobName,'Inv') ne true",
            34,
            "the server ignores the operator after a condition",
            "startswith(current/jobName,'Inv') eq false",
        ),
        (
            "current/checkinTime ge datetime'2025-01-02T00:00:00Z'",
            23,
            "odata.jobs.current.checkin_time >= datetime(2025, 1, 2, tzinfo=UTC)",
            "current/checkinTime ge 1735776000000",
        ),
        ("refId eq '677b8bdbc382d72a50690cc3'", 9, "as an ObjectId", "refId eq guid'677b8bdbc382d72a50690cc3'"),
        (
            "endswith(current/fileName,'.pdf') eq true",
            26,
            "regular expression",
            r"endswith(current/fileName,'\.pdf') eq true",
        ),
        ("current/copies eq 1$x and status eq 'Error'", 19, "drops the rest of the filter", None),
        ("current/fileSize ne 9007199254740993", 20, "is read as 9007199254740992", None),
        # jobs' keys are ObjectIds: MongoDB orders none against a text (every order matches nothing)
        ("_id lt '\u0131'", 7, "jobs' keys are ObjectIds, and MongoDB orders none against a text", None),
        ("_id ge 'job-1'", 7, "'ge' matches nothing", None),
        # the server's not of 'eq' an ObjectId or a date is a $not of that value, which MongoDB refuses (500)
        (
            "not (_id eq '677b8bdbc382d72a50690cc3')",
            9,
            "as $not of an ObjectId, which fails in MongoDB",
            "_id ne '677b8bdbc382d72a50690cc3'",
        ),
        (
            "status eq 'Error' and ((_id eq '677b8bdbc382d72a50690cc3') eq false)",
            28,
            "as $not of an ObjectId",
            "status eq 'Error' and (_id ne '677b8bdbc382d72a50690cc3')",
        ),
        ("not ((_id eq '677b8bdbc382d72a50690cc3') or (status eq 'Error'))", 10, "fails in MongoDB", None),
        # a dotted name and a value: the rewrite mends both
        (
            "current.checkinTime gt datetime'2025-01-02T00:00:00Z'",
            0,
            "write current/checkinTime",
            "current/checkinTime gt 1735776000000",
        ),
    ],
)
async def test_a_value_the_server_reads_otherwise_is_refused_strict_and_sent_as_written_syntax(
    router: respx.MockRouter, text: str, position: int, reason: str, rewrite: str | None
) -> None:
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(InvalidQuery) as refused:
            await client.jobs.list(filter=text)
        assert route.call_count == 0
        assert (refused.value.position, refused.value.rewrite) == (position, rewrite)
        assert reason in refused.value.reason
        await client.jobs.list(filter=text, check_query="syntax")  # the server accepts it: sent as written
    assert [call.request.url.params["$filter"] for call in route.calls] == [text]


async def test_a_literal_that_is_no_javascript_regex_is_refused_strict_and_left_to_the_server_syntax(
    router: respx.MockRouter,
) -> None:
    text = "startswith(current/jobName,'v1(')"
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(InvalidQuery) as refused:
            await client.jobs.list(filter=text)
        assert refused.value.rewrite == r"startswith(current/jobName,'v1\(')"
        await client.jobs.list(filter=text, check_query="syntax")  # V8's RegExp check is the server's 400
    assert [call.request.url.params["$filter"] for call in route.calls] == [text]


async def test_a_case_insensitive_text_function_warns_with_its_own_text(router: respx.MockRouter) -> None:
    # the verdict is kept by the filter's literal shape: each text of it still gets a warning naming itself
    route = lists(router)
    async with PrintClient(BASE, auth="t") as client:
        for value in ("Err", "Pri", "Err"):
            text = f"startswith(status,'{value}') eq true"
            with pytest.warns(QueryMeaningWarning) as warned:
                await client.jobs.list(filter=text)
            (warning,) = warned.list
            assert isinstance(warning.message, QueryMeaningWarning)
            assert warning.message.text == text and warning.message.position == 0
            assert str(warning.message) == (
                "$filter: startswith ignores case on this server (OData's is case-exact) (at position 0); "
                "sent as written"
            )
            assert warning.filename == __file__
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            await client.jobs.list(filter="startswith(status,'Err') eq true", check_query="syntax")
            await client.jobs.list(filter="startswith(current/jobName,'2025-') eq true")  # no letters
    assert route.call_count == 5


@pytest.mark.parametrize(
    ("collection", "text"),
    [
        ("jobs", "_id eq 'job-1'"),  # an ObjectId never equals it, nor does OData's text of one: no row either way
        ("jobs", "_id lt '677b8bdbc382d72a50690cc3'"),  # an ObjectId against an ObjectId
        ("printers", "_id lt 'PRT-10'"),  # printers' keys are texts
        ("jobs", "not (_id ne '677b8bdbc382d72a50690cc3')"),  # $not of {$ne: …}, a document
        ("jobs", "not (status eq 'Error')"),  # $ne of a text
        ("jobs", "not stages/any(st: st/createdAt eq 1735776000000)"),  # $not of $elemMatch
    ],
)
def test_keys_and_negations_mongodb_reads_as_written_are_accepted(collection: str, text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        server.check_query(collection, "strict", filter=text)


def test_a_negated_date_in_an_open_object_is_refused_with_its_ne() -> None:
    # physical/… is untyped: a date is no mismatch there, but the server's $not of it fails in MongoDB
    with pytest.raises(InvalidQuery) as refused:
        server.check_query("printers", "strict", filter="not ((physical/level eq datetime'2025-01-02T00:00:00Z'))")
    assert refused.value.rewrite == "physical/level ne datetime'2025-01-02T00:00:00Z'"
    assert "as $not of a date, which fails in MongoDB" in refused.value.reason


EPOCH_FIELDS = sorted((c, path) for c, paths in known.PATHS.items() for path in paths if known.is_epoch_ms(path))


@pytest.mark.parametrize(("collection", "path"), EPOCH_FIELDS, ids=[f"{c}:{p}" for c, p in EPOCH_FIELDS])
def test_a_date_against_epoch_milliseconds_names_the_builder_s_form_of_its_rewrite(collection: str, path: str) -> None:
    with pytest.raises(InvalidQuery) as refused:
        server.check_query(collection, "strict", filter=f"{path} lt datetime'2025-01-02T03:04:05.006Z'")
    built = refused.value.reason.rpartition("or build it: ")[2]
    assert built.startswith(f"odata.{collection}.")
    assert str(eval(built, {"odata": odata, "datetime": datetime, "UTC": UTC})) == refused.value.rewrite


@pytest.mark.parametrize(
    ("collection", "text", "reason", "rewrite"),
    [
        # the server looks for the text "undefined"; OData's test of null is null, and so is its negation
        ("jobs", "not (startswith(current/printerName,null))", "of null is null", None),
        # a regular expression never matches an ObjectId
        ("jobs", "startswith(_id,'677b')", "jobs' keys are ObjectIds", None),
        # an object is no text, whatever the other argument is (here a bare word: an unknown field)
        ("jobs", "startswith(lcCurrent,current/jobname)", "lcCurrent holds no text", None),
        # printers' keys are names: 24 hex digits in quotes are an ObjectId to the server, never equal to one
        ("printers", "_id gt '677B8BDBC382D72A50690CC3'", "as an ObjectId", "_id gt guid'677B8BDBC382D72A50690CC3'"),
        # negated by the outer not, not by 'eq true': the guid'…' rewrite (a text) mends both
        (
            "jobs",
            "not (status eq 'x' or (orig/server eq 'ffffffffffffffffffffffff') eq true)",
            "as an ObjectId",
            "not (status eq 'x' or (orig/server eq guid'ffffffffffffffffffffffff') eq true)",
        ),
        ("jobs", "not (status eq 'x' or (_id eq 'ffffffffffffffffffffffff') eq true)", "fails in MongoDB", None),
        # the server reads an ObjectId's capitals as its lower-case digits, OData compares the text as written
        ("jobs", "_id gt '677B8BDBC382D72A50690CC3'", "write lower case", None),
        # JavaScript reads 30 February (as 2 March) and hour 24; OData reads no such date
        ("printers", "physical/level le datetime'2025-02-30T00:00:00Z'", "OData reads no such date", None),
        ("jobs", "current/checkinTime lt datetime'2025-01-01T24:00:00Z'", "OData reads no such date", None),
    ],
)
def test_keys_null_and_objects_in_text_functions_are_refused(
    collection: str, text: str, reason: str, rewrite: str | None
) -> None:
    with pytest.raises(InvalidQuery) as refused, warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownFieldWarning)
        server.check_query(collection, "strict", filter=text)
    assert reason in refused.value.reason
    assert refused.value.rewrite == rewrite
