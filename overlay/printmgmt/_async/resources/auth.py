"""``client.auth``: the calling user."""

from __future__ import annotations

from typing import Unpack

from printmgmt_api.api.auth import get_user_roles
from printmgmt_api.models import UserRoles

from ..._call import CallOptions
from ._base import Resource

__all__ = ["AuthResource"]


class AuthResource(Resource):
    """The caller's identity as the API sees it."""

    async def user_roles(self, **options: Unpack[CallOptions]) -> UserRoles:
        """Roles of the calling user."""
        return await self._invoker.invoke(get_user_roles.request(), **options)
