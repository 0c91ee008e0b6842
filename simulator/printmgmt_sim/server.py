"""Running the simulator: uvicorn on a loopback port, in a background thread, started and stopped cleanly.

::

    async with run_simulator(seed=1, access_ttl=300) as sim:
        async with sim.client(role="admin") as client:   # a ready printmgmt.PrintClient
            print(await client.jobs.list(top=5))

``sim.base_url``, ``sim.auth_url``, ``sim.realm``, ``sim.token_url`` and ``sim.user(role)`` /
``sim.client_credentials(kind)`` give what a :class:`printmgmt.PasswordAuth` needs. With ``tls_cert`` (and
``tls_key``) set, it serves HTTPS: ``https://127.0.0.1:<port>``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .backend import Backend
from .clock import SimClock
from .faults import TRANSPORT_KEY, Faults
from .profile import Profile, load_profile
from .settings import ClientCredentials, Settings, UserCredentials
from .store import Store
from .traffic import Traffic

if TYPE_CHECKING:
    from printmgmt import PasswordAuth, PrintClient
    from printmgmt.sync import PrintClient as SyncPrintClient

__all__ = ["Simulator", "run_simulator"]


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, exposing each connection's transport so faults can drop it, and
    counting connections in the simulator's :class:`~printmgmt_sim.traffic.Traffic`."""

    traffic: Traffic

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.traffic.connection_opened()
        app = self.app

        async def with_transport(scope: Any, receive: Any, send: Any) -> None:
            scope.setdefault("extensions", {})[TRANSPORT_KEY] = transport
            await app(scope, receive, send)

        self.app = with_transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.traffic.connection_closed()
        super().connection_lost(exc)


def _protocol_for(traffic: Traffic) -> type[_Protocol]:
    """A protocol class counting into ``traffic`` (uvicorn instantiates the class itself)."""
    return type("_Protocol", (_Protocol,), {"traffic": traffic})


