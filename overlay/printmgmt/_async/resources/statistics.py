"""``client.statistics``: dashboard statistics."""

from __future__ import annotations

from typing import Unpack

from printmgmt_api.api.statistics import get_job_count, get_job_series, get_printer_count, get_statistics_metadata
from printmgmt_api.models import Metadata, Statistics

from ..._call import NOT_GIVEN, CallOptions, NotGiven, Timeout
from ._base import Resource, query_params

__all__ = ["StatisticsResource"]


class StatisticsResource(Resource):
    """Job and printer statistics. The interface does not show their parameters: keyword arguments are
    passed through as query parameters (``job_count(status="Error")``); ``timeout`` and ``deadline`` are
    the call's own (see :class:`~printmgmt.CallOptions`)."""

    async def job_count(
        self,
        *,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        deadline: float | NotGiven | None = NOT_GIVEN,
        **query: str | int | float | bool,
    ) -> Statistics:
        """Job counts."""
        return await self._invoker.invoke(
            get_job_count.request(), extra_query=query_params(query), timeout=timeout, deadline=deadline
        )

    async def job_series(
        self,
        *,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        deadline: float | NotGiven | None = NOT_GIVEN,
        **query: str | int | float | bool,
    ) -> Statistics:
        """Job series over time."""
        return await self._invoker.invoke(
            get_job_series.request(), extra_query=query_params(query), timeout=timeout, deadline=deadline
        )

    async def printer_count(
        self,
        *,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        deadline: float | NotGiven | None = NOT_GIVEN,
        **query: str | int | float | bool,
    ) -> Statistics:
        """Printer counts."""
        return await self._invoker.invoke(
            get_printer_count.request(), extra_query=query_params(query), timeout=timeout, deadline=deadline
        )

    async def metadata(self, **options: Unpack[CallOptions]) -> Metadata:
        """Description of the statistics."""
        return await self._invoker.invoke(get_statistics_metadata.request(), **options)
