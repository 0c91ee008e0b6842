"""``client.auth``: the calling user."""

from __future__ import annotations

from printmgmt_api.models import UserRoles

from .._invoke import Operation, Timeout
from ._base import Resource

__all__ = ["AuthResource"]

_USER_ROLES = Operation("getUserRoles")


class AuthResource(Resource):
    """The caller's identity as the API sees it."""

    async def user_roles(self, *, timeout: Timeout = None) -> UserRoles:
        """Roles of the calling user."""
        return await self._invoker.call(_USER_ROLES, expect=UserRoles, timeout=timeout)
