"""``client.flows``: named processing flows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from printmgmt_api.api.flows import create_flow, delete_flow, get_flow, list_flows
from printmgmt_api.models import ActionResult, Flow

from ..._call import CallOptions
from ..._validate import body
from ...errors import Target
from ._base import Resource

__all__ = ["FlowsResource"]


class FlowsResource(Resource):
    """Flows: list, create (import), read and delete."""

    async def list(self, **options: Unpack[CallOptions]) -> list[Flow]:
        """All flows."""
        return await self._invoker.invoke(list_flows.request(), **options)

    async def create(self, flow: Flow | Mapping[str, Any], **options: Unpack[CallOptions]) -> Flow | None:
        """Create a flow from a :class:`Flow` or a mapping with at least ``name``; returns the created flow when
        the server's answer holds it, else None (an acknowledgement or no body)."""
        document = body(flow, Flow, "flow")
        return await self._invoker.invoke_written(
            create_flow.request(body=document), target=Target("flow", document.name), **options
        )

    async def get(self, name: str, **options: Unpack[CallOptions]) -> Flow:
        """The flow called ``name``."""
        return await self._read(get_flow.request, name, options)

    async def delete(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Delete the flow called ``name``."""
        return await self._read(delete_flow.request, name, options)
