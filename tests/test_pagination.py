"""list() shapes and iterate() paging over $top/$skip."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable
from typing import Any

import httpx
import pytest
import respx
from in_flight import InFlight

from printmgmt import Page, PrintClient, odata


class FakeCollection:
    """Serves /v3/jobs/ like the real OData middleware, counting requests."""

    def __init__(
        self,
        size: int,
        *,
        inlinecount: bool = True,
        cap: int | None = None,
        strip_skip: bool = False,
        count: Callable[[int], Any] = int,
    ) -> None:
        self.ids = [f"job{n:06d}" for n in range(size)]
        self.inlinecount = inlinecount  # False: a server that ignores $inlinecount (always a bare array)
        self.cap = cap  # a server-side maximum page size
        self.strip_skip = strip_skip  # a proxy that drops $skip on its way to the server
        self.count = count  # how the total is written (str: "23", float: 23.0)
        self.requests: list[httpx.QueryParams] = []
        self.after_request: Callable[[FakeCollection], None] | None = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        params = request.url.params
        self.requests.append(params)
        skip = 0 if self.strip_skip else int(params.get("$skip", 0))
        top = int(params.get("$top", len(self.ids)))
        if self.cap is not None:
            top = min(top, self.cap)
        items = [{"_id": i, "status": "Processed"} for i in self.ids[skip : skip + top]]
        total = len(self.ids)
        if self.after_request:
            self.after_request(self)
        if self.inlinecount and params.get("$inlinecount") == "allpages":
            return httpx.Response(200, json={"results": items, "totalCount": self.count(total)})
        return httpx.Response(200, json=items)


def serve(mock: respx.MockRouter, collection: FakeCollection) -> None:
    mock.get("/v3/jobs/").mock(side_effect=collection)


async def test_list_bare_array(mock: respx.MockRouter, client: PrintClient) -> None:
    serve(mock, FakeCollection(5))
    page = await client.jobs.list(top=3, skip=1)
    assert isinstance(page, Page)
    assert [job.id for job in page] == ["job000001", "job000002", "job000003"]
    assert (page.total, page.skip, page.top, len(page), page.has_more) == (None, 1, 3, 3, None)


async def test_list_with_count(mock: respx.MockRouter, client: PrintClient) -> None:
    collection = FakeCollection(5)
    serve(mock, collection)
    page = await client.jobs.list(top=2, count=True)
    assert [job.id for job in page] == ["job000000", "job000001"]
    assert (page.total, page.next_skip, page.has_more) == (5, 2, True)
    assert collection.requests[0]["$inlinecount"] == "allpages"


async def test_list_sends_odata_options(mock: respx.MockRouter, client: PrintClient) -> None:
    collection = FakeCollection(0)
    serve(mock, collection)
    await client.jobs.list(
        filter=odata.field("current/userName") == "O'Neil",
        orderby="current/checkinTime desc",
        select="_id,status",
        top=10,
        skip=20,
    )
    sent = collection.requests[0]
    assert sent["$filter"] == "current/userName eq 'O''Neil'"
    assert (sent["$orderby"], sent["$select"], sent["$top"], sent["$skip"]) == (
        "current/checkinTime desc",
        "_id,status",
        "10",
        "20",
    )
    assert "$inlinecount" not in sent


@pytest.mark.parametrize("count", [True, False])
async def test_top_zero_never_reaches_the_server(mock: respx.MockRouter, client: PrintClient, count: bool) -> None:
    # to MongoDB a limit of 0 is no limit: $top=0 would send every job; counting asks for one and drops it
    collection = FakeCollection(5)
    serve(mock, collection)
    page = await client.jobs.list(top=0, count=count)
    assert [request["$top"] for request in collection.requests] == ["1"]
    assert (list(page), page.total, page.top) == ([], 5 if count else None, 0)


@pytest.mark.parametrize(
    ("size", "page_size", "requests"),
    [
        (0, 10, 1),  # empty collection: one request, nothing yielded
        (1, 10, 1),
        (30, 10, 3),  # exact multiple: the total says page 3 is the last, no fourth request
        (25, 10, 3),
        (10_000, 1_000, 10),
    ],
)
@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_iterate_yields_each_item_once_without_extra_requests(
    mock: respx.MockRouter, client: PrintClient, size: int, page_size: int, requests: int, prefetch: int
) -> None:
    collection = FakeCollection(size)
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=page_size, prefetch=prefetch)]
    assert ids == collection.ids
    assert len(collection.requests) == requests  # prefetching never asks past the total
    assert sorted(int(r["$skip"]) for r in collection.requests) == [n * page_size for n in range(requests)]
    assert all(r["$top"] == str(page_size) for r in collection.requests)


@pytest.mark.parametrize(("size", "requests"), [(0, 1), (1, 2), (30, 4), (25, 4)])
async def test_iterate_without_server_total_confirms_a_short_page(
    mock: respx.MockRouter, client: PrintClient, size: int, requests: int
) -> None:
    collection = FakeCollection(size, inlinecount=False)
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10)]
    assert ids == collection.ids
    assert len(collection.requests) == requests  # only an empty page ends it


@pytest.mark.parametrize(("size", "requests"), [(0, 1), (1, 1), (30, 4), (25, 3)])
async def test_confirm_short_pages_off_takes_a_short_page_as_the_last(
    mock: respx.MockRouter, client: PrintClient, size: int, requests: int
) -> None:
    collection = FakeCollection(size, inlinecount=False)
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, confirm_short_pages=False)]
    assert ids == collection.ids
    assert len(collection.requests) == requests


@pytest.mark.parametrize("prefetch", [0, 2])
async def test_a_capped_server_without_a_total_loses_no_job(
    mock: respx.MockRouter, client: PrintClient, prefetch: int
) -> None:
    collection = FakeCollection(23, inlinecount=False, cap=10)  # returns 10 when asked for 50, and no total
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=50, prefetch=prefetch)]
    assert ids == collection.ids
    assert [r["$skip"] for r in collection.requests] == ["0", "10", "20", "23"]


@pytest.mark.parametrize("count", [int, str, float], ids=["int", "string", "float"])
@pytest.mark.parametrize("prefetch", [0, 3])
async def test_a_capped_server_with_a_total_in_any_json_type_loses_no_job(
    mock: respx.MockRouter, client: PrintClient, count: Callable[[int], Any], prefetch: int
) -> None:
    collection = FakeCollection(23, cap=10, count=count)
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=50, prefetch=prefetch)]
    assert ids == collection.ids
    assert len(collection.requests) == 3  # the total ends it: no confirming request


@pytest.mark.parametrize("inlinecount", [True, False], ids=["with-total", "without-total"])
@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_a_proxy_stripping_skip_raises_instead_of_repeating(
    mock: respx.MockRouter, client: PrintClient, inlinecount: bool, prefetch: int
) -> None:
    from printmgmt.errors import PagingError

    collection = FakeCollection(25, inlinecount=inlinecount, strip_skip=True)
    serve(mock, collection)
    seen: list[str] = []
    with pytest.raises(PagingError, match=r"skip=5 .*ignores \$skip") as raised:
        async for job in client.jobs.iterate(page_size=5, prefetch=prefetch):
            seen.append(job.id)
    assert seen == collection.ids[:5]  # the first page once, never again
    assert raised.value.skip == raised.value.resume_skip == 5


@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_items_shifted_onto_the_next_page_are_yielded_once(
    mock: respx.MockRouter, client: PrintClient, prefetch: int
) -> None:
    """Newest first while jobs arrive: each arrival pushes the last items of a page onto the next one."""
    collection = FakeCollection(30)
    collection.ids.reverse()
    before = list(collection.ids)
    arrivals = iter(range(900_000, 900_100))

    def arrive(c: FakeCollection) -> None:
        c.ids[:0] = [f"job{next(arrivals)}", f"job{next(arrivals)}"]  # two new jobs ahead of the position

    collection.after_request = arrive
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, prefetch=prefetch)]
    assert len(ids) == len(set(ids))
    assert set(before) <= set(ids)  # nothing that was there from the start is lost


@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_iterate_trusts_the_total_when_the_server_caps_page_size(
    mock: respx.MockRouter, client: PrintClient, prefetch: int
) -> None:
    collection = FakeCollection(23, cap=5)
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, prefetch=prefetch)]
    assert ids == collection.ids
    # pages are requested ahead at the server's page size once the first answer shows it
    assert sorted(int(r["$skip"]) for r in collection.requests) == [0, 5, 10, 15, 20]


@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_iterate_follows_a_growing_total(mock: respx.MockRouter, client: PrintClient, prefetch: int) -> None:
    collection = FakeCollection(20)

    def grow_once(c: FakeCollection) -> None:
        if len(c.requests) == 1:
            c.ids.extend(["job900000", "job900001", "job900002"])

    collection.after_request = grow_once
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, prefetch=prefetch)]
    assert ids == collection.ids
    assert len(ids) == 23


@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_iterate_stops_when_the_total_shrinks(mock: respx.MockRouter, client: PrintClient, prefetch: int) -> None:
    collection = FakeCollection(30)

    def shrink_once(c: FakeCollection) -> None:
        if len(c.requests) == 1:
            del c.ids[15:]

    collection.after_request = shrink_once
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, prefetch=prefetch)]
    assert ids == [f"job{n:06d}" for n in range(15)]
    # the second answer's total ends it; with two or more pages ahead, skip 20 was already asked for
    assert len(collection.requests) == (2 if prefetch < 2 else 3)
    assert len(ids) == len(set(ids))


async def test_iterate_orders_by_id_unless_told(mock: respx.MockRouter, client: PrintClient) -> None:
    collection = FakeCollection(3)
    serve(mock, collection)
    [job async for job in client.jobs.iterate()]
    [job async for job in client.jobs.iterate(orderby="status desc", filter="status eq 'Error'")]
    assert collection.requests[0]["$orderby"] == "_id"
    assert collection.requests[1]["$orderby"] == "status desc"
    assert collection.requests[1]["$filter"] == "status eq 'Error'"


@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_iterate_is_lazy_and_restartable(mock: respx.MockRouter, client: PrintClient, prefetch: int) -> None:
    collection = FakeCollection(1_000_000)
    serve(mock, collection)
    pager = client.jobs.iterate(page_size=100, prefetch=prefetch)
    assert collection.requests == []  # nothing sent until iterated
    seen = 0
    async for _ in pager:
        seen += 1
        if seen == 250:
            break
    # three pages for 250 items, plus at most `prefetch` asked ahead: not a million items in memory
    assert 3 <= len(collection.requests) <= 3 + prefetch
    again = []
    async for job in pager:
        again.append(job.id)
        if len(again) == 2:
            break
    assert again == ["job000000", "job000001"]  # each async for starts at the beginning


async def test_iterate_start_resumes(mock: respx.MockRouter, client: PrintClient) -> None:
    collection = FakeCollection(25)
    serve(mock, collection)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, start=20)]
    assert ids == collection.ids[20:]


async def test_by_page_yields_pages(mock: respx.MockRouter, client: PrintClient) -> None:
    serve(mock, FakeCollection(25))
    pages = [page async for page in client.jobs.iterate(page_size=10).by_page()]
    assert [(p.skip, len(p), p.total) for p in pages] == [(0, 10, 25), (10, 10, 25), (20, 5, 25)]


async def test_printers_page_too(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/printers/").respond(json={"results": [{"_id": "p1"}, {"_id": "p2"}], "totalCount": 2})
    names = [printer.id async for printer in client.printers.iterate(page_size=2)]
    assert names == ["p1", "p2"]
    assert len(mock.calls) == 1


@pytest.mark.parametrize("prefetch", [0, 1, 4])
async def test_interrupted_iteration_says_where_to_resume(
    mock: respx.MockRouter, client: PrintClient, prefetch: int
) -> None:
    from printmgmt.errors import ServerError

    collection = FakeCollection(45)
    healthy = collection

    def failing_third_page(request: httpx.Request) -> httpx.Response:
        if request.url.params["$skip"] == "20":
            return httpx.Response(500, text="boom")
        return healthy(request)

    mock.get("/v3/jobs/").mock(side_effect=failing_third_page)
    seen: list[str] = []
    with pytest.raises(ServerError) as caught:
        async for job in client.jobs.iterate(page_size=10, prefetch=prefetch):
            seen.append(job.id)
    assert caught.value.resume_skip == 20
    assert "resume with iterate(..., start=20)" in "\n".join(caught.value.__notes__)
    assert seen == collection.ids[:20]

    serve(mock, collection)
    rest = [
        job.id async for job in client.jobs.iterate(page_size=10, start=caught.value.resume_skip, prefetch=prefetch)
    ]
    assert seen + rest == collection.ids  # every item exactly once


async def test_a_server_that_ignores_skip_does_not_loop_forever(mock: respx.MockRouter, client: PrintClient) -> None:
    from printmgmt.errors import PrintMgmtError

    route = mock.get("/v3/jobs/").respond(json=[{"_id": "a"}, {"_id": "b"}])  # no total, always the same page
    pager = client.jobs.iterate(page_size=2)
    with pytest.raises(PrintMgmtError, match="does not page"):
        await asyncio.wait_for(pager.to_list(), timeout=5)  # without the guard this would never end
    assert route.call_count == 2


async def test_prefetch_overlaps_requests_within_its_bound(mock: respx.MockRouter, client: PrintClient) -> None:
    collection = FakeCollection(200)
    slow = InFlight(collection)
    mock.get("/v3/jobs/").mock(side_effect=slow)
    ids = [job.id async for job in client.jobs.iterate(page_size=10, prefetch=3)]
    assert ids == collection.ids
    assert slow.peak == 3
    slow.peak = 0
    assert [job.id async for job in client.jobs.iterate(page_size=10, prefetch=0)] == collection.ids
    assert slow.peak == 1


async def test_stopping_early_cancels_pages_requested_ahead(mock: respx.MockRouter, client: PrintClient) -> None:
    collection = FakeCollection(1_000)
    started = asyncio.Event()

    async def hanging(request: httpx.Request) -> httpx.Response:
        if request.url.params["$skip"] != "0":
            started.set()
            await asyncio.sleep(3600)  # cancelled when the pager closes, or the test would time out
        return collection(request)

    mock.get("/v3/jobs/").mock(side_effect=hanging)
    before = len(asyncio.all_tasks())
    pages = client.jobs.iterate(page_size=10, prefetch=4).by_page()
    assert isinstance(pages, AsyncGenerator)  # so aclose() below can cancel what it fetches ahead
    first = await anext(pages)
    assert len(first) == 10
    await asyncio.wait_for(started.wait(), 5)
    assert len(asyncio.all_tasks()) == before + 4
    await asyncio.wait_for(pages.aclose(), 5)
    await asyncio.sleep(0)
    assert len(asyncio.all_tasks()) == before


@pytest.mark.parametrize("prefetch", [-1, 1.5, "2"])
async def test_prefetch_must_be_a_non_negative_int(client: PrintClient, prefetch: object) -> None:
    with pytest.raises((TypeError, ValueError), match="prefetch"):
        client.jobs.iterate(prefetch=prefetch)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("select", "sent"),
    [("_id,status", "_id,status"), (["_id", "status", "current/printerName"], "_id,status,current/printerName")],
)
async def test_select_takes_a_string_or_a_list_of_fields(
    mock: respx.MockRouter, client: PrintClient, select: Any, sent: str
) -> None:
    route = mock.get("/v3/jobs/").respond(json={"results": [], "totalCount": 0})
    await client.jobs.list(select=select)
    assert route.calls.last.request.url.params["$select"] == sent


@pytest.mark.parametrize("select", [["_id", 3], ["a,b"], [""], 42])
async def test_select_refuses_what_is_not_a_field_list(client: PrintClient, select: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        await client.jobs.list(select=select)


@pytest.mark.parametrize(
    "body",
    [
        {"results": [{"_id": "j1"}, {"_id": "j2"}], "totalCount": 2},  # the spec's guess
        {"value": [{"_id": "j1"}, {"_id": "j2"}], "odata.count": "2"},  # OData v2 JSON light
        {"value": [{"_id": "j1"}, {"_id": "j2"}], "@odata.count": 2},  # OData v4
        {"d": {"results": [{"_id": "j1"}, {"_id": "j2"}], "__count": "2"}},  # OData v2 verbose
        {"results": [{"_id": "j1"}, {"_id": "j2"}], "totalCount": "2"},  # a count as a string
        {"results": [{"_id": "j1"}, {"_id": "j2"}], "totalCount": 2.0},  # a count as a float
        {"value": [{"_id": "j1"}, {"_id": "j2"}], "@odata.count": 2.0},
        {"d": {"results": [{"_id": "j1"}, {"_id": "j2"}], "totalCount": " 2 "}},
    ],
    ids=[
        "results-totalCount",
        "value-odata.count",
        "value-@odata.count",
        "d-results-__count",
        "totalCount-string",
        "totalCount-float",
        "@odata.count-float",
        "d-totalCount-string",
    ],
)
async def test_every_plausible_list_shape_gives_the_page(
    mock: respx.MockRouter, client: PrintClient, body: dict[str, Any]
) -> None:
    mock.get("/v3/jobs/").respond(json=body)
    page = await client.jobs.list(count=True)
    assert [job.id for job in page.items] == ["j1", "j2"]
    assert page.total == 2
    mock.get("/v3/jobs/").respond(json=body)
    assert [job.id async for job in client.jobs.iterate(page_size=5)] == ["j1", "j2"]


async def test_a_bare_array_is_a_page_without_a_total(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/printers/").respond(json=[{"_id": "p1"}])
    page = await client.printers.list()
    assert [p.id for p in page.items] == ["p1"] and page.total is None


@pytest.mark.parametrize("count", [True, -1, 2.5, "many", "2.5", None, [2], {"n": 2}, float("inf")])
@pytest.mark.parametrize("key", ["totalCount", "odata.count"])
async def test_a_count_that_is_no_number_leaves_the_total_unknown(
    mock: respx.MockRouter, client: PrintClient, count: Any, key: str
) -> None:
    items = "results" if key == "totalCount" else "value"
    mock.get("/v3/jobs/").respond(
        content=json.dumps({items: [{"_id": "j1"}], key: count}).encode(), headers={"Content-Type": "application/json"}
    )
    page = await client.jobs.list(count=True)
    assert [job.id for job in page.items] == ["j1"]
    assert page.total is None


@pytest.mark.parametrize("prefetch", [0, 2])
def test_the_sync_pager_yields_shifted_items_once_and_refuses_a_stripped_skip(
    mock: respx.MockRouter, prefetch: int
) -> None:
    from printmgmt.errors import PagingError
    from printmgmt.sync import PrintClient as SyncPrintClient

    shifted = FakeCollection(30)
    shifted.ids.reverse()
    before = list(shifted.ids)
    arrivals = iter(range(900_000, 900_100))
    shifted.after_request = lambda c: c.ids.insert(0, f"job{next(arrivals)}")
    serve(mock, shifted)
    with SyncPrintClient("https://print.test:8080", auth="test-token") as sync:  # the mock's base URL
        ids = [job.id for job in sync.jobs.iterate(page_size=10, prefetch=prefetch)]
        assert len(ids) == len(set(ids)) and set(before) <= set(ids)
        serve(mock, FakeCollection(25, inlinecount=False, cap=10, strip_skip=True))
        with pytest.raises(PagingError, match="ignores"):
            list(sync.jobs.iterate(page_size=50, prefetch=prefetch))


def test_a_sync_pager_stopped_early_waits_for_the_pages_it_requested_ahead() -> None:
    import threading
    import time

    from printmgmt.sync import Pager

    unfinished: set[int] = set()
    lock = threading.Lock()

    def fetch(skip: int, top: int) -> Page[int]:
        if skip:
            with lock:
                unfinished.add(skip)
            time.sleep(0.3)  # still on the wire when the loop stops
            with lock:
                unfinished.discard(skip)
        return Page(items=list(range(skip, skip + top)), total=1_000, skip=skip, top=top)

    pager = Pager(fetch, page_size=10, key=lambda item: item, prefetch=3)
    for item in pager:
        if item == 5:
            break
    # a thread cannot be cancelled: one left running would outlive the client the loop's owner closes next
    assert unfinished == set()
