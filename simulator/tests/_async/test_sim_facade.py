"""Every method of the SDK's facade at least once, against the simulator over real HTTP."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt import odata
from printmgmt.client import PrintClient
from printmgmt.errors import BadRequest, InvalidQuery, NotFound
from printmgmt.models import Config, Flow, Job, Printer, PrinterRuntime, to_datetime

from .helpers import job_in, known

pytestmark = pytest.mark.print_server(jobs=400)


async def test_client_entry_points(print_server: PrintServer) -> None:
    client = print_server.client
    root = await client.service_root()
    assert (root.name, root.version) == ("seal-rest", "11.2.0")
    assert root["auth"]["url"] == f"{print_server.base_url}/realms/SEAL"
    assert (await client.version_info())["api"] == "v3"
    roles = await client.auth.user_roles()
    assert (roles.user, roles.roles) == ("seal-admin", ["admin"])
    assert client.http.base_url.host == "127.0.0.1"


async def test_from_env(print_server: PrintServer) -> None:
    async with PrintClient.from_env(print_server.sim.env("custom", "operator")) as client:
        assert (await client.auth.user_roles()).roles == ["custom"]


async def test_configs(print_server: PrintServer) -> None:
    configs = print_server.client.configs
    assert (await configs.get())["any"]["LOG_LEVEL"] == "info"
    stored = await configs.replace({"any": {"LOG_LEVEL": "debug"}, "seal-rest": {"PORT": "8443"}})
    assert isinstance(stored, Config) and stored["seal-rest"] == {"PORT": "8443"}
    assert (await configs.get())["any"] == {"LOG_LEVEL": "debug"}
    await configs.delete()
    assert (await configs.get()).to_dict() == {}


async def test_flows(print_server: PrintServer) -> None:
    flows = print_server.client.flows
    names = [flow.name for flow in await flows.list()]
    assert names[:5] == ["main", "preconvert", "format", "render", "postconvert"]
    created = await flows.create(Flow(name="after_render", source="def after_render(job) {}"))
    assert created is not None and (created.name, created.type_) == ("after_render", "custom")
    assert (await flows.get("after_render")).source == "def after_render(job) {}"
    await flows.delete("after_render")
    with pytest.raises(NotFound):
        await flows.get("after_render")


async def test_job_reads(print_server: PrintServer) -> None:
    jobs = print_server.client.jobs
    page = await jobs.list(
        filter=odata.field("current/userName") == "tol", orderby="current/checkinTime desc", top=5, count=True
    )
    assert len(page) == 5 and page.total is not None and page.total > 5
    times = [known(known(job.current).checkin_time) for job in page]
    assert times == sorted(times, reverse=True)
    job = await jobs.get(page[0].id)
    assert isinstance(job, Job) and job.current and job.lc_current
    assert job.current.user_name == "tol" and job.lc_current.user_name == "tol"
    assert job.stages and job.stages[0].created_by == "checkin"
    metadata = await jobs.metadata()
    assert "WaitProcessing" in metadata["statuses"]
    assert {field["name"] for field in metadata["fields"]} >= {"_id", "status", "current/printerName"}
    logs = await jobs.logs(job.id)
    assert known(logs[0].message).startswith("Job checked in") and logs[-1]["status"] == known(job.status).value
    pages = known((await jobs.pageinfo(job.id)).pages)
    assert len(pages) == job.current["pagesFromFileContent"]
    assert pages[0].page == 1 and known(pages[0].pagesize) in (
        "595 842",
        "842 595",
        "612 792",
        "792 612",
        "842 1191",
        "1191 842",
    )


async def test_job_files(print_server: PrintServer, tmp_path: Path) -> None:
    jobs = print_server.client.jobs
    job = await job_in(print_server.client, "Processed")
    text = await jobs.logfile(job.id)
    assert "Job status changed to Processing" in text
    written = await jobs.logfile(job.id, to=tmp_path / "job.log")
    assert (tmp_path / "job.log").read_text() == text and written == len(text.encode())
    sink = io.BytesIO()
    assert await jobs.logfile(job.id, to=sink) == written
    bundle = await jobs.collect(job.id)
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        names = archive.namelist()
        assert archive.read("job.log").decode() == text
    assert names[:2] == ["job.json", "job.log"] and any(name.startswith("files/") for name in names)
    assert await jobs.collect(job.id, to=tmp_path / "job.zip") == len(bundle)
    assert (await jobs.tempfiles(job.id)).status == "Processed"
    assert (await jobs.get(job.id))["keepTempFiles"] is True


async def test_job_actions(print_server: PrintServer) -> None:
    jobs = print_server.client.jobs
    job = await job_in(print_server.client, "WaitProcessing")
    assert job.current
    assert (await jobs.pause(job.id)).status == "Paused"
    assert (await jobs.resume(job.id)).status == "WaitProcessing"
    target = "printer1" if job.current.printer_name != "printer1" else "PRT-BER-01"
    assert (await jobs.move(job.id, printer=target)).status == "WaitProcessing"
    assert (await jobs.cancel(job.id)).status == "Canceled"
    assert (await jobs.repeat(job.id)).status == "WaitProcessing"
    assert (await jobs.delete(job.id)).message == f"Job {job.id} deleted."
    with pytest.raises(NotFound):
        await jobs.get(job.id)


async def test_job_iteration(print_server: PrintServer) -> None:
    ids = [job.id async for job in print_server.client.jobs.iterate(page_size=64)]
    assert len(ids) == len(set(ids)) == 400
    assert ids == sorted(ids)


async def test_printer_reads(print_server: PrintServer) -> None:
    printers = print_server.client.printers
    page = await printers.list(filter=odata.field("_id").startswith("PRT-BER"), orderby="_id desc", count=True)
    assert [p.id for p in page][:2] == ["PRT-BER-06", "PRT-BER-05"] and page.total == 6
    names = [printer.id async for printer in printers.iterate(page_size=10)]
    assert len(names) == 36 and "Lobby Color 1" in names
    printer = await printers.get("Lobby Color 1")
    assert isinstance(printer, Printer) and known(printer.config).printer == "Lobby Color 1"
    assert (await printers.metadata())["resource"] == "printers"
    assert (await printers.logs("printer1"))[0].message == "Printer imported by easyPRIMA"


async def test_printer_changes(print_server: PrintServer) -> None:
    printers = print_server.client.printers
    created = await printers.create({"_id": "PRT-NEW-01", "config": {"connection": "ipp://new:631/ipp/print"}})
    assert created is not None and created.config and created.runtime
    assert (created.config.printer, created.runtime.status, created.runtime.queued_jobs) == ("PRT-NEW-01", "idle", 0)
    updated = await printers.update("PRT-NEW-01", {"_id": "PRT-NEW-01", "config": {"connection": "socket://new:9100"}})
    assert updated is not None and known(updated.config).connection == "socket://new:9100"
    await printers.set_message("PRT-NEW-01", "Paper jam in tray 2")
    assert known((await printers.get("PRT-NEW-01")).runtime).message == "Paper jam in tray 2"
    await printers.clear_message("PRT-NEW-01")
    assert "message" not in known((await printers.get("PRT-NEW-01")).runtime).to_dict()
    await printers.update_runtime("PRT-NEW-01", PrinterRuntime(status="offline"))
    assert known((await printers.get("PRT-NEW-01")).runtime).status == "offline"
    await printers.pause("PRT-NEW-01")
    await printers.resume("PRT-NEW-01")
    await printers.redirect("PRT-NEW-01", to="printer1")
    checked = await printers.check_physical("PRT-NEW-01")
    assert checked.status == "idle"
    assert known((await printers.get("PRT-NEW-01")).physical)["printer-name"] == "PRT-NEW-01"
    test_job = await printers.create_test_job("PRT-NEW-01")
    assert known((await print_server.client.jobs.get(test_job["jobId"])).current).printer_name == "printer1"
    assert (await printers.logs("PRT-NEW-01"))[0].message == "Printer created by seal-admin"
    await printers.delete("PRT-NEW-01")
    with pytest.raises(NotFound):
        await printers.get("PRT-NEW-01")


async def test_statistics(print_server: PrintServer) -> None:
    statistics = print_server.client.statistics
    counts = await statistics.job_count()
    assert counts["total"] == 400 == sum(counts["byStatus"].values())
    errors = await statistics.job_count(status="Error", printerName="printer1")
    assert errors["total"] == errors["byStatus"]["Error"] < counts["byStatus"]["Error"]
    series = await statistics.job_series(interval="day", **{"from": 1_735_545_600_000})
    assert len(series["series"]) == 7 and sum(point["count"] for point in series["series"]) == 400
    printers = await statistics.printer_count()
    assert printers["total"] == 36 and printers["byStatus"]["paused"] == 2
    assert "job-series" in (await statistics.metadata())["statistics"]


async def test_a_time_from_a_job_finds_that_job(print_server: PrintServer) -> None:
    """A filter never changes the instant it is given: the job's own check-in time (epoch ms, with its
    milliseconds) read back as a datetime finds the job."""
    client = print_server.client
    job = (await client.jobs.list(top=1, skip=7)).items[0]
    assert job.current and job.current.checkin_time
    when = to_datetime(job.current.checkin_time)
    assert when is not None and when.microsecond  # the seeded times carry milliseconds
    page = await client.jobs.list(filter=odata.field("current/checkinTime") == when, top=50)
    assert job.id in {found.id for found in page.items}


async def test_text_functions_match_the_literal_text_on_a_regex_reading_server(print_server: PrintServer) -> None:
    """The simulator reads startswith/endswith/substringof as the real middleware does (a regular expression);
    the SDK escapes the text, so it matches itself only."""
    printers = print_server.client.printers
    names = [printer.id for printer in (await printers.list()).items]
    assert "PRT-MUC-06" in names
    # unescaped, "." is any character: the raw filter matches PRT-MUC-06 (the strict check refuses it, and
    # offers the escaped text)
    with pytest.raises(InvalidQuery, match="as a regular expression") as refused:
        await printers.list(filter="startswith(_id,'PRT-MUC.0') eq true")
    assert refused.value.rewrite == r"startswith(_id,'PRT-MUC\.0') eq true"
    raw = await printers.list(filter="startswith(_id,'PRT-MUC.0') eq true", check_query="syntax")
    assert "PRT-MUC-06" in {p.id for p in raw.items}
    # through the SDK the dot is a dot: nothing is called PRT-MUC.0…
    escaped = await printers.list(filter=odata.field("_id").startswith("PRT-MUC.0"))
    assert escaped.items == []
    # an unbalanced parenthesis is a 400 raw (refused before sending unless told), and a plain no-match
    # through the builder
    with pytest.raises(InvalidQuery, match="regular expression"):
        await printers.list(filter="startswith(_id,'PRT (') eq true")
    with pytest.raises(BadRequest):
        await printers.list(filter="startswith(_id,'PRT (') eq true", check_query="off")
    assert (await printers.list(filter=odata.field("_id").startswith("PRT ("))).items == []
    # and plain text still matches, case-insensitively
    found = await printers.list(filter=odata.field("_id").startswith("prt-muc-0"))
    assert "PRT-MUC-06" in {p.id for p in found.items}
