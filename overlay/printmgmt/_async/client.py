"""The async ``PrintClient`` (users import it from :mod:`printmgmt.client`), source of ``printmgmt._sync.client``."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar, Unpack

import httpx

from printmgmt_api.operations import Request

from .._call import NOT_GIVEN, NotGiven, Timeout
from .._headers import check_headers
from .._network import (
    DEFAULT_TIMEOUT,
    CookieTypes,
    LeanCookies,
    TransportName,
    async_named_transport,
    client_routes,
    proxy_mounts,
    warn_unverified,
)
from .._version import __version__
from ..auth import BearerToken, auth_from_settings, client_of
from ..errors import ConfigurationError
from ..retry import RetryPolicy
from ..server import CheckQuery, check_mode
from ..settings import Verify, check_url, options_from_env, ssl_context
from ._invoke import Admission, CallOptions, Invoker

if TYPE_CHECKING:
    from printmgmt_api.models import ServiceInfo

    from .resources.auth import AuthResource
    from .resources.configs import ConfigsResource
    from .resources.flows import FlowsResource
    from .resources.jobs import JobsResource
    from .resources.printers import PrintersResource
    from .resources.statistics import StatisticsResource

__all__ = ["PrintClient"]

T = TypeVar("T")

_NAMESPACES = ("auth", "configs", "flows", "jobs", "printers", "statistics")


class PrintClient:
    """Async client of the print-management interface.

    ::

        auth = PasswordAuth(auth_url="https://idp:32769", realm="SEAL", client_id="seal-plossyscli",
                            client_secret=..., username=..., password=...)
        async with PrintClient("https://printserver:8080", auth=auth) as client:
            page = await client.jobs.list(filter="status eq 'Error'", top=20)

    ``auth`` is a :class:`PasswordAuth`, a :class:`BearerToken`, a token string, or any ``httpx.Auth``.
    ``timeout`` is seconds or an ``httpx.Timeout`` (default 30 s, 10 s to connect) for each operation of a
    request, as in httpx: connecting, each read, each write; ``None`` disables it. ``deadline`` bounds each
    call's whole time instead (seconds; every attempt, the waits between them and reading the body; default
    ``None``, unbounded): a server trickling its answer in never trips ``timeout`` but does trip ``deadline``.
    Both can be given per call (``timeout=``, ``deadline=``). ``verify`` is ``True``,
    ``False``, a CA bundle path or an ``ssl.SSLContext``. ``proxy`` (a URL or an ``httpx.Proxy``) sends every
    request through that proxy; without it, ``trust_env`` (default ``True``) takes ``HTTP_PROXY``,
    ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` (and ``SSL_CERT_FILE``) from the environment, as httpx does,
    once, here. ``transport`` names the network layer (``"httpx"``, the only name) or replaces it (a transport
    object: tests; used as it is, without proxies); ``http_client`` replaces the whole ``httpx.AsyncClient``
    (its settings are then yours). ``headers`` are sent with every request; a header HTTP/1.1 cannot carry
    raises :class:`~printmgmt.errors.InvalidHeader` here.
    ``check_query`` is how raw ``filter``/``orderby``/``select`` strings are read before sending: ``"strict"``
    refuses what the server refuses or reads otherwise than OData, ``"syntax"`` only what it refuses,
    ``"off"`` nothing (README "The server's query language").
    """

    def __init__(
        self,
        base_url: str,
        *,
        auth: httpx.Auth | str | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        deadline: float | None = None,
        verify: Verify = True,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | TransportName | None = None,
        limits: httpx.Limits | None = None,
        http_client: httpx.AsyncClient | None = None,
        proxy: httpx.Proxy | str | None = None,
        trust_env: bool = True,
        retries: int = 2,
        retry: RetryPolicy | None = None,
        check_query: CheckQuery = "strict",
    ) -> None:
        check_url("base_url", base_url)
        if isinstance(auth, str):
            auth = BearerToken(auth)
        policy = retry or RetryPolicy.from_retries(retries)
        if verify is False:
            warn_unverified()
        self.base_url = base_url.rstrip("/")
        self._auth = auth
        limits = limits or httpx.Limits(max_connections=100, max_keepalive_connections=20)
        # requests beyond the pool's size wait before their token is stamped (see Admission); with a
        # caller's own http_client the pool size is not known
        admission = Admission(limits.max_connections if http_client is None else None)
        if headers:
            check_headers(headers, "headers=")
        if http_client is None:
            tls = ssl_context(verify, trust_env)
            routes = client_routes(transport, proxy, trust_env)
            http_client = AsyncCookieClient(
                base_url=self.base_url,
                auth=auth,
                timeout=timeout,
                verify=tls,
                headers={"User-Agent": f"printmgmt/{__version__}", **(headers or {})},
                transport=async_named_transport(transport, tls, limits),
                mounts=proxy_mounts(routes, lambda through: async_named_transport(transport, tls, limits, through)),
                limits=limits,
                trust_env=trust_env,
                follow_redirects=False,
            )
        else:
            if proxy is not None:
                raise ConfigurationError("proxy= is for the client the SDK builds: give your http_client its proxy")
            if auth is not None:
                http_client.auth = auth
        self._http = http_client
        self._owns_http = True
        self._check_query = check_mode(check_query)
        self._bind(Invoker(http_client, retry=policy, deadline=deadline, admission=admission, client=client_of(auth)))

    def _bind(self, invoker: Invoker) -> None:
        self._invoker = invoker
        for name in _NAMESPACES:  # a derived client's namespaces send through its own invoker
            self.__dict__.pop(name, None)

    # Each namespace's module (and the generated modules it sends) loads when the namespace is first used.

    @cached_property
    def auth(self) -> AuthResource:
        """The calling user (:class:`~printmgmt._async.resources.auth.AuthResource`)."""
        from .resources.auth import AuthResource

        return AuthResource(self._invoker)

    @cached_property
    def configs(self) -> ConfigsResource:
        """The service configuration (:class:`~printmgmt._async.resources.configs.ConfigsResource`)."""
        from .resources.configs import ConfigsResource

        return ConfigsResource(self._invoker)

    @cached_property
    def flows(self) -> FlowsResource:
        """Processing flows (:class:`~printmgmt._async.resources.flows.FlowsResource`)."""
        from .resources.flows import FlowsResource

        return FlowsResource(self._invoker)

    @cached_property
    def jobs(self) -> JobsResource:
        """Print jobs (:class:`~printmgmt._async.resources.jobs.JobsResource`)."""
        from .resources.jobs import JobsResource

        return JobsResource(self._invoker, self._check_query)

    @cached_property
    def printers(self) -> PrintersResource:
        """Printers (:class:`~printmgmt._async.resources.printers.PrintersResource`)."""
        from .resources.printers import PrintersResource

        return PrintersResource(self._invoker, self._check_query)

    @cached_property
    def statistics(self) -> StatisticsResource:
        """Dashboard statistics (:class:`~printmgmt._async.resources.statistics.StatisticsResource`)."""
        from .resources.statistics import StatisticsResource

        return StatisticsResource(self._invoker)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> PrintClient:
        """Build a client from ``PRINTMGMT_*`` variables.

        ``PRINTMGMT_BASE_URL`` (required); a token with ``PRINTMGMT_TOKEN``, or a password grant with
        ``PRINTMGMT_USERNAME``, ``PRINTMGMT_PASSWORD``, ``PRINTMGMT_CLIENT_SECRET`` and either
        ``PRINTMGMT_TOKEN_URL`` or ``PRINTMGMT_AUTH_URL`` (+ ``PRINTMGMT_REALM``, default ``SEAL``), with
        ``PRINTMGMT_CLIENT_ID`` or ``PRINTMGMT_CLIENT_KIND`` (graphical, operator, cli);
        ``PRINTMGMT_TIMEOUT`` (seconds), ``PRINTMGMT_RETRIES``, ``PRINTMGMT_CA_BUNDLE`` or
        ``PRINTMGMT_VERIFY=false``, ``PRINTMGMT_TRANSPORT`` (``httpx``). Proxies come from the
        process's ``HTTPS_PROXY`` and the like (``trust_env``), as for any client.
        Keyword arguments override what the environment says. Unusable settings raise
        :class:`~printmgmt.errors.ConfigurationError` (also a ``ValueError``).
        """
        try:
            base_url, options = options_from_env(environ, overrides, auth_from_settings)
            return cls(base_url, **options)
        except ConfigurationError:
            raise
        except ValueError as exc:  # the constructor's and PasswordAuth's checks of a value read from the environment
            raise ConfigurationError(f"unusable PRINTMGMT_* settings: {exc}") from exc

    def with_options(
        self,
        *,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        deadline: float | NotGiven | None = NOT_GIVEN,
        retries: int | None = None,
        retry: RetryPolicy | None = None,
        check_query: CheckQuery | None = None,
    ) -> PrintClient:
        """A client with other defaults that shares this one's connection pool and token.

        ``timeout`` replaces the per-operation timeout (``None``: none), ``deadline`` the bound on each call's
        whole time (``None``: none), ``retries`` the number of retries (0: none), ``retry`` the whole
        :class:`~printmgmt.retry.RetryPolicy`, ``check_query`` how raw query options are read; what is left out
        is kept. Closing the derived client leaves the pool open: close the original.
        """
        if retry is None and retries is not None:  # the number of attempts changes; the waits stay
            retry = dataclasses.replace(self.retry, attempts=RetryPolicy.from_retries(retries).attempts)
        derived = copy.copy(self)
        derived._owns_http = False
        if check_query is not None:
            derived._check_query = check_mode(check_query)
        derived._bind(self._invoker.derive(retry=retry, timeout=timeout, deadline=deadline))
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
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._owns_http:
            await self._http.__aexit__(exc_type, exc, tb)


class AsyncCookieClient(httpx.AsyncClient):
    """``httpx.AsyncClient`` keeping its cookies in :class:`~printmgmt._network.LeanCookies` (its own jar unused)."""

    def __init__(self, *, cookies: CookieTypes | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cookies = cookies or {}

    @property
    def cookies(self) -> httpx.Cookies:
        return self._lean_cookies

    @cookies.setter
    def cookies(self, cookies: CookieTypes) -> None:
        self._lean_cookies = LeanCookies(cookies)
