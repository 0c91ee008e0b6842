"""Bulk actions: input order, bounded concurrency, refusals and failures recorded, nothing stops the batch."""

from __future__ import annotations

import re

import httpx
import pytest
import respx
from in_flight import InFlight

from printmgmt import BulkResult, NotFound, Outcome, OutcomeStatus, PrintClient, TransportError
from printmgmt.errors import PreconditionFailed

ACTION_URL = re.compile(r".*/v3/jobs/(?P<id>[^/]+)/(?P<action>cancel|pause|resume)$")


def _answer(request: httpx.Request, id: str, action: str) -> httpx.Response:
    if id.startswith("done"):
        return httpx.Response(412, json={"message": f"job {id} is finished", "code": "ERR_STATE"})
    if id.startswith("gone"):
        return httpx.Response(404, text="no such job")
    if id.startswith("drop"):
        raise httpx.ConnectError("connection refused", request=request)
    return httpx.Response(200, json={"message": f"{action} {id}"})


async def test_each_key_gets_its_outcome_in_input_order(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.put(ACTION_URL).mock(side_effect=_answer)
    ids = ["a1", "done1", "a2", "gone1", "drop1", "a3"]
    seen: list[Outcome] = []
    result = await client.jobs.cancel_many(ids, concurrency=3, on_outcome=seen.append)
    assert isinstance(result, BulkResult)
    assert [o.key for o in result] == ids
    assert [o.status for o in result] == [
        OutcomeStatus.DONE,
        OutcomeStatus.REFUSED,
        OutcomeStatus.DONE,
        OutcomeStatus.FAILED,
        OutcomeStatus.FAILED,
        OutcomeStatus.DONE,
    ]
    assert result[0].result is not None and result[0].result.message == "cancel a1"
    assert result[1].reason == "job done1 is finished"
    assert isinstance(result[1].error, PreconditionFailed)
    assert isinstance(result[3].error, NotFound)
    assert isinstance(result[4].error, TransportError)
    assert result[4].error.attempts == 3  # the item was retried like a single call
    assert [o.key for o in result.done] == ["a1", "a2", "a3"]
    assert [o.key for o in result.refused] == ["done1"]
    assert [o.key for o in result.failed] == ["gone1", "drop1"]
    assert not result.ok
    assert sorted(o.key for o in seen) == sorted(ids)  # on_outcome once per key
    assert repr(result) == "BulkResult(3 done, 1 refused, 2 failed)"
    assert repr(result[1]) == "Outcome('done1', refused: 'job done1 is finished')"


async def test_concurrency_is_bounded(mock: respx.MockRouter, client: PrintClient) -> None:
    slow = InFlight(lambda request: httpx.Response(200, json={}))
    route = mock.put(url__regex=r".*/v3/printers/.+/pause$").mock(side_effect=slow)
    result = await client.printers.pause_many([f"p{i}" for i in range(40)], concurrency=5)
    assert result.ok and len(result) == 40
    assert route.call_count == 40
    assert slow.peak == 5


@pytest.mark.parametrize("method", ["cancel_many", "pause_many", "resume_many", "delete_many"])
async def test_every_job_bulk_action_calls_its_own_operation(
    mock: respx.MockRouter, client: PrintClient, method: str
) -> None:
    action = method.removesuffix("_many")
    route = mock.delete("/v3/jobs/j1") if action == "delete" else mock.put(f"/v3/jobs/j1/{action}")
    route.respond(200, json={})
    result = await getattr(client.jobs, method)(["j1"])
    assert result.ok and route.call_count == 1


@pytest.mark.parametrize(
    ("keys", "error", "message"),
    [
        ("j1", TypeError, "not one str"),
        (["j1", ""], ValueError, "job id"),
        (["j1", 7], TypeError, "job id"),
    ],
)
async def test_bad_keys_fail_before_any_request(
    mock: respx.MockRouter, client: PrintClient, keys: object, error: type[Exception], message: str
) -> None:
    route = mock.put(ACTION_URL).respond(200)
    with pytest.raises(error, match=message):
        await client.jobs.cancel_many(keys)  # type: ignore[arg-type]
    assert route.call_count == 0


@pytest.mark.parametrize("concurrency", [0, -1, 1.5, True])
async def test_concurrency_must_be_a_positive_int(client: PrintClient, concurrency: object) -> None:
    with pytest.raises((TypeError, ValueError), match="concurrency"):
        await client.jobs.pause_many(["j1"], concurrency=concurrency)  # type: ignore[arg-type]


async def test_an_empty_batch_sends_nothing(client: PrintClient) -> None:
    result = await client.jobs.cancel_many([])
    assert len(result) == 0 and result.ok


async def test_a_callback_error_ends_the_batch(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.put(ACTION_URL).respond(200, json={})

    def explode(outcome: Outcome) -> None:
        raise RuntimeError("progress bar broke")

    with pytest.raises(RuntimeError, match="progress bar broke"):
        await client.jobs.cancel_many(["a", "b"], on_outcome=explode)
