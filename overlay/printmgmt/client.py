"""``PrintClient``: the entry point of the SDK."""

from __future__ import annotations

import copy
import logging
import os
import ssl
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, Unpack, get_args

import httpx

from printmgmt_api.types import Request

from ._invoke import CallOptions, Invoker
from ._per_loop import PerLoopTransport
from ._version import __version__
from .admission import Admission
from .auth import CLIENT_IDS, BearerToken, ClientKind, PasswordAuth
from .resources import (
    AuthResource,
    ConfigsResource,
    FlowsResource,
    JobsResource,
    PrintersResource,
    StatisticsResource,
)
from .retry import RetryPolicy

if TYPE_CHECKING:
    from printmgmt_api.models import ServiceInfo

__all__ = ["DEFAULT_TIMEOUT", "PrintClient"]

T = TypeVar("T")

logger = logging.getLogger("printmgmt")

#: Used unless the caller says otherwise: the generated client alone would wait forever.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)


Verify = bool | str | os.PathLike[str] | ssl.SSLContext

#: Named network layers: httpx's own (httpcore) or aiohttp's pool (extra ``printmgmt[aiohttp]``).
TransportName = Literal["httpx", "aiohttp"]

#: The transport of a client that names none (the constructor never reads the environment; ``from_env`` reads
#: ``PRINTMGMT_TRANSPORT``).
DEFAULT_TRANSPORT: TransportName = "httpx"


def _ssl_context(verify: Verify) -> bool | ssl.SSLContext:
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


