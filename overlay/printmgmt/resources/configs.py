"""``client.configs``: the single service configuration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printmgmt_api.models import ActionResult, Config

from .._invoke import Operation, Timeout
from .._validate import body
from ._base import Resource

__all__ = ["ConfigsResource"]

_GET = Operation("getConfig")
_REPLACE = Operation("replaceConfig")
_DELETE = Operation("deleteConfig")


class ConfigsResource(Resource):
    """The configuration at ``/v3/configs/``: read, replace, delete."""

    async def get(self, *, timeout: Timeout = None) -> Config:
        """The configuration (``config["any"]`` etc.; unknown keys are kept)."""
        return await self._invoker.call(_GET, expect=Config, timeout=timeout)

    async def replace(self, config: Config | Mapping[str, Any], *, timeout: Timeout = None) -> Config:
        """Replace the whole configuration."""
        return await self._invoker.call(_REPLACE, expect=Config, body=body(config, Config, "config"), timeout=timeout)

    async def delete(self, *, timeout: Timeout = None) -> ActionResult:
        """Delete the configuration."""
        return await self._act(_DELETE, timeout=timeout)
