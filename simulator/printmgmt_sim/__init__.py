"""printmgmt_sim: a local print server (PLOSSYS Output Engine ``seal-rest`` v3) with a Keycloak-like realm.

For demos, notebooks and integration tests of the ``printmgmt`` SDK::

    from printmgmt_sim import run_simulator

    async with run_simulator(seed=1, speed=0) as sim:
        async with sim.client(role="admin") as client:
            page = await client.jobs.list(filter="status eq 'Error'", top=10, count=True)

Or from a shell: ``python -m printmgmt_sim --port 8080``. The SDK never imports this package.

Modules: :mod:`~printmgmt_sim.api` (the operations), :mod:`~printmgmt_sim.access` (401/403),
:mod:`~printmgmt_sim.rules` (actions and their 412 rules), :mod:`~printmgmt_sim.lifecycle` (automatic job
progress), :mod:`~printmgmt_sim.arrivals` (new jobs as the clock runs), :mod:`~printmgmt_sim.engine` (list
queries), :mod:`~printmgmt_sim.idp` (tokens),
:mod:`~printmgmt_sim.faults` (fault injection), :mod:`~printmgmt_sim.traffic` (what reached the server),
:mod:`~printmgmt_sim.store` and :mod:`~printmgmt_sim.seed` (state and demo data),
:mod:`~printmgmt_sim.server` (running it) and :mod:`~printmgmt_sim.pytest_plugin` (the ``print_server``
fixture).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .faults import Faults
    from .server import Simulator, run_simulator
    from .settings import ClientCredentials, Settings, UserCredentials
    from .variants import Variants

__all__ = [
    "ClientCredentials",
    "Faults",
    "Settings",
    "Simulator",
    "UserCredentials",
    "Variants",
    "main",
    "run_simulator",
]

#: What the ``sim`` extra installs (``pip install 'printmgmt[sim]'``).
SIM_EXTRA: Final = frozenset(
    {"starlette", "uvicorn", "joserfc", "mongomock", "bson", "pymongo", "pcre2", "anyio", "h11", "click"}
)
INSTALL_HINT: Final = "the printmgmt simulator needs its extra: pip install 'printmgmt[sim]'"


def main() -> int:
    """The ``printmgmt-sim`` command; without the ``sim`` extra, say how to install it and exit 2."""
    try:
        from .__main__ import main as run
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in SIM_EXTRA:
            raise
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    return run()


# Imported on first use: the pytest plugin is registered for every install of printmgmt, and must load
# (without starlette, uvicorn and joserfc) where the [sim] extra is not installed.
_HOMES = {
    "Faults": "faults",
    "Simulator": "server",
    "run_simulator": "server",
    "ClientCredentials": "settings",
    "Settings": "settings",
    "UserCredentials": "settings",
    "Variants": "variants",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)


def __dir__() -> list[str]:
    return sorted(__all__)
