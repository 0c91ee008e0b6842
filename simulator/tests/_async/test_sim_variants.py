"""Every operation against every plausible way a real server may answer (``printmgmt_sim.variants``), over real
HTTP: no ``InvalidResponse`` where the answer was plausible, and nothing the server sent is lost (every value of
the raw answer is in what the SDK returns)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from facade_table import FACADE, OTHER_PRINTER, PATH_VALUES, RESPONSES, facade_method
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


def _calls(keys: Keys) -> Iterator[tuple[str, str, tuple[Any, ...], dict[str, Any], str | None]]:
    """Every operation as the facade table calls it (``tests/facade_table.py``), its sample names made this
    simulator's: an existing job and second printer, a printer and a flow of its own to create, change and delete
    (deletes last). With it: the path a read answers on, for the raw comparison."""
    names = {
        PATH_VALUES["id"]: keys["job"],
        PATH_VALUES["printerName"]: "v-printer",
        PATH_VALUES["name"]: "v-flow",
        OTHER_PRINTER: keys["other"],
    }
    for op_id in sorted(FACADE, key=lambda op_id: OPERATIONS[op_id].name.endswith(".delete")):
        dotted, args, kwargs = FACADE[op_id]
        spec = OPERATIONS[op_id]
        path = spec.path.format(**{key: names[value] for key, value in PATH_VALUES.items()})
        yield op_id, dotted, _named(args, names), _named(kwargs, names), path if spec.method == "GET" else None


def _named(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {key: _named(item, names) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_named(item, names) for item in value)
    return value


def test_every_operation_is_called() -> None:
    assert {op_id for op_id, *_ in _calls({"job": "j", "other": "o"})} == set(OPERATIONS)


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
        for op_id, dotted, args, kwargs, path in _calls(keys):
            try:
                result = await facade_method(client, dotted)(*args, **kwargs)
            except PreconditionFailed:  # the job's or printer's state at that moment; a plausible answer
                assert "412" in RESPONSES[op_id], op_id
                results[op_id] = "412"
                continue
            results[op_id] = "ok"
            if path is not None and not isinstance(result, bytes | str):  # downloads are compared elsewhere
                answer = await raw.get(path.format(**keys))
                assert answer.is_success
                values, count = _raw(answer)
                missing = values - Counter(_leaves(_dict_form(result)))
                assert not missing, f"{op_id} under {variant or 'default'} lost {dict(missing)}"
                if count is not None and isinstance(result, Page):
                    assert result.total == count
    assert set(results) == set(OPERATIONS)
    assert results["getJob"] == results["createPrinter"] == results["updatePrinter"] == "ok"


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
