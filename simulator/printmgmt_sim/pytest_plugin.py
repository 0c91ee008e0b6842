"""pytest plugin of ``printmgmt[sim]``: a running simulator and a ready ``PrintClient`` per test.

Installed (``printmgmt-sim``), it registers itself through the ``pytest11`` entry point; otherwise add
``pytest_plugins = ["printmgmt_sim.pytest_plugin"]`` to a top-level ``conftest.py``.

::

    async def test_errors_are_listed(print_server):
        page = await print_server.client.jobs.list(filter="status eq 'Error'", count=True)
        assert page.total

    @pytest.mark.print_server(jobs=50, access_ttl=2)
    async def test_readonly_cannot_pause(print_server):
        async with print_server.client_as("readonly") as client:
            ...

``--print-server-profile FILE`` (or a marker's ``profile=FILE``) makes every fixture's simulator answer as the
server ``printmgmt doctor --write-profile FILE`` probed: a suite then runs "as our production server answers".

Fixtures: ``print_simulator`` (a started :class:`~printmgmt_sim.Simulator`, usable from sync tests) and
``print_server`` (async: the simulator plus ``client``, a :class:`printmgmt.PrintClient` of the admin user
through the Administrator's client, kind ``graphical``, whose roles see every area, statistics included;
``client_as(role)`` uses the SDK's default kind ``cli``, to which statistics answer 403 as on a real server). The
marker's keyword arguments override any :class:`~printmgmt_sim.Settings` field; by default the clock is
frozen (``speed=0``), 300 jobs are seeded and no new ones arrive (``arrivals_per_hour=0``).

Every test starts from the freshly seeded state: the first test with given settings starts a
simulator, later ones with the same settings reuse its server after :meth:`~printmgmt_sim.Simulator.reset`
(new seeded data, clock and faults; a restart costs ~0.3 s, a reset a few ms per hundred jobs). The
servers stop at the end of the session. Tests that stop or restart a simulator should run their own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

import pytest

if TYPE_CHECKING:
    from printmgmt import PrintClient
    from printmgmt.sync import PrintClient as SyncPrintClient

    from .server import Simulator

# The plugin is registered by every install of printmgmt, with or without the [sim] extra: nothing
# beyond pytest is imported until a fixture is used.

__all__ = ["DEFAULTS", "PrintServer", "SyncPrintServer", "print_server", "print_simulator", "sync_print_server"]

#: Settings of the fixtures' simulators unless a ``print_server`` marker says otherwise.
DEFAULTS: Final[dict[str, Any]] = {"speed": 0.0, "jobs": 300, "arrivals_per_hour": 0.0}


C = TypeVar("C")


class _Server(Generic[C]):
    """A running simulator (``sim``) and an admin client that sees every area (``client``); more clients with
    :meth:`client_as`, all closed with the fixture."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self._clients: list[C] = []
        self.client = self.client_as("admin", "graphical")

    @property
    def base_url(self) -> str:
        return self.sim.base_url

    def _make(self, role: str, kind: str, **kwargs: Any) -> C:
        raise NotImplementedError

    def client_as(self, role: str, kind: str = "cli", **kwargs: Any) -> C:
        """A client signed in as the user with ``role``; closed with the fixture."""
        client = self._make(role, kind, **kwargs)
        self._clients.append(client)
        return client


class PrintServer(_Server["PrintClient"]):
    """The simulator with async clients (:class:`printmgmt.PrintClient`)."""

    def _make(self, role: str, kind: str, **kwargs: Any) -> PrintClient:
        return self.sim.client(role, kind, **kwargs)

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()


class SyncPrintServer(_Server["SyncPrintClient"]):
    """The simulator with sync clients (:class:`printmgmt.sync.PrintClient`)."""

    def _make(self, role: str, kind: str, **kwargs: Any) -> SyncPrintClient:
        return self.sim.sync_client(role, kind, **kwargs)

    def close(self) -> None:
        for client in self._clients:
            client.close()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("printmgmt").addoption(
        "--print-server-profile",
        metavar="FILE",
        default=None,
        help="run the print_server fixtures' simulators as the server that printmgmt doctor --write-profile FILE "
        "probed (a marker's profile= or settings still win)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "print_server(**settings): settings of the print_server/print_simulator fixtures' simulator "
        "(profile=FILE: as a server printmgmt doctor --write-profile probed)",
    )


@pytest.fixture(scope="session")
def _print_simulators() -> Iterator[dict[str, Simulator]]:
    """The session's running simulators, by settings."""
    running: dict[str, Simulator] = {}
    try:
        yield running
    finally:
        for sim in running.values():
            sim.stop()


@pytest.fixture
def print_simulator(request: pytest.FixtureRequest, _print_simulators: dict[str, Simulator]) -> Simulator:
    """A running simulator on a free loopback port, in its freshly seeded state."""
    try:
        from .faults import Faults
        from .server import Simulator
    except ImportError as exc:
        from . import INSTALL_HINT

        pytest.fail(f"{INSTALL_HINT} (the print_server fixtures: {exc})", pytrace=False)
    marker = request.node.get_closest_marker("print_server")
    settings = {**DEFAULTS, **(marker.kwargs if marker else {})}
    if "profile" not in settings and (profile := request.config.getoption("print_server_profile", None)):
        settings["profile"] = profile
    if isinstance(settings.get("faults"), Faults):  # the simulator gets a copy: tests change its knobs
        settings["faults"] = Faults(**settings["faults"].snapshot())
    key = repr(sorted(settings.items()))
    sim = _print_simulators.get(key)
    if sim is None:
        sim = _print_simulators[key] = Simulator(**settings).start()
    else:
        sim.reset()
    return sim


async def _print_server(print_simulator: Simulator) -> AsyncIterator[PrintServer]:
    """The simulator and a ready admin ``PrintClient``."""
    server = PrintServer(print_simulator)
    try:
        yield server
    finally:
        await server.aclose()


try:  # pytest-asyncio in strict mode only runs fixtures it decorated; anyio's plugin runs plain ones
    import pytest_asyncio

    print_server = pytest_asyncio.fixture(_print_server, name="print_server")
except ImportError:  # pragma: no cover - depends on the user's plugins
    print_server = pytest.fixture(_print_server, name="print_server")


@pytest.fixture
def sync_print_server(print_simulator: Simulator) -> Iterator[SyncPrintServer]:
    """The simulator and a ready admin :class:`printmgmt.sync.PrintClient` (for sync code and tests)."""
    server = SyncPrintServer(print_simulator)
    try:
        yield server
    finally:
        server.close()
