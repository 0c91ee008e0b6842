"""``client.configs``: the single service configuration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from printmgmt_api.api.configs import delete_config, get_config, replace_config
from printmgmt_api.models import ActionResult, Config

from ..._call import CallOptions
from ..._validate import body
from ._base import Resource

__all__ = ["ConfigsResource"]


class ConfigsResource(Resource):
    """The configuration at ``/v3/configs/``: read, replace, delete."""

    async def get(self, **options: Unpack[CallOptions]) -> Config:
        """The configuration (``config["any"]`` etc.; unknown keys are kept)."""
        return await self._invoker.invoke(get_config.request(), **options)

    async def replace(self, config: Config | Mapping[str, Any], **options: Unpack[CallOptions]) -> Config | None:
        """Replace the whole configuration; returns it when the answer holds an object, else None."""
        return await self._invoker.invoke_written(
            replace_config.request(body=body(config, Config, "config")), **options
        )

    async def delete(self, **options: Unpack[CallOptions]) -> ActionResult:
        """Delete the configuration."""
        return await self._invoker.invoke(delete_config.request(), **options)
