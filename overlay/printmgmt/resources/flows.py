"""``client.flows``: named processing flows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printmgmt_api.models import ActionResult, Flow

from .._invoke import Operation, Timeout
from .._validate import body
from ._base import Resource

__all__ = ["FlowsResource"]

_LIST = Operation("listFlows")
_CREATE = Operation("createFlow")
_GET = Operation("getFlow")
_DELETE = Operation("deleteFlow")


class FlowsResource(Resource):
    """Flows: list, create (import), read and delete."""

    _noun, _key_name = "flow", "name"

    async def list(self, *, timeout: Timeout = None) -> list[Flow]:
        """All flows."""
        return await self._invoker.call(_LIST, expect=list, timeout=timeout)

    async def create(self, flow: Flow | Mapping[str, Any], *, timeout: Timeout = None) -> Flow:
        """Create a flow from a :class:`Flow` or a mapping with at least ``name``."""
        document = body(flow, Flow, "flow")
        return await self._invoker.call(
            _CREATE, expect=Flow, target=f"flow {document.name!r}", body=document, timeout=timeout
        )

    async def get(self, name: str, *, timeout: Timeout = None) -> Flow:
        """The flow called ``name``."""
        return await self._read(_GET, name, Flow, timeout=timeout)

    async def delete(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Delete the flow called ``name``."""
        return await self._act_on(_DELETE, name, timeout=timeout)
