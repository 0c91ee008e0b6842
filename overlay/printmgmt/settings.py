"""The settings a client is built from outside the code: the one reader of the ``PRINTMGMT_*`` environment
(``PrintClient.from_env`` and the command line), the identity provider's URLs and clients, what ``verify`` means.
Free of httpx at import: the command line reads its settings before it loads the rest of the SDK.
"""

from __future__ import annotations

import os
import re
import ssl
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeVar
from urllib.parse import quote

__all__ = [
    "CLIENT_IDS",
    "DEFAULTS",
    "ENV_PREFIX",
    "SECRETS",
    "SETTINGS",
    "ClientKind",
    "Verify",
    "check_url",
    "is_off",
    "options_from_env",
    "read_environment",
    "realm_url",
    "ssl_context",
    "token_url",
]

ClientKind = Literal["graphical", "operator", "cli"]

#: Default client ids (``<service>-<client_kind>``) of the three registered clients of a SEAL deployment.
CLIENT_IDS: Final[dict[str, str]] = {
    "graphical": "seal-plossysadmin",
    "operator": "seal-opcli",
    "cli": "seal-plossyscli",
}

#: Every variable is ``PRINTMGMT_<NAME>``, the setting's name in upper case.
ENV_PREFIX: Final = "PRINTMGMT_"
#: The settings that are not secret, by name.
SETTINGS: Final = (
    "base_url",
    "auth_url",
    "token_url",
    "realm",
    "client_kind",
    "client_id",
    "username",
    "ca_bundle",
    "verify",
    "timeout",
    "retries",
    "transport",
)
#: The secrets: never written to a file by printmgmt, never shown.
SECRETS: Final = ("password", "client_secret", "token")
#: What a setting is when nothing gives it.
DEFAULTS: Final[Mapping[str, str]] = {"realm": "SEAL", "client_kind": "cli"}

#: ``verify``: True (the system's or certifi's CAs), False (no check), a CA bundle's path, or a context.
Verify = bool | str | os.PathLike[str] | ssl.SSLContext


def read_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The :data:`SETTINGS` and :data:`SECRETS` that ``environ`` (default: ``os.environ``) sets, by name;
    a variable set to the empty string is not set."""
    env = os.environ if environ is None else environ
    found = ((name, env.get(ENV_PREFIX + name.upper())) for name in (*SETTINGS, *SECRETS))
    return {name: value for name, value in found if value}


def is_off(value: str | None) -> bool:
    """Whether a setting's text turns it off (``0``, ``false``, ``no``, ``off``; unset is not off)."""
    return (value or "").lower() in {"0", "false", "no", "off"}


def ssl_context(verify: Verify, trust_env: bool = True) -> bool | ssl.SSLContext:
    """One TLS context for whichever transport. ``verify=True`` follows httpx's rule (``SSL_CERT_FILE`` /
    ``SSL_CERT_DIR`` when set and ``trust_env``, else certifi's CA bundle)."""
    if verify is True:
        import httpx

        return httpx.create_ssl_context(trust_env=trust_env)
    if isinstance(verify, bool | ssl.SSLContext):
        return verify
    path = os.fspath(verify)
    if not os.path.exists(path):
        raise ValueError(f"CA bundle not found: {path}")
    if os.path.isdir(path):
        return ssl.create_default_context(capath=path)
    return ssl.create_default_context(cafile=path)


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


N = TypeVar("N", int, float)


def _number(kind: Callable[[str], N], name: str, text: str, expected: str) -> N:
    try:
        return kind(text)
    except ValueError:
        from .errors import ConfigurationError

        raise ConfigurationError(f"PRINTMGMT_{name} must be {expected}, not {text!r}") from None


def options_from_env(
    environ: Mapping[str, str] | None, overrides: dict[str, Any], auth_from: Callable[[Mapping[str, str]], object]
) -> tuple[str, dict[str, Any]]:
    """The base URL and constructor options ``PrintClient.from_env`` reads; ``overrides`` win, and ``auth_from``
    makes the sign-in of the settings (:func:`printmgmt.auth.auth_from_settings`)."""
    env = read_environment(environ)
    options = dict(overrides)
    base_url = options.pop("base_url", None) or env.get("base_url")
    if not base_url:
        from .errors import ConfigurationError

        raise ConfigurationError("PRINTMGMT_BASE_URL is not set")
    if "auth" not in options:
        options["auth"] = auth_from(env)
    if "timeout" not in options and (timeout := env.get("timeout")):
        options["timeout"] = _number(float, "TIMEOUT", timeout, "seconds, e.g. 30")
    if "retries" not in options and (retries := env.get("retries")):
        options["retries"] = _number(int, "RETRIES", retries, "a whole number, e.g. 2")
    if "transport" not in options and (transport := env.get("transport")):
        options["transport"] = transport
    if "verify" not in options:
        if ca_bundle := env.get("ca_bundle"):
            options["verify"] = ca_bundle
        elif is_off(env.get("verify")):
            options["verify"] = False
    return base_url, options
