"""What the async and the sync client share: defaults, TLS, named transports, cookies, settings from the environment."""

from __future__ import annotations

import http.cookiejar
import logging
import os
import ssl
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, get_args

import httpx

from .auth import CLIENT_IDS, BearerToken, ClientKind, PasswordAuth
from .errors import ConfigurationError

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_TRANSPORT",
    "CookieTypes",
    "LeanCookies",
    "TransportName",
    "Verify",
    "async_named_transport",
    "client_of",
    "is_off",
    "options_from_env",
    "ssl_context",
    "sync_named_transport",
    "warn_unverified",
]

logger = logging.getLogger("printmgmt")

#: Used unless the caller says otherwise: the generated client alone would wait forever.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)


Verify = bool | str | os.PathLike[str] | ssl.SSLContext

#: What ``httpx.Cookies`` is made from (httpx's own alias is in a private module).
CookieTypes = httpx.Cookies | http.cookiejar.CookieJar | dict[str, str] | list[tuple[str, str]]

#: Named network layers: httpx's (its transport over the SDK's pool of httpcore connections, see ``_pool``) or
#: aiohttp's pool (extra ``printmgmt[aiohttp]``).
TransportName = Literal["httpx", "aiohttp"]

#: The transport of a client that names none (the constructor never reads the environment; ``from_env`` reads
#: ``PRINTMGMT_TRANSPORT``).
DEFAULT_TRANSPORT: TransportName = "httpx"


def ssl_context(verify: Verify) -> bool | ssl.SSLContext:
    """One TLS context for whichever transport. ``verify=True`` follows httpx's rule (``SSL_CERT_FILE`` /
    ``SSL_CERT_DIR`` when set, else certifi's CA bundle) on the aiohttp transport too, so a server is trusted
    or not whatever the transport."""
    if verify is True:
        return httpx.create_ssl_context()
    if isinstance(verify, bool | ssl.SSLContext):
        return verify
    path = os.fspath(verify)
    if not os.path.exists(path):
        raise ValueError(f"CA bundle not found: {path}")
    if os.path.isdir(path):
        return ssl.create_default_context(capath=path)
    return ssl.create_default_context(cafile=path)


class LeanCookies(httpx.Cookies):
    """httpx's cookie store, without the work for answers that set no cookie.

    httpx passes every response through ``http.cookiejar`` (building urllib stand-ins for the request and
    the response), a quarter of the client's CPU per call on loopback, even without a ``Set-Cookie``. The
    print server sets none, but a load balancer in front of it may (sticky sessions), so cookies are kept.
    """

    def extract_cookies(self, response: httpx.Response) -> None:
        if "set-cookie" in response.headers or "set-cookie2" in response.headers:
            super().extract_cookies(response)


def _checked_name(transport: str) -> TransportName:
    if transport not in get_args(TransportName):
        raise ValueError(
            f"transport must be one of {', '.join(get_args(TransportName))} or a transport object, not {transport!r}"
        )
    return transport  # type: ignore[return-value]  # checked against the Literal's values just above


def async_named_transport(
    transport: httpx.AsyncBaseTransport | str | None, verify: bool | ssl.SSLContext, limits: httpx.Limits
) -> httpx.AsyncBaseTransport:
    """The transport object for ``transport=`` (a caller's own transport object is used as it is)."""
    from ._per_loop import PerLoopTransport

    if not isinstance(transport, httpx.AsyncBaseTransport):
        name = _checked_name(DEFAULT_TRANSPORT if transport is None else transport)
        if name == "httpx":
            from ._pool import PooledTransport

            factory: Callable[[], httpx.AsyncBaseTransport] = lambda: PooledTransport(  # noqa: E731
                verify=verify, limits=limits
            )
        else:
            try:
                from .transports import AiohttpTransport
            except ImportError as exc:
                raise ImportError("transport='aiohttp' needs aiohttp: pip install 'printmgmt[aiohttp]'") from exc
            factory = lambda: AiohttpTransport(verify=verify, limits=limits)  # noqa: E731
        # one pool per event loop (see PerLoopTransport): the same client serves successive asyncio.run calls
        return PerLoopTransport(factory)
    return transport


