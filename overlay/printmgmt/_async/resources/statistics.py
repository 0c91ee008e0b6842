"""``client.statistics``: dashboard statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from ..._call import CallOptions, Timeout
from ._base import Resource, query_params

if TYPE_CHECKING:
    from printmgmt_api.models import Metadata, Statistics

__all__ = ["StatisticsResource"]


class StatisticsResource(Resource):
    """Job and printer statistics. The interface does not show their parameters: keyword arguments are
    passed through as query parameters (``job_count(status="Error")``)."""

    async def job_count(self, *, timeout: Timeout = None, **query: str | int | float | bool) -> Statistics:
        """Job counts."""
        from printmgmt_api.api.statistics import get_job_count

        return await self._invoker.invoke(get_job_count.request(), extra_query=query_params(query), timeout=timeout)

    async def job_series(self, *, timeout: Timeout = None, **query: str | int | float | bool) -> Statistics:
        """Job series over time."""
        from printmgmt_api.api.statistics import get_job_series

        return await self._invoker.invoke(get_job_series.request(), extra_query=query_params(query), timeout=timeout)

    async def printer_count(self, *, timeout: Timeout = None, **query: str | int | float | bool) -> Statistics:
        """Printer counts."""
        from printmgmt_api.api.statistics import get_printer_count

        return await self._invoker.invoke(get_printer_count.request(), extra_query=query_params(query), timeout=timeout)

    async def metadata(self, **options: Unpack[CallOptions]) -> Metadata:
        """Description of the statistics."""
        from printmgmt_api.api.statistics import get_statistics_metadata

        return await self._invoker.invoke(get_statistics_metadata.request(), **options)
