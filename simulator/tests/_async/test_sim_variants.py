"""Every operation against every plausible way a real server may answer (``printmgmt_sim.variants``), over real
HTTP: no ``InvalidResponse`` where the answer was plausible, and nothing the server sent is lost (every value of
the raw answer is in what the SDK returns)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from printmgmt_sim import Simulator
from printmgmt_sim.variants import Variants, alternatives, parse_variant

from printmgmt import ApiError, BadRequest, Forbidden, NotFound, PreconditionFailed
from printmgmt.client import PrintClient
from printmgmt.errors import InvalidResponse, Unauthorized
from printmgmt.pagination import Page
from printmgmt_api.operations import OPERATIONS

VARIANTS = [pytest.param("", id="default")] + [
    pytest.param(f"{name}={value}", id=f"{name}={value}") for name, value in alternatives()
]


@pytest.fixture(scope="module")
def sim() -> Iterator[Simulator]:
    with Simulator(jobs=40, printers=4, speed=0, seed=5) as simulator:
        yield simulator


def _variants(text: str) -> Variants:
    return parse_variant(text) if text else Variants()


Keys = dict[str, str]
Call = Callable[[PrintClient, Keys], Awaitable[Any]]

#: operationId -> (the facade call, the path it reads for the raw comparison or None). Writes come first in the
#: order the state allows (create before update, deletes last).
CALLS: dict[str, tuple[Call, str | None]] = {
    "getServiceRoot": (lambda c, k: c.service_root(), "/"),
    "getVersionInfo": (lambda c, k: c.version_info(), "/v3/"),
    "getUserRoles": (lambda c, k: c.auth.user_roles(), "/v3/auth/userroles"),
    "getConfig": (lambda c, k: c.configs.get(), "/v3/configs/"),
    "replaceConfig": (lambda c, k: c.configs.replace({"any": {"LOG_LEVEL": "debug"}}), None),
    "listFlows": (lambda c, k: c.flows.list(), "/v3/flows/"),
    "createFlow": (lambda c, k: c.flows.create({"name": "v-flow", "source": "x"}), None),
    "getFlow": (lambda c, k: c.flows.get("v-flow"), "/v3/flows/v-flow"),
    "listJobs": (lambda c, k: c.jobs.list(), "/v3/jobs/"),
    "getJobsMetadata": (lambda c, k: c.jobs.metadata(), "/v3/jobs/metadata"),
    "getJob": (lambda c, k: c.jobs.get(k["job"]), "/v3/jobs/{job}"),
    "collectJob": (lambda c, k: c.jobs.collect(k["job"]), None),
    "getJobLogfile": (lambda c, k: c.jobs.logfile(k["job"]), None),
    "getJobLogs": (lambda c, k: c.jobs.logs(k["job"]), "/v3/jobs/{job}/logs"),
    "getJobPageinfo": (lambda c, k: c.jobs.pageinfo(k["job"]), "/v3/jobs/{job}/pageinfo"),
    "pauseJob": (lambda c, k: c.jobs.pause(k["job"]), None),
    "resumeJob": (lambda c, k: c.jobs.resume(k["job"]), None),
    "moveJob": (lambda c, k: c.jobs.move(k["job"], printer=k["other"]), None),
    "cancelJob": (lambda c, k: c.jobs.cancel(k["job"]), None),
    "repeatJob": (lambda c, k: c.jobs.repeat(k["job"]), None),
    "saveJobTempfiles": (lambda c, k: c.jobs.tempfiles(k["job"]), None),
    "listPrinters": (lambda c, k: c.printers.list(), "/v3/printers/"),
    "createPrinter": (lambda c, k: c.printers.create({"_id": "v-printer", "config": {"printer": "v"}}), None),
    "getPrintersMetadata": (lambda c, k: c.printers.metadata(), "/v3/printers/metadata"),
    "getPrinter": (lambda c, k: c.printers.get(k["printer"]), "/v3/printers/{printer}"),
    "updatePrinter": (lambda c, k: c.printers.update("v-printer", {"_id": "v-printer"}), None),
    "checkPrinterPhysical": (lambda c, k: c.printers.check_physical(k["printer"]), None),
    "createPrinterTestJob": (lambda c, k: c.printers.create_test_job(k["printer"]), None),
    "getPrinterLogs": (lambda c, k: c.printers.logs(k["printer"]), "/v3/printers/{printer}/logs"),
    "setPrinterMessage": (lambda c, k: c.printers.set_message(k["printer"], "toner low"), None),
    "clearPrinterMessage": (lambda c, k: c.printers.clear_message(k["printer"]), None),
    "pausePrinter": (lambda c, k: c.printers.pause(k["printer"]), None),
    "resumePrinter": (lambda c, k: c.printers.resume(k["printer"]), None),
    "redirectPrinter": (lambda c, k: c.printers.redirect(k["printer"], to=k["other"]), None),
    "updatePrinterRuntime": (lambda c, k: c.printers.update_runtime(k["printer"], {"queuedJobs": 0}), None),
    "getJobCount": (lambda c, k: c.statistics.job_count(), "/v3/statistics/job-count"),
    "getJobSeries": (lambda c, k: c.statistics.job_series(), "/v3/statistics/job-series"),
    "getStatisticsMetadata": (lambda c, k: c.statistics.metadata(), "/v3/statistics/metadata"),
    "getPrinterCount": (lambda c, k: c.statistics.printer_count(), "/v3/statistics/printer-count"),
    "deleteJob": (lambda c, k: c.jobs.delete(k["job"]), None),
    "deletePrinter": (lambda c, k: c.printers.delete("v-printer"), None),
    "deleteFlow": (lambda c, k: c.flows.delete("v-flow"), None),
    "deleteConfig": (lambda c, k: c.configs.delete(), None),
}


def test_every_operation_is_called() -> None:
    assert set(CALLS) == set(OPERATIONS)


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    elif value is not None:
        yield value


_COUNT_KEYS = ("totalCount", "odata.count", "@odata.count", "__count")


def _raw(response: httpx.Response) -> tuple[Counter[Any], int | None]:
    """The values of a raw answer, and the count a list page carried (not data: the page reports it as total)."""
    try:
        data = json.loads(response.content)
    except ValueError:
        return Counter(line.strip() for line in response.text.splitlines() if line.strip()), None
    count = None
    wrapper = data.get("d", data) if isinstance(data, dict) else None
    if isinstance(wrapper, dict) and any(isinstance(wrapper.get(key), list) for key in ("results", "value")):
        counts = [wrapper.pop(key) for key in _COUNT_KEYS if key in wrapper]
        count = int(counts[0]) if counts else None
    return Counter(_leaves(data)), count


def _dict_form(result: Any) -> Any:
    if isinstance(result, Page):
        return [item.to_dict() for item in result.items]
    if isinstance(result, list):
        return [item.to_dict() for item in result]
    return result.to_dict()


async def _keys(client: PrintClient) -> Keys:
    jobs = await client.jobs.list(top=1, orderby="_id")
    printers = await client.printers.list(top=2, orderby="_id")
    return {"job": jobs.items[0].id, "printer": printers.items[0].id, "other": printers.items[1].id}


@pytest.mark.parametrize("variant", VARIANTS)
async def test_every_operation_reads_the_variant(sim: Simulator, variant: str) -> None:
    sim.settings.variants = _variants(variant)
    sim.backend.reset()
    token = sim.token("admin", "graphical")
    results: dict[str, str] = {}
    async with (
        sim.client("admin", "graphical") as client,
        httpx.AsyncClient(base_url=sim.base_url, headers={"Authorization": f"Bearer {token}"}) as raw,
    ):
        keys = await _keys(client)
        for op_id, (call, path) in CALLS.items():
            try:
                result = await call(client, keys)
            except PreconditionFailed:  # the job's or printer's state at that moment; a plausible answer
                results[op_id] = "412"
                continue
            results[op_id] = "ok"
            if path is not None:
                answer = await raw.get(path.format(**keys))
                assert answer.is_success
                values, count = _raw(answer)
                missing = values - Counter(_leaves(_dict_form(result)))
                assert not missing, f"{op_id} under {variant or 'default'} lost {dict(missing)}"
                if count is not None and isinstance(result, Page):
                    assert result.total == count
    assert results["getJob"] == results["createPrinter"] == results["updatePrinter"] == "ok"
    assert sum(outcome == "ok" for outcome in results.values()) >= 38, results


@pytest.mark.parametrize("variant", VARIANTS)
async def test_errors_are_typed_under_the_variant(sim: Simulator, variant: str) -> None:
    sim.settings.variants = _variants(variant)
    sim.backend.reset()
    async with sim.client("readonly", "graphical") as readonly:
        printer = (await readonly.printers.list(top=1)).items[0].id
        with pytest.raises(Forbidden):
            await readonly.printers.pause(printer)
    async with PrintClient(sim.base_url, auth="not-a-token") as stranger:
        with pytest.raises(Unauthorized):
            await stranger.jobs.list(top=1)
    async with PrintClient(f"{sim.base_url}/v3", auth=sim.password_auth("admin", "graphical")) as misconfigured:
        with pytest.raises(NotFound) as caught:
            await misconfigured.jobs.list(top=1)
        if sim.settings.variants.unknown_routes == "express":
            assert str(caught.value.message) == "Cannot GET /v3/v3/jobs/"
    async with sim.client("admin", "graphical") as client:
        job = (await client.jobs.list(top=1)).items[0].id
        with pytest.raises(ApiError) as failed:
            await client.jobs.move(job, printer="x", replace_body={"printerName": 5})
        assert not isinstance(failed.value, InvalidResponse)
        if sim.settings.variants.bad_bodies == "400":
            assert isinstance(failed.value, BadRequest)
