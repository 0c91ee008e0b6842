"""The client's network layer, async and sync: the named transports, their proxies, the default timeout, the cookie
store, the warning for unverified TLS.

httpx reads the proxies of the environment only for a client that names no transport, and the SDK always names
one: they are read here and handed to httpx as ``mounts=``.
"""

from __future__ import annotations

import functools
import http.cookiejar
import ipaddress
import logging
import ssl
from collections.abc import Callable
from typing import Literal, TypeVar
from urllib.request import getproxies

import httpx

from .errors import ConfigurationError

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_TRANSPORT",
    "CookieTypes",
    "LeanCookies",
    "ProxyRoutes",
    "TransportName",
    "async_named_transport",
    "client_routes",
    "environment_proxies",
    "proxy_mounts",
    "sync_named_transport",
    "warn_unverified",
]

logger = logging.getLogger("printmgmt")

T = TypeVar("T")

#: Used unless the caller says otherwise: the generated client alone would wait forever.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)

#: What ``httpx.Cookies`` is made from (httpx's own alias is in a private module).
CookieTypes = httpx.Cookies | http.cookiejar.CookieJar | dict[str, str] | list[tuple[str, str]]

#: The one named network layer: httpx's (its transport over the SDK's pool of httpcore connections, see ``_pool``).
TransportName = Literal["httpx"]

#: The transport of a client that names none (only ``from_env`` reads ``PRINTMGMT_TRANSPORT``).
DEFAULT_TRANSPORT: TransportName = "httpx"

#: ``mounts=`` patterns → the proxy of the URLs they match (``None``: no proxy; the client's own transport).
ProxyRoutes = dict[str, httpx.Proxy | None]


class LeanCookies(httpx.Cookies):
    """httpx's cookie store, skipping ``http.cookiejar`` (a quarter of the CPU per call on loopback) for answers
    that set no cookie; cookies are kept for a load balancer's sticky sessions."""

    def extract_cookies(self, response: httpx.Response) -> None:
        if "set-cookie" in response.headers or "set-cookie2" in response.headers:
            super().extract_cookies(response)


def _check_name(transport: str | None) -> None:
    if transport not in (None, DEFAULT_TRANSPORT):
        raise ConfigurationError(
            f"transport={transport!r} is not offered (nor as PRINTMGMT_TRANSPORT): use the default, the SDK's own "
            "'httpx' (leave transport= unset), or pass an httpx transport object"
        )


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
    _check_name(transport)
    from ._per_loop import PerLoopTransport
    from ._pool import PooledTransport  # through a proxy: httpx's own pool, which knows proxies

    make = functools.partial(PooledTransport, verify=verify, limits=limits, proxy=proxy)
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
    """The sync client's transport for ``transport=``: httpx's own on httpcore's pool (the SDK's pool is asyncio
    only), through ``proxy`` if given, guarded where httpx would cross answers (:mod:`~printmgmt._sync_wire`)."""
    if not isinstance(transport, httpx.BaseTransport):
        _check_name(transport)
        from ._sync_wire import GuardedTransport

        return GuardedTransport(verify=verify, limits=limits, proxy=proxy)
    return transport


def client_routes(transport: object, proxy: httpx.Proxy | str | None, trust_env: bool) -> ProxyRoutes:
    """The proxies of a client built with ``transport=transport``, as ``httpx.AsyncClient(proxy=proxy,
    trust_env=trust_env)`` routes them: ``proxy`` for every URL, whatever the environment says (``NO_PROXY``
    included); else, with ``trust_env``, the environment's; else none.

    A transport object is the caller's whole network layer, used as it is: httpx reads no proxy from the
    environment for it, and neither does the SDK; ``proxy=`` beside it is refused (it would be ignored).
    """
    if isinstance(transport, httpx.AsyncBaseTransport | httpx.BaseTransport):
        if proxy is not None:
            raise ConfigurationError(
                "proxy= goes with the named transport ('httpx'); a transport object is used as it is: "
                "give it its own proxy"
            )
        return {}
    try:
        if proxy is not None:
            return {"all://": proxy if isinstance(proxy, httpx.Proxy) else httpx.Proxy(proxy)}
        if not trust_env:
            return {}
        routes = {pattern: None if url is None else httpx.Proxy(url) for pattern, url in environment_proxies().items()}
        for pattern in routes:  # what httpx's mounts= would fail to read (NO_PROXY=[::1]), refused here, typed
            httpx.URL(pattern)
        return routes
    except (ValueError, httpx.InvalidURL) as exc:  # httpx's messages show a URL with its password masked
        where = "proxy=" if proxy is not None else "the environment (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY)"
        raise ConfigurationError(f"unusable proxy setting in {where}: {exc}") from None


def environment_proxies() -> dict[str, str | None]:
    """``mounts=`` patterns → proxy URLs (``None``: no proxy) from the environment, as httpx reads them
    (``urllib.request.getproxies()``; ``NO_PROXY`` as curl reads it, docs/configuration.md)."""
    found = getproxies()
    routes: dict[str, str | None] = {}
    for scheme in ("http", "https", "all"):
        if url := found.get(scheme):
            routes[f"{scheme}://"] = url if "://" in url else f"http://{url}"
    for host in (host.strip() for host in found.get("no", "").split(",")):
        if host == "*":
            return {}
        if not host:
            continue
        if "://" in host:
            routes[host] = None
        elif _ip_version(host) == 6:
            routes[f"all://[{host}]"] = None
        elif _ip_version(host) == 4 or host.lower() == "localhost":
            routes[f"all://{host}"] = None
        else:
            routes[f"all://*{host}"] = None
    return routes


def _ip_version(host: str) -> int | None:
    """4 or 6 when ``host`` (or what comes before a ``/`` in it, a network's prefix length) is an IP address."""
    try:
        return ipaddress.ip_address(host.split("/")[0]).version
    except ValueError:
        return None


def proxy_mounts(routes: ProxyRoutes, through: Callable[[httpx.Proxy], T]) -> dict[str, T | None]:
    """httpx ``mounts=`` for ``routes``: each proxied pattern sends through ``through(proxy)``; the others
    (``None``) through the client's own transport."""
    return {pattern: None if proxy is None else through(proxy) for pattern, proxy in routes.items()}


@functools.cache  # once per process
def warn_unverified() -> None:
    logger.warning("TLS certificate verification is off (verify=False): the server's identity is not checked")
