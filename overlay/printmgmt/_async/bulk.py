"""Running one action over many keys with bounded concurrency; the outcomes both clients share: ``printmgmt.bulk``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .._concurrency import Take, async_run_workers
from .._validate import positive
from ..bulk import BulkResult, OnOutcome, Outcome, OutcomeStatus, refused_or_failed

if TYPE_CHECKING:
    from printmgmt_api.models import ActionResult

__all__ = ["AsyncAction", "run_bulk"]


class AsyncAction(Protocol):
    """The action of a bulk call, for one key."""

    async def __call__(self, key: str, /) -> ActionResult: ...


async def run_bulk(
    keys: Sequence[str], action: AsyncAction, *, concurrency: int, on_outcome: OnOutcome | None = None
) -> BulkResult:
    """Run ``action`` for every key with at most ``concurrency`` in flight; see :mod:`printmgmt.bulk`."""
    positive(concurrency, "concurrency")
    outcomes: list[Outcome | None] = [None] * len(keys)
    pending = Take(enumerate(keys))

    async def worker() -> None:
        # workers take from one iterator, so a batch of 100,000 keys holds `concurrency` workers, not 100,000
        try:
            for index, key in pending:
                try:
                    outcome = Outcome(key, OutcomeStatus.DONE, result=await action(key))
                except Exception as exc:  # PrintMgmtError, or anything unexpected: one item must not stop the batch
                    outcome = refused_or_failed(key, exc)
                outcomes[index] = outcome
                if on_outcome is not None:
                    on_outcome(outcome)
        except BaseException:
            pending.close()
            raise

    await async_run_workers(min(concurrency, len(keys)), worker)
    return BulkResult(outcome for outcome in outcomes if outcome is not None)
