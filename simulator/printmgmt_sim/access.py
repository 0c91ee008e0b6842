"""Who may call what: bearer-token authentication (401) and role permissions (403).

Every API operation needs ``Authorization: Bearer <access token of this realm>``; a missing, malformed,
expired or foreign token answers 401. Then the caller's realm roles must grant the operation's
permission, else 403:

=========================  =====  ======  ========  ==============================================
permission                 admin  custom  readonly  operations
=========================  =====  ======  ========  ==============================================
``SIGNED_IN``              yes    yes     yes       ``GET /``, ``GET /v3/``, ``GET /v3/auth/userroles``
``READ``                   yes    yes     yes       every other ``GET``
``JOBS``                   yes    yes     no        job actions and ``DELETE /v3/jobs/{id}``
``PRINTERS``               yes    no      no        every printer change and action
``FLOWS``                  yes    no      no        ``POST``/``DELETE`` flows
``CONFIGS``                yes    no      no        ``PUT``/``DELETE`` the configuration
=========================  =====  ======  ========  ==============================================

A user without any of the three roles is signed in but may read nothing.

Then, as ``seal-rest`` resolves it, the client the token was issued to must grant one of the caller's roles
the operation's **area** (``jobs``, ``printers``, ``dashboard``; ``x-printmgmt-area`` in the spec): the
``ALLOWED_OIDC_CLIENTS`` key maps client -> ``roles`` -> role -> area -> ``set-<name>`` -> ``{views,
permissions}``. A read needs a view of the area, a change a permission.
:data:`~printmgmt_sim.settings.DEFAULT_ALLOWED_CLIENTS` is the simulator's deployment: every client grants
its roles ``jobs`` and ``printers``; only the Administrator's client (``seal-plossysadmin``, client kind
``graphical``) grants the ``dashboard`` (statistics).
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from .errors import Problem
from .idp import IdentityProvider, InvalidToken, Principal
from .settings import DEFAULT_ALLOWED_CLIENTS, AllowedClients

__all__ = ["GRANTS", "Permission", "authenticate", "authorize"]


class Permission(Enum):
    SIGNED_IN = "signed in"
    READ = "read"
    JOBS = "change jobs"
    PRINTERS = "change printers"
    FLOWS = "change flows"
    CONFIGS = "change the configuration"


GRANTS: Final[dict[str, frozenset[Permission]]] = {
    "admin": frozenset(Permission),
    "custom": frozenset({Permission.SIGNED_IN, Permission.READ, Permission.JOBS}),
    "readonly": frozenset({Permission.SIGNED_IN, Permission.READ}),
}

_CHALLENGE: Final = {"WWW-Authenticate": 'Bearer realm="seal-rest"'}


def authenticate(authorization: str | None, idp: IdentityProvider) -> Principal:
    """The caller of a request with this ``Authorization`` header, or a 401 :class:`Problem`."""
    if not authorization:
        raise Problem(401, "Unauthorized: no bearer token", headers=_CHALLENGE)
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "Unauthorized: the Authorization header is not 'Bearer <token>'", headers=_CHALLENGE)
    try:
        return idp.verify(token.strip())
    except InvalidToken as exc:
        raise Problem(401, f"Unauthorized: {exc}", headers=_CHALLENGE) from exc


def authorize(
    principal: Principal, permission: Permission, area: str | None = None, allowed: AllowedClients | None = None
) -> None:
    """Raise a 403 :class:`Problem` unless one of the caller's roles grants ``permission`` and, for an operation
    of an ``area``, the caller's client grants that area to one of those roles (``allowed``, see the module)."""
    if permission is Permission.SIGNED_IN:
        return
    if not any(permission in GRANTS.get(role, frozenset()) for role in principal.roles):
        raise Problem(
            403,
            f"Forbidden: {principal.username} may not {permission.value}",
            metadata={"roles": list(principal.roles)},
        )
    if area is not None:
        _authorize_area(principal, area, "views" if permission is Permission.READ else "permissions", allowed)


def _authorize_area(principal: Principal, area: str, need: str, allowed: AllowedClients | None) -> None:
    roles = (allowed if allowed is not None else DEFAULT_ALLOWED_CLIENTS).get(principal.client_id, {}).get("roles", {})
    for role in principal.roles:
        sets = roles.get(role, {}).get(area, {})
        if any(grant.get(need) for grant in sets.values()):
            return
    raise Problem(
        403,
        f"Forbidden: client {principal.client_id} does not grant the {area} area ({need}) to "
        f"{principal.username}'s roles",
        metadata={"area": area, "client": principal.client_id, "roles": list(principal.roles)},
    )
