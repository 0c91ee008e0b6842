"""Which proxy each request goes through, as httpx decides it: httpx reads the environment only for a client
that names no transport, and the SDK always names one, so it is read here and handed to httpx as ``mounts=``."""

from __future__ import annotations

import ipaddress
from urllib.request import getproxies

import httpx

from .errors import ConfigurationError

__all__ = ["ProxyRoutes", "environment_proxies", "proxy_routes"]

#: ``mounts=`` patterns → the proxy of the URLs they match (``None``: no proxy; the client's own transport).
ProxyRoutes = dict[str, httpx.Proxy | None]


def proxy_routes(proxy: httpx.Proxy | httpx.URL | str | None, trust_env: bool) -> ProxyRoutes:
    """The routes of ``httpx.AsyncClient(proxy=proxy, trust_env=trust_env)``: ``proxy`` for every URL, whatever
    the environment says (``NO_PROXY`` included); else, with ``trust_env``, the environment's; else none."""
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
