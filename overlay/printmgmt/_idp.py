"""Where a sign-in happens: the identity provider's URLs and the clients registered there.

Free of httpx, so the command line can name a sign-in (keyring entries, stored sessions) without loading it.
"""

from __future__ import annotations

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


def check_url(name: str, value: object) -> None:
    """:class:`ValueError` unless ``value`` is an http(s) URL (else it would fail at the first request, as a
    transport error)."""
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise ValueError(f"{name} must be an http:// or https:// URL, not {value!r}")
