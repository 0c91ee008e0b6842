"""Where a sign-in happens: the identity provider's URLs and the clients registered there.

Free of httpx, so the command line can name a sign-in (keyring entries, stored sessions) without loading it.
"""

from __future__ import annotations

import re
from typing import Final, Literal
from urllib.parse import quote

__all__ = ["CLIENT_IDS", "ClientKind", "check_url", "realm_url", "token_url"]

ClientKind = Literal["graphical", "operator", "cli"]

#: Default client ids (``<service>-<client_kind>``) of the three registered clients of a SEAL deployment.
CLIENT_IDS: Final[dict[str, str]] = {
    "graphical": "seal-plossysadmin",
    "operator": "seal-opcli",
    "cli": "seal-plossyscli",
}


def realm_url(auth_url: str, realm: str) -> str:
    """``{auth_url}/realms/{realm}``: any path on ``auth_url`` (such as a legacy ``/auth`` prefix) is kept, and the
    realm is quoted as one path segment."""
    return f"{auth_url.rstrip('/')}/realms/{quote(realm, safe='')}"


def token_url(auth_url: str, realm: str) -> str:
    """The realm's OpenID Connect token endpoint."""
    return f"{realm_url(auth_url, realm)}/protocol/openid-connect/token"


#: The user information of a URL (``user:password@``), with or without a scheme before it.
_USERINFO = re.compile(r"^((?:[A-Za-z][A-Za-z0-9+.-]*:)?//)?[^/?#]*@")


def check_url(name: str, value: object) -> None:
    """:class:`~printmgmt.errors.ConfigurationError` (a ``ValueError``) unless ``value`` is an http(s) URL without
    credentials in it (else it would fail at the first request, as a transport error, or show the password
    wherever the URL is printed: reprs, exceptions, httpx's log lines)."""
    from .errors import ConfigurationError  # loaded only to complain: the command line names sign-ins without httpx

    if not isinstance(value, str):
        raise ConfigurationError(f"{name} must be an http:// or https:// URL, not {type(value).__name__}")
    shown = _USERINFO.sub(r"\1***@", value)
    if shown != value:
        raise ConfigurationError(
            f"{name} must not hold credentials ({shown}): give the user and password to PasswordAuth(username=..., "
            "password=...) or PRINTMGMT_USERNAME and PRINTMGMT_PASSWORD, and a token as auth=... or PRINTMGMT_TOKEN"
        )
    if not value.startswith(("http://", "https://")):
        hint = f": add the scheme, https://{value} (or http:// for a server without TLS)" if "://" not in value else ""
        raise ConfigurationError(f"{name} must be an http:// or https:// URL, not {value!r}{hint}")