def sync_named_transport(
    transport: httpx.BaseTransport | str | None, verify: bool | ssl.SSLContext, limits: httpx.Limits
) -> httpx.BaseTransport:
    """The sync client's transport for ``transport=``: httpx's own, on httpcore's pool (aiohttp and the SDK's
    pool are asyncio only; the retry storm that pool avoids was measured on the async path, where requests
    wait in one event loop's assignment pass, and a threaded twin would be a second pool to prove)."""
    if not isinstance(transport, httpx.BaseTransport):
        name = _checked_name(DEFAULT_TRANSPORT if transport is None else transport)
        if name != "httpx":
            raise ValueError(f"transport={name!r} is async only; the sync client uses httpx's own transport")
        return httpx.HTTPTransport(verify=verify, limits=limits)
    return transport


_unverified_warned = False


def warn_unverified() -> None:
    global _unverified_warned
    if not _unverified_warned:
        _unverified_warned = True
        logger.warning("TLS certificate verification is off (verify=False): the server's identity is not checked")


def _auth_from_env(get: Any) -> httpx.Auth | None:
    if token := get("TOKEN"):
        return BearerToken(token)
    username = get("USERNAME")
    if username is None:
        return None
    kind: ClientKind = get("CLIENT_KIND") or "cli"
    missing = [f"PRINTMGMT_{name}" for name in ("PASSWORD", "CLIENT_SECRET") if get(name) is None]
    if get("TOKEN_URL") is None and get("AUTH_URL") is None:
        missing.append("PRINTMGMT_AUTH_URL or PRINTMGMT_TOKEN_URL")
    if missing:
        raise ConfigurationError("PRINTMGMT_USERNAME is set but not " + ", ".join(missing))
    return PasswordAuth(
        username=username,
        password=get("PASSWORD"),
        client_secret=get("CLIENT_SECRET"),
        client_id=get("CLIENT_ID"),
        client_kind=kind,
        auth_url=get("AUTH_URL"),
        realm=get("REALM") or "SEAL",
        token_url=get("TOKEN_URL"),
    )


def client_of(auth: httpx.Auth | None) -> str | None:
    """The OAuth client a token is requested for, as 403 errors name it."""
    client_id = getattr(auth, "client_id", None)
    if not isinstance(client_id, str):
        return None
    kind = next((kind for kind, known in CLIENT_IDS.items() if known == client_id), None)
    return f"client {client_id!r}" + (f" (client kind {kind!r})" if kind else "")


def is_off(value: str | None) -> bool:
    """Whether a setting's text turns it off (``0``, ``false``, ``no``, ``off``; unset is not off)."""
    return (value or "").lower() in {"0", "false", "no", "off"}


N = TypeVar("N", int, float)


def _number(kind: Callable[[str], N], name: str, text: str, expected: str) -> N:
    try:
        return kind(text)
    except ValueError:
        raise ConfigurationError(f"PRINTMGMT_{name} must be {expected}, not {text!r}") from None


def options_from_env(environ: Mapping[str, str] | None, overrides: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The base URL and constructor options ``from_env`` reads (see ``PrintClient.from_env``); ``overrides`` win."""
    env = os.environ if environ is None else environ
    options = dict(overrides)

    def get(name: str) -> str | None:
        value = env.get(f"PRINTMGMT_{name}")
        return value if value else None

    base_url = options.pop("base_url", None) or get("BASE_URL")
    if not base_url:
        raise ConfigurationError("PRINTMGMT_BASE_URL is not set")
    if "auth" not in options:
        options["auth"] = _auth_from_env(get)
    if "timeout" not in options and (timeout := get("TIMEOUT")):
        options["timeout"] = _number(float, "TIMEOUT", timeout, "seconds, e.g. 30")
    if "retries" not in options and (retries := get("RETRIES")):
        options["retries"] = _number(int, "RETRIES", retries, "a whole number, e.g. 2")
    if "transport" not in options and (transport := get("TRANSPORT")):
        options["transport"] = transport
    if "verify" not in options:
        if ca_bundle := get("CA_BUNDLE"):
            options["verify"] = ca_bundle
        elif is_off(get("VERIFY")):
            options["verify"] = False
    return base_url, options
