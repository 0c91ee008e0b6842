"""``client.statistics``: dashboard statistics."""

from __future__ import annotations

from printmgmt_api.models import Metadata, Statistics

from .._invoke import Operation, Timeout
from ._base import Resource, query_params

__all__ = ["StatisticsResource"]

_JOB_COUNT = Operation("getJobCount")
_JOB_SERIES = Operation("getJobSeries")
_PRINTER_COUNT = Operation("getPrinterCount")
_METADATA = Operation("getStatisticsMetadata")


class StatisticsResource(Resource):
    """Job and printer statistics. The interface does not show their parameters: keyword arguments are
    passed through as query parameters (``job_count(status="Error")``)."""

    async def job_count(self, *, timeout: Timeout = None, **query: str | int | float | bool) -> Statistics:
        """Job counts."""
        return await self._invoker.call(
            _JOB_COUNT, expect=Statistics, extra_params=query_params(query), timeout=timeout
        )

    async def job_series(self, *, timeout: Timeout = None, **query: str | int | float | bool) -> Statistics:
        """Job series over time."""
        return await self._invoker.call(
            _JOB_SERIES, expect=Statistics, extra_params=query_params(query), timeout=timeout
        )

    async def printer_count(self, *, timeout: Timeout = None, **query: str | int | float | bool) -> Statistics:
        """Printer counts."""
        return await self._invoker.call(
            _PRINTER_COUNT, expect=Statistics, extra_params=query_params(query), timeout=timeout
        )

    async def metadata(self, *, timeout: Timeout = None) -> Metadata:
        """Description of the statistics."""
        return await self._invoker.call(_METADATA, expect=Metadata, timeout=timeout)
