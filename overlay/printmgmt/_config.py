"""What the async and the sync client share: defaults, TLS, named transports, cookies, settings from the environment."""

from __future__ import annotations

import http.cookiejar
import logging
import ssl
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, get_args

import httpx

from ._proxies import ProxyRoutes, proxy_routes
from .auth import CLIENT_IDS, BearerToken, ClientKind, PasswordAuth
from .errors import ConfigurationError
from .settings import DEFAULTS, Verify, is_off, read_environment, ssl_context

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_TRANSPORT",
    "CookieTypes",
    "LeanCookies",
    "TransportName",
    "Verify",
    "async_named_transport",
    "client_of",
    "client_routes",
    "options_from_env",
    "proxy_mounts",
    "ssl_context",
    "sync_named_transport",
    "warn_unverified",
]

logger = logging.getLogger("printmgmt")

T = TypeVar("T")

#: Used unless the caller says otherwise: the generated client alone would wait forever.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)

#: What ``httpx.Cookies`` is made from (httpx's own alias is in a private module).
CookieTypes = httpx.Cookies | http.cookiejar.CookieJar | dict[str, str] | list[tuple[str, str]]

#: Named network layers: httpx's (its transport over the SDK's pool of httpcore connections, see ``_pool``) or
#: aiohttp's pool (extra ``printmgmt[aiohttp]``).
TransportName = Literal["httpx", "aiohttp"]

#: The transport of a client that names none (the constructor never reads the environment; ``from_env`` reads
#: ``PRINTMGMT_TRANSPORT``).
DEFAULT_TRANSPORT: TransportName = "httpx"


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
    transport: httpx.AsyncBaseTransport | str | None,
    verify: bool | ssl.SSLContext,
    limits: httpx.Limits,
    proxy: httpx.Proxy | None = None,
) -> httpx.AsyncBaseTransport:
    """The transport object for ``transport=``, through ``proxy`` if given (a caller's own transport object is
    used as it is)."""
    if isinstance(transport, httpx.AsyncBaseTransport):
        return transport
    from ._per_loop import PerLoopTransport

    made: Callable[..., httpx.AsyncBaseTransport]
    if _checked_name(DEFAULT_TRANSPORT if transport is None else transport) == "httpx":
        from ._pool import PooledTransport as made  # through a proxy: httpx's own pool, which knows proxies
    else:
        try:
            from .transports import AiohttpTransport as made
        except ImportError as exc:
            raise ImportError("transport='aiohttp' needs aiohttp: pip install 'printmgmt[aiohttp]'") from exc

    def make() -> httpx.AsyncBaseTransport:
        return made(verify=verify, limits=limits, proxy=proxy)

    if proxy is not None:
        make()  # made once now: a proxy the transport cannot go through is refused here, not at the first call
    # one pool per event loop (see PerLoopTransport): the same client serves successive asyncio.run calls
    return PerLoopTransport(make)


def sync_named_transport(
    transport: httpx.BaseTransport | str | None,
    verify: bool | ssl.SSLContext,
    limits: httpx.Limits,
    proxy: httpx.Proxy | None = None,
) -> httpx.BaseTransport:
    """The sync client's transport for ``transport=``: httpx's own, on httpcore's pool (aiohttp and the SDK's
    pool are asyncio only; the retry storm that pool avoids was measured on the async path, where requests
    wait in one event loop's assignment pass, and a threaded twin would be a second pool to prove), through
    ``proxy`` if given, guarded where httpx would cross answers (:mod:`~printmgmt._sync_wire`)."""
    if not isinstance(transport, httpx.BaseTransport):
        name = _checked_name(DEFAULT_TRANSPORT if transport is None else transport)
        if name != "httpx":
            raise ValueError(f"transport={name!r} is async only; the sync client uses httpx's own transport")
        from ._sync_wire import GuardedTransport

        return GuardedTransport(verify=verify, limits=limits, proxy=proxy)
    return transport


def client_routes(transport: object, proxy: httpx.Proxy | str | None, trust_env: bool) -> ProxyRoutes:
    """The proxies of a client built with ``transport=transport`` (see :func:`~printmgmt._proxies.proxy_routes`).

    A transport object is the caller's whole network layer, used as it is: httpx reads no proxy from the
    environment for it, and neither does the SDK; ``proxy=`` beside it is refused (it would be ignored).
    """
    if isinstance(transport, httpx.AsyncBaseTransport | httpx.BaseTransport):
        if proxy is not None:
            raise ConfigurationError(
                "proxy= goes with a named transport ('httpx', 'aiohttp'); a transport object is used as it is: "
                "give it its own proxy"
            )
        return {}
    return proxy_routes(proxy, trust_env)


def proxy_mounts(routes: ProxyRoutes, through: Callable[[httpx.Proxy], T]) -> dict[str, T | None]:
    """httpx ``mounts=`` for ``routes``: each proxied pattern sends through ``through(proxy)``; the others
    (``None``) through the client's own transport."""
    return {pattern: None if proxy is None else through(proxy) for pattern, proxy in routes.items()}


_unverified_warned = False


def warn_unverified() -> None:
    global _unverified_warned
    if not _unverified_warned:
        _unverified_warned = True
        logger.warning("TLS certificate verification is off (verify=False): the server's identity is not checked")


def _auth_from_env(env: Mapping[str, str]) -> httpx.Auth | None:
    if token := env.get("token"):
        return BearerToken(token)
    username = env.get("username")
    if username is None:
        return None
    kind: ClientKind = env.get("client_kind") or DEFAULTS["client_kind"]  # type: ignore[assignment]  # PasswordAuth checks it
    missing = [f"PRINTMGMT_{name.upper()}" for name in ("password", "client_secret") if name not in env]
    if "token_url" not in env and "auth_url" not in env:
        missing.append("PRINTMGMT_AUTH_URL or PRINTMGMT_TOKEN_URL")
    if missing:
        raise ConfigurationError("PRINTMGMT_USERNAME is set but not " + ", ".join(missing))
    return PasswordAuth(
        username=username,
        password=env["password"],
        client_secret=env["client_secret"],
        client_id=env.get("client_id"),
        client_kind=kind,
        auth_url=env.get("auth_url"),
        realm=env.get("realm") or DEFAULTS["realm"],
        token_url=env.get("token_url"),
    )


def client_of(auth: httpx.Auth | None) -> str | None:
    """The OAuth client a token is requested for, as 403 errors name it."""
    client_id = getattr(auth, "client_id", None)
    if not isinstance(client_id, str):
        return None
    kind = next((kind for kind, known in CLIENT_IDS.items() if known == client_id), None)
    return f"client {client_id!r}" + (f" (client kind {kind!r})" if kind else "")


N = TypeVar("N", int, float)


def _number(kind: Callable[[str], N], name: str, text: str, expected: str) -> N:
    try:
        return kind(text)
    except ValueError:
        raise ConfigurationError(f"PRINTMGMT_{name} must be {expected}, not {text!r}") from None


def options_from_env(environ: Mapping[str, str] | None, overrides: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The base URL and constructor options ``from_env`` reads (see ``PrintClient.from_env``); ``overrides`` win."""
    env = read_environment(environ)
    options = dict(overrides)
    base_url = options.pop("base_url", None) or env.get("base_url")
    if not base_url:
        raise ConfigurationError("PRINTMGMT_BASE_URL is not set")
    if "auth" not in options:
        options["auth"] = _auth_from_env(env)
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