class PrintClient:
    """Async client of the print-management interface.

    ::

        auth = PasswordAuth(auth_url="https://idp:32769", realm="SEAL", client_id="seal-plossyscli",
                            client_secret=..., username=..., password=...)
        async with PrintClient("https://printserver:8080", auth=auth) as client:
            page = await client.jobs.list(filter="status eq 'Error'", top=20)

    ``auth`` is a :class:`PasswordAuth`, a :class:`BearerToken`, a token string, or any ``httpx.Auth``.
    ``timeout`` is seconds or an ``httpx.Timeout`` (default 30 s, 10 s to connect). ``verify`` is ``True``,
    ``False``, a CA bundle path or an ``ssl.SSLContext``. ``transport`` replaces the network layer (tests,
    proxies); ``http_client`` replaces the whole ``httpx.AsyncClient`` (its settings are then yours).
    """

    def __init__(
        self,
        base_url: str,
        *,
        auth: httpx.Auth | str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        verify: Verify = True,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | TransportName | None = None,
        limits: httpx.Limits | None = None,
        http_client: httpx.AsyncClient | None = None,
        retries: int = 2,
        retry: RetryPolicy | None = None,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http:// or https:// URL, not {base_url!r}")
        if isinstance(auth, str):
            auth = BearerToken(auth)
        policy = retry or RetryPolicy.from_retries(retries)
        if verify is False:
            _warn_unverified()
        self.base_url = base_url.rstrip("/")
        self._auth = auth
        limits = limits or httpx.Limits(max_connections=100, max_keepalive_connections=20)
        # requests beyond the pool's size wait before their token is stamped (see Admission); with a
        # caller's own http_client the pool size is not known
        admission = Admission(limits.max_connections if http_client is None else None)
        if http_client is None:
            ssl_context = _ssl_context(verify)
            http_client = _AsyncClient(
                base_url=self.base_url,
                auth=auth,
                timeout=timeout,
                verify=ssl_context,
                headers={"User-Agent": f"printmgmt/{__version__}", **(headers or {})},
                transport=_transport(transport, ssl_context, limits),
                limits=limits,
                follow_redirects=False,
            )
        elif auth is not None:
            http_client.auth = auth
        self._http = http_client
        self._owns_http = True
        self._bind(Invoker(http_client, retry=policy, admission=admission, client=_client_of(auth)))

    def _bind(self, invoker: Invoker) -> None:
        self._invoker = invoker
        self.auth = AuthResource(invoker)
        self.configs = ConfigsResource(invoker)
        self.flows = FlowsResource(invoker)
        self.jobs = JobsResource(invoker)
        self.printers = PrintersResource(invoker)
        self.statistics = StatisticsResource(invoker)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> PrintClient:
        """Build a client from ``PRINTMGMT_*`` variables.

        ``PRINTMGMT_BASE_URL`` (required); a token with ``PRINTMGMT_TOKEN``, or a password grant with
        ``PRINTMGMT_USERNAME``, ``PRINTMGMT_PASSWORD``, ``PRINTMGMT_CLIENT_SECRET`` and either
        ``PRINTMGMT_TOKEN_URL`` or ``PRINTMGMT_AUTH_URL`` (+ ``PRINTMGMT_REALM``, default ``SEAL``), with
        ``PRINTMGMT_CLIENT_ID`` or ``PRINTMGMT_CLIENT_KIND`` (graphical, operator, cli);
        ``PRINTMGMT_TIMEOUT`` (seconds), ``PRINTMGMT_RETRIES``, ``PRINTMGMT_CA_BUNDLE`` or
        ``PRINTMGMT_VERIFY=false``, ``PRINTMGMT_TRANSPORT`` (``httpx`` or ``aiohttp``).
        Keyword arguments override what the environment says.
        """
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(f"PRINTMGMT_{name}")
            return value if value else None

        base_url = overrides.pop("base_url", None) or get("BASE_URL")
        if not base_url:
            raise ValueError("PRINTMGMT_BASE_URL is not set")
        if "auth" not in overrides:
            overrides["auth"] = _auth_from_env(get)
        if "timeout" not in overrides and (timeout := get("TIMEOUT")):
            overrides["timeout"] = float(timeout)
        if "retries" not in overrides and (retries := get("RETRIES")):
            overrides["retries"] = int(retries)
        if "transport" not in overrides and (transport := get("TRANSPORT")):
            overrides["transport"] = transport
        if "verify" not in overrides:
            if ca_bundle := get("CA_BUNDLE"):
                overrides["verify"] = ca_bundle
            elif (get("VERIFY") or "true").lower() in {"0", "false", "no", "off"}:
                overrides["verify"] = False
        return cls(base_url, **overrides)

    def with_options(
        self,
        *,
        timeout: float | httpx.Timeout | None = None,
        retries: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> PrintClient:
        """A client with other defaults that shares this one's connection pool and token.

        ``timeout`` replaces the default timeout, ``retries`` the number of retries (0: none), ``retry``
        the whole :class:`~printmgmt.retry.RetryPolicy`. Closing the derived client leaves the pool open:
        close the original.
        """
        if retry is None and retries is not None:
            retry = RetryPolicy.from_retries(retries)
        derived = copy.copy(self)
        derived._owns_http = False
        derived._bind(self._invoker.derive(retry=retry, timeout=timeout))
        return derived

    @property
    def retry(self) -> RetryPolicy:
        """The retry policy of this client."""
        return self._invoker.retry

    def __repr__(self) -> str:
        return f"PrintClient(base_url={self.base_url!r}, auth={self._auth!r})"

    async def request(self, request: Request[T], *, target: str | None = None, **options: Unpack[CallOptions]) -> T:
        """Send any generated request through this client (token, retries, errors, parsing) and return its result.

        ``await client.request(printmgmt_api.api.jobs.get_job.request("id"))`` is what ``client.jobs.get("id")``
        does; use it for an operation regenerated into ``printmgmt_api`` before the facade has a method for it.
        """
        return await self._invoker.invoke(request, target=target, **options)

    async def request_raw(
        self, request: Request[Any], *, target: str | None = None, **options: Unpack[CallOptions]
    ) -> httpx.Response:
        """Like :meth:`request`, but return the 2xx answer as it came, unparsed (token, retries and errors as usual).

        The escape hatch when the server's answer is not what the SDK reads: ``response.json()``, ``.text``.
        """
        return await self._invoker.invoke_raw(request, target=target, **options)

    @property
    def http(self) -> httpx.AsyncClient:
        """The underlying ``httpx.AsyncClient``."""
        return self._http

    async def service_root(self, **options: Unpack[CallOptions]) -> ServiceInfo:
        """``GET /``: the service's entry point."""
        from printmgmt_api.api.root import get_service_root

        return await self._invoker.invoke(get_service_root.request(), **options)

    async def version_info(self, **options: Unpack[CallOptions]) -> ServiceInfo:
        """``GET /v3/``: the v3 interface's entry point."""
        from printmgmt_api.api.root import get_version_info

        return await self._invoker.invoke(get_version_info.request(), **options)

    async def aclose(self) -> None:
        """Close the connection pool (a client made by :meth:`with_options` leaves it to its original)."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        if self._owns_http:
            await self._http.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._owns_http:
            await self._http.__aexit__(exc_type, exc, tb)


class _Cookies(httpx.Cookies):
    """httpx's cookie store, without the work for answers that set no cookie.

    httpx passes every response through ``http.cookiejar`` (building urllib stand-ins for the request and
    the response), a quarter of the client's CPU per call on loopback, even without a ``Set-Cookie``. The
    print server sets none, but a load balancer in front of it may (sticky sessions), so cookies are kept.
    """

    def extract_cookies(self, response: httpx.Response) -> None:
        if "set-cookie" in response.headers or "set-cookie2" in response.headers:
            super().extract_cookies(response)


class _AsyncClient(httpx.AsyncClient):
    """``httpx.AsyncClient`` keeping its cookies in :class:`_Cookies`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cookies = self.cookies  # through the setter below: httpx's __init__ bypasses it

    @property
    def cookies(self) -> httpx.Cookies:
        return self._cookies

    @cookies.setter
    def cookies(self, cookies: httpx._types.CookieTypes) -> None:
        self._cookies = _Cookies(cookies)


def _transport(
    transport: httpx.AsyncBaseTransport | str | None, verify: bool | ssl.SSLContext, limits: httpx.Limits
) -> httpx.AsyncBaseTransport:
    """The transport object for ``transport=`` (a caller's own transport object is used as it is)."""
    if transport is None:
        transport = DEFAULT_TRANSPORT
    if not isinstance(transport, str):
        return transport
    if transport not in get_args(TransportName):
        raise ValueError(
            f"transport must be one of {', '.join(get_args(TransportName))} or a transport object, not {transport!r}"
        )
    # one pool per event loop (see PerLoopTransport): the same client serves successive asyncio.run calls
    if transport == "httpx":
        return PerLoopTransport(lambda: httpx.AsyncHTTPTransport(verify=verify, limits=limits))
    try:
        from .transports import AiohttpTransport
    except ImportError as exc:
        raise ImportError("transport='aiohttp' needs aiohttp: pip install 'printmgmt[aiohttp]'") from exc
    return PerLoopTransport(lambda: AiohttpTransport(verify=verify, limits=limits))


_unverified_warned = False


def _warn_unverified() -> None:
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
        raise ValueError("PRINTMGMT_USERNAME is set but not " + ", ".join(missing))
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


def _client_of(auth: httpx.Auth | None) -> str | None:
    """The OAuth client a token is requested for, as 403 errors name it."""
    client_id = getattr(auth, "client_id", None)
    if not isinstance(client_id, str):
        return None
    kind = next((kind for kind, known in CLIENT_IDS.items() if known == client_id), None)
    return f"client {client_id!r}" + (f" (client kind {kind!r})" if kind else "")
