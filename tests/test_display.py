"""What a person sees in a notebook: HTML views of models, pages and bulk results (key, status, printer, times
as dates, the raw document one click away), bulk results and pages as DataFrames with the summary first,
progress displays on request, and errors whose traceback starts with the SDK's message."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
import respx

import printmgmt._async.resources.jobs as async_jobs
import printmgmt_api.models as models
from printmgmt import BulkResult, Outcome, OutcomeStatus, PrintClient
from printmgmt._async.pager import Pager
from printmgmt.errors import PreconditionFailed
from printmgmt.models import Job, LogEntry, Printer
from printmgmt.pagination import Page
from printmgmt_api.field_catalog import PATHS

BASE = "https://print.test"
CHECKIN = 1736150400000  # 2025-01-06 08:00:00Z
JOB = {
    "_id": "677b1c",
    "status": "error",  # the server's spelling; shown in the known one
    "fileName": ["a.pdf"],
    "orig": {"printerName": "PRT-OLD", "jobName": "first name"},
    "current": {"printerName": "PRT-MUC-01", "jobName": "Invoice <1> & co", "checkinTime": CHECKIN, "userName": "bob"},
    "stages": [{"createdAt": CHECKIN}],
}


def cells(html: str) -> list[list[str]]:
    """The rows of the first HTML table, cell texts only."""
    table = html.split("<table", 1)[1].split("</table>", 1)[0]
    return [re.findall(r"<t[hd]>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)]


def test_a_job_has_a_short_repr_and_an_html_table_with_the_raw_document_a_click_away() -> None:
    job = Job.from_dict(JOB)
    assert (
        repr(job) == "Job(id='677b1c', status='Error', printer_name='PRT-MUC-01', checkin_time=2025-01-06 08:00:00Z, …)"
    )
    assert str(job) == repr(job)
    view = job._repr_html_()
    assert view is not None
    assert cells(view) == [
        ["field", "value"],
        ["id", "677b1c"],
        ["status", "Error"],
        ["printer name", "PRT-MUC-01"],
        ["job name", "Invoice &lt;1&gt; &amp; co"],  # escaped
        ["checkin time (UTC)", "2025-01-06 08:00:00Z"],
    ]
    raw = re.search(r"<details><summary>raw document</summary><pre>(.*)</pre></details>", view, re.S)
    assert raw and "&quot;userName&quot;: &quot;bob&quot;" in raw[1] and "<1>" not in raw[1]


def printmgmt_modules_loaded_by(code: str) -> list[str]:
    probe = f"{code}\nimport sys; print(sorted(m for m in sys.modules if m.split('.')[0] == 'printmgmt'))"
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(ran.stdout.splitlines()[-1].replace("'", '"')))


def test_a_model_renders_the_same_whether_or_not_the_sdk_was_imported() -> None:
    # a fresh interpreter that imports the generated models only: they load their runtime (the package's
    # __init__ with it), and nothing else of the SDK
    bare = printmgmt_modules_loaded_by("import printmgmt")
    code = (
        "import json, sys\n"
        "from printmgmt_api.models import Job, LogEntry\n"
        "job, entry = Job.from_dict(json.loads(sys.argv[1])), LogEntry.from_dict({'time': int(sys.argv[2])})\n"
        "sdk = sorted(name for name in sys.modules if name.split('.')[0] == 'printmgmt')\n"
        "print(json.dumps([repr(job), job._repr_html_(), entry._repr_html_(), sdk]))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code, json.dumps(JOB), str(CHECKIN)], capture_output=True, check=True)
    shown, html, entry_html, sdk = json.loads(ran.stdout)
    assert sorted(sdk) == sorted([*bare, "printmgmt._model_runtime"])
    assert shown == "Job(id='677b1c', status='Error', printer_name='PRT-MUC-01', checkin_time=2025-01-06 08:00:00Z, …)"
    assert html == Job.from_dict(JOB)._repr_html_()
    assert entry_html == LogEntry.from_dict({"time": CHECKIN})._repr_html_()


def test_every_summary_names_fields_the_spec_declares() -> None:
    declared = frozenset[str]().union(*PATHS.values())
    summed_up = [model for model in map(vars(models).get, models.__all__) if getattr(model, "SUMMARY", ())]
    assert summed_up == [Job, Printer]
    for model in summed_up:
        assert set(model.SUMMARY) <= declared and set(model.REPR_PATHS) <= set(model.SUMMARY), model


def test_a_model_without_a_summary_shows_its_one_valued_fields() -> None:
    entry = LogEntry.from_dict({"time": CHECKIN, "level": "info", "message": "started", "tags": ["a"]})
    assert cells(entry._repr_html_() or "")[1:] == [
        ["time (UTC)", "2025-01-06 08:00:00Z"],
        ["level", "info"],
        ["message", "started"],
        ["tags", "a"],
    ]


def test_a_page_is_a_table_of_its_items() -> None:
    printers = [
        Printer.from_dict({"_id": "p1", "runtime": {"status": "idle", "queuedJobs": 0}}),
        Printer.from_dict({"_id": "p2", "runtime": {"status": "paused", "lastPrintedJobTime": CHECKIN}}),
    ]
    view = Page(items=printers, total=36, skip=10, top=2)._repr_html_()
    assert view.startswith("<div>Page: items 11\u201312 of 36<table")
    assert cells(view) == [
        ["id", "status", "queued jobs", "redirected to", "last printed job time (UTC)"],
        ["p1", "idle", "0", "", ""],
        ["p2", "paused", "", "", "2025-01-06 08:00:00Z"],
    ]
    assert "<details><summary>raw documents (2)</summary>" in view


def test_a_bulk_result_shows_each_key_and_becomes_a_dataframe() -> None:
    refused = PreconditionFailed(
        "refused",
        server_message="Job is already paused.",
        status_code=412,
        method="PUT",
        url="/v3/jobs/b/pause",
        operation="jobs.pause",
        body="",
    )
    result = BulkResult(
        [
            Outcome("a", OutcomeStatus.DONE),
            Outcome("b", OutcomeStatus.REFUSED, error=refused),
            Outcome("c", OutcomeStatus.FAILED, error=ValueError("boom")),
        ]
    )
    view = result._repr_html_()
    assert view.startswith("<div>BulkResult: 1 done, 1 refused, 1 failed<table")
    assert cells(view)[1:] == [["a", "done", ""], ["b", "refused", "Job is already paused."], ["c", "failed", "boom"]]
    frame = result.to_pandas()
    assert list(frame.columns) == ["key", "status", "reason", "error"]
    assert frame.to_dict("records")[1:] == [
        {"key": "b", "status": "refused", "reason": "Job is already paused.", "error": "PreconditionFailed"},
        {"key": "c", "status": "failed", "reason": "boom", "error": "ValueError"},
    ]


def test_to_pandas_puts_the_summary_first_then_one_valued_columns_then_lists() -> None:
    columns = list(Page(items=[Job.from_dict(JOB)]).to_pandas().columns)
    assert columns[:5] == ["id", "status", "current.printerName", "current.jobName", "current.checkinTime"]
    assert columns[-2:] == ["fileName", "stages"]
    assert columns.index("orig.printerName") < columns.index("fileName")


def test_an_iteration_shows_progress_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    items = [Job.from_dict({"_id": f"j{n}"}) for n in range(5)]

    async def fetch(skip: int, top: int) -> Page[Job]:
        return Page(items=items[skip : skip + top], total=len(items), skip=skip, top=top)

    async def collect(progress: bool) -> list[Job]:
        return await Pager(fetch=fetch, page_size=2, progress=progress).to_list()

    assert len(asyncio.run(collect(False))) == 5
    assert capsys.readouterr().err == ""
    assert len(asyncio.run(collect(True))) == 5
    assert re.search(r"items: 100%\|.*\| 5/5", capsys.readouterr().err)


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_mocked=True) as mock:
        yield mock


async def test_bulk_actions_and_waits_show_progress_on_request(
    router: respx.MockRouter, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def no_wait(seconds: float) -> None:
        pass

    monkeypatch.setattr(async_jobs, "async_sleep", no_wait)
    router.put(url__regex=r"/v3/jobs/\w+/pause$").respond(200, json={})
    rounds = [
        [{"_id": "a", "status": "Added"}, {"_id": "b", "status": "Processed"}],
        [{"_id": "a", "status": "Processed"}],
    ]
    router.get("/v3/jobs/").mock(
        side_effect=[httpx.Response(200, json={"results": r, "totalCount": len(r)}) for r in rounds]
    )
    async with PrintClient(BASE, auth="t") as client:
        await client.jobs.pause_many(["a", "b", "c"])
        assert capsys.readouterr().err == ""
        await client.jobs.pause_many(["a", "b", "c"], progress=True)
        assert re.search(r"pause: 100%\|.*\| 3/3", capsys.readouterr().err)
        await client.jobs.wait_for_many(["a", "b"], progress=True)
        assert re.search(r"jobs ended: 100%\|.*\| 2/2", capsys.readouterr().err)

        def job_a(*statuses: str) -> None:
            answers = [httpx.Response(200, json={"_id": "a", "status": status}) for status in statuses]
            router.get("/v3/jobs/a").mock(side_effect=answers)

        job_a("Added", "Printing", "Processed")
        await client.jobs.wait_for("a")
        assert capsys.readouterr().err == ""
        job_a("Added", "Printing", "Processed")
        await client.jobs.wait_for("a", progress=True)
        shown = capsys.readouterr().err
        assert re.search(r"job 'a': 100%\|.*\| 1/1.*Processed", shown) and "Printing" in shown
        job_a("Printing", "Error")
        assert [str(job.status) async for job in client.jobs.watch("a", progress=True)] == ["Printing", "Error"]
        assert re.search(r"job 'a': 100%\|.*\| 1/1.*Error", capsys.readouterr().err)


def test_without_tqdm_progress_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from printmgmt._progress import progress_bar

    monkeypatch.setitem(sys.modules, "tqdm.std", None)
    progress_bar(False, total=1, desc="x", unit="item")  # not asked for: nothing imported
    with pytest.raises(ImportError, match=r"pip install 'printmgmt\[progress\]'"):
        progress_bar(True, total=1, desc="x", unit="item")


async def test_a_transport_error_in_ipython_starts_with_the_message_and_keeps_its_cause() -> None:
    async with PrintClient("http://127.0.0.1:9", retries=0) as client:
        with pytest.raises(Exception) as raised:
            await client.jobs.get("x")
    error = raised.value
    lines = error._render_traceback_()  # type: ignore[attr-defined]
    assert lines[0].startswith("printmgmt.errors.RequestNotSent: jobs.get: GET http://127.0.0.1:9/v3/jobs/x failed")
    assert any(line.startswith("  ... ") and "frames inside printmgmt" in line for line in lines)
    assert lines[-1].startswith("caused by httpx.ConnectError: ")
    assert not any("/printmgmt/" in line and "File " in line for line in lines)  # the SDK's frames counted only
    assert len(lines) < 15
    assert isinstance(error.__cause__, httpx.ConnectError)  # the whole chain is kept
