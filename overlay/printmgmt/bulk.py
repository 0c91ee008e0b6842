"""One action over many jobs or printers: bounded concurrency, one outcome per item, input order kept; only
cancelling the batch (or an exception raised by ``on_outcome``) ends it early. The outcomes live here, shared by
both clients; the runner, which has a generated sync twin, is ``_async.bulk``."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from ._model_runtime import html_table
from .errors import PreconditionFailed

if TYPE_CHECKING:
    import pandas as pd

    from printmgmt_api.models import ActionResult

__all__ = ["BulkResult", "OnOutcome", "Outcome", "OutcomeStatus", "refused_or_failed"]


class OutcomeStatus(enum.StrEnum):
    """What happened to one item of a bulk action."""

    #: the server carried out the action
    DONE = "done"
    #: the server refused it (412): the item's state does not allow it
    REFUSED = "refused"
    #: any other error (not found, permission, transport...)
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The outcome for one key (job id or printer name) of a bulk action."""

    key: str
    status: OutcomeStatus
    result: ActionResult | None = None
    error: Exception | None = None

    @property
    def ok(self) -> bool:
        return self.status is OutcomeStatus.DONE

    @property
    def reason(self) -> str | None:
        """The server's reason for a refusal, the error message for a failure, else ``None``."""
        if isinstance(self.error, PreconditionFailed):
            return self.error.message or str(self.error)
        return None if self.error is None else str(self.error)

    def __repr__(self) -> str:
        reason = self.reason
        return f"Outcome({self.key!r}, {self.status.value}" + (f": {reason!r})" if reason else ")")


class BulkResult(tuple[Outcome, ...]):
    """The outcomes of a bulk action, in the order the keys were given."""

    __slots__ = ()

    def _with(self, status: OutcomeStatus) -> list[Outcome]:
        return [outcome for outcome in self if outcome.status is status]

    @property
    def done(self) -> list[Outcome]:
        return self._with(OutcomeStatus.DONE)

    @property
    def refused(self) -> list[Outcome]:
        return self._with(OutcomeStatus.REFUSED)

    @property
    def failed(self) -> list[Outcome]:
        return self._with(OutcomeStatus.FAILED)

    @property
    def ok(self) -> bool:
        """Whether every item was done."""
        return all(outcome.ok for outcome in self)

    def _counts(self) -> str:
        return ", ".join(f"{len(self._with(status))} {status.value}" for status in OutcomeStatus)

    def __repr__(self) -> str:
        return f"BulkResult({self._counts()})"

    def _repr_html_(self) -> str:
        """Jupyter: the counts and one row per key with its outcome and the server's reason."""
        rows = [(escape(item.key), escape(item.status.value), escape(item.reason or "")) for item in self]
        return f"<div>BulkResult: {escape(self._counts())}{html_table(('key', 'status', 'reason'), rows)}</div>"

    def to_pandas(self) -> pd.DataFrame:
        """One row per key, in the order given: ``key``, ``status`` (done, refused, failed), ``reason`` (the
        server's reason for a refusal, the error's message for a failure) and ``error`` (the exception's type).
        Needs the extra ``printmgmt[pandas]``."""
        from .tables import to_pandas

        return to_pandas(
            {
                "key": outcome.key,
                "status": outcome.status.value,
                "reason": outcome.reason,
                "error": type(outcome.error).__name__ if outcome.error is not None else None,
            }
            for outcome in self
        )


#: Called with each item's outcome as soon as it is known (progress bars, logs).
OnOutcome = Callable[[Outcome], object]


def refused_or_failed(key: str, exc: Exception) -> Outcome:
    status = OutcomeStatus.REFUSED if isinstance(exc, PreconditionFailed) else OutcomeStatus.FAILED
    return Outcome(key, status, error=exc)