class Simulator:
    """A print server and its identity provider on ``http://127.0.0.1:<free port>``.

    Use it as a context manager (sync or async), or call :meth:`start` and :meth:`stop`. Keyword
    arguments override fields of :class:`~printmgmt_sim.settings.Settings`; ``profile`` (a file written by
    ``printmgmt doctor --write-profile``, read by ``printmgmt_sim.profile``) answers as that server did,
    where the keyword arguments do not say otherwise.
    """

    def __init__(self, settings: Settings | None = None, *, profile: Profile | None = None, **overrides: Any) -> None:
        base = settings or Settings()
        if profile is not None:
            overrides = {**load_profile(profile, base.variants), **overrides}
        self.settings = dataclasses.replace(base, **overrides)
        self._backend: Backend | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    def __repr__(self) -> str:
        where = self.base_url if self._backend else "not running"
        return f"Simulator({where}, seed={self.settings.seed}, jobs={self.settings.jobs})"

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self, timeout: float = 30.0) -> Self:
        """Bind the port, seed the state and serve in a background thread; return once it answers."""
        if self._thread is not None:
            raise RuntimeError("the simulator is already running")
        # IPPROTO_TCP explicitly: asyncio only sets TCP_NODELAY on sockets that say so (else each
        # keep-alive answer waits ~40 ms for a delayed ACK, as uvicorn writes headers and body apart)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.settings.host, self.settings.port))
            sock.listen(128)
            host, port = sock.getsockname()[:2]
            scheme = "https" if self.settings.tls_cert else "http"
            self._backend = Backend(self.settings, f"{scheme}://{host}:{port}")
        except BaseException:
            sock.close()
            raise
        config = uvicorn.Config(
            create_app(self._backend),
            http=_protocol_for(self._backend.traffic),
            lifespan="off",
            log_config=None,
            log_level="warning",
            access_log=self.settings.access_log,
            timeout_graceful_shutdown=2,
            # heads up to the Node layer's limit (and well past it) reach the app, which answers as Node does
            h11_max_incomplete_event_size=max(1 << 20, 4 * self.settings.max_header_size),
            ssl_certfile=self.settings.tls_cert,
            ssl_keyfile=self.settings.tls_key,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, args=(sock,), name=f"printmgmt-sim:{port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the simulator did not start: {self._failure or 'timeout'}")
            time.sleep(0.005)
        return self

    def _serve(self, sock: socket.socket) -> None:
        assert self._server is not None
        try:
            asyncio.run(self._server.serve(sockets=[sock]))
        except BaseException as exc:  # reported by start()/stop()
            self._failure = exc
        finally:
            sock.close()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving and free the port (idempotent)."""
        server, thread = self._server, self._thread
        if server is not None and thread is not None:
            server.should_exit = True
            thread.join(timeout)
            if thread.is_alive():
                server.force_exit = True
                thread.join(timeout)
        self._server = self._thread = None
        if self._backend is not None:
            self._backend.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    async def __aenter__(self) -> Self:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await asyncio.to_thread(self.stop)

    # -- where and who -----------------------------------------------------------------------------

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            raise RuntimeError("the simulator has not been started")
        return self._backend

    @property
    def base_url(self) -> str:
        """The API's base URL, e.g. ``http://127.0.0.1:54321``."""
        return self.backend.base_url

    @property
    def auth_url(self) -> str:
        """The identity provider's ``auth_url`` (``{auth_url}/realms/{realm}/...``)."""
        return self.backend.base_url + self.settings.auth_prefix

    @property
    def realm(self) -> str:
        return self.settings.realm

    @property
    def token_url(self) -> str:
        return f"{self.backend.idp.issuer}/protocol/openid-connect/token"

    def user(self, role: str = "admin") -> UserCredentials:
        """The first user with ``role`` (``admin``, ``custom`` or ``readonly``)."""
        for user in self.settings.users:
            if role in user.roles:
                return user
        raise KeyError(f"no user with role {role!r}")

    def client_credentials(self, kind: str = "cli") -> ClientCredentials:
        """The confidential client of ``kind`` (``graphical``, ``operator`` or ``cli``)."""
        for client in self.settings.clients:
            if client.kind == kind:
                return client
        raise KeyError(f"no client of kind {kind!r}")

    def env(self, role: str = "admin", kind: str = "graphical") -> dict[str, str]:
        """``PRINTMGMT_*`` variables for :meth:`printmgmt.PrintClient.from_env` (they hold secrets): the user
        with ``role`` through the client of ``kind``, by default the Administrator's (``graphical``), whose
        roles see every area, statistics included, so that every command works with them."""
        user, client = self.user(role), self.client_credentials(kind)
        return {
            "PRINTMGMT_BASE_URL": self.base_url,
            "PRINTMGMT_AUTH_URL": self.auth_url,
            "PRINTMGMT_REALM": self.realm,
            "PRINTMGMT_CLIENT_ID": client.client_id,
            "PRINTMGMT_CLIENT_SECRET": client.secret,
            "PRINTMGMT_USERNAME": user.username,
            "PRINTMGMT_PASSWORD": user.password,
        }

    def password_auth(self, role: str = "admin", kind: str = "cli", **kwargs: Any) -> PasswordAuth:
        """A :class:`printmgmt.PasswordAuth` for the user with ``role`` through the client of ``kind``."""
        from printmgmt import PasswordAuth

        user, client = self.user(role), self.client_credentials(kind)
        return PasswordAuth(
            auth_url=self.auth_url,
            realm=self.realm,
            client_id=client.client_id,
            client_secret=client.secret,
            username=user.username,
            password=user.password,
            **kwargs,
        )

    def client(self, role: str = "admin", kind: str = "cli", **kwargs: Any) -> PrintClient:
        """A :class:`printmgmt.PrintClient` signed in as the user with ``role`` (close it after use)."""
        from printmgmt import PrintClient

        return PrintClient(self.base_url, auth=self.password_auth(role, kind), **kwargs)

    def sync_client(self, role: str = "admin", kind: str = "cli", **kwargs: Any) -> SyncPrintClient:
        """A :class:`printmgmt.sync.PrintClient` signed in as the user with ``role`` (close it after use)."""
        from printmgmt.sync import PrintClient

        return PrintClient(self.base_url, auth=self.password_auth(role, kind), **kwargs)

    def token(self, role: str = "admin", kind: str = "cli", *, ttl: float | None = None) -> str:
        """An access token minted directly (no token request); a negative ``ttl`` gives an expired one."""
        return self.backend.idp.issue(self.user(role).username, self.client_credentials(kind).client_id, ttl=ttl)

    # -- state -------------------------------------------------------------------------------------

    @property
    def store(self) -> Store:
        return self.backend.store

    @property
    def clock(self) -> SimClock:
        return self.backend.clock

    @property
    def faults(self) -> Faults:
        return self.settings.faults

    @property
    def traffic(self) -> Traffic:
        """Requests and connections the server has seen since the last reset."""
        return self.backend.traffic

    def reset(self) -> None:
        """Back to the freshly seeded state without restarting the server (see ``Backend.reset``)."""
        self.backend.reset()

    def revoke_tokens(self) -> None:
        """Sign out every session: tokens issued so far answer 401 and cannot be refreshed."""
        self.backend.idp.revoke()

    def advance(self, seconds: float) -> int:
        """Move simulated time forward and apply the automatic steps now due; return how many jobs changed."""
        self.clock.advance(seconds)
        changed = 0
        while step := self.backend.advance():
            changed += step
        return changed


@asynccontextmanager
async def run_simulator(settings: Settings | None = None, **overrides: Any) -> AsyncIterator[Simulator]:
    """Start a :class:`Simulator` on a free loopback port for the duration of the ``async with``."""
    async with Simulator(settings, **overrides) as sim:
        yield sim
