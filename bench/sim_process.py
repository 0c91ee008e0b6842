"""The simulator in its own process, driven over a pipe (its counters stay readable while it serves).

The bench process never shares a GIL with the server: the end-to-end figures then measure the client
and the server side by side, as in a deployment.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["SimHandle", "run_simulator"]


def _serve(conn: Connection, overrides: dict[str, Any]) -> None:
    from printmgmt_sim import Simulator

    with Simulator(**overrides) as sim:
        user, client = sim.user("admin"), sim.client_credentials("cli")
        conn.send(
            {
                "base_url": sim.base_url,
                "auth_url": sim.auth_url,
                "realm": sim.realm,
                "client_id": client.client_id,
                "client_secret": client.secret,
                "username": user.username,
                "password": user.password,
            }
        )
        while True:
            command = conn.recv()
            if command == "grants":
                conn.send(dict(sim.backend.idp.counts))
            elif command == "requests":
                conn.send(dict(sim.traffic.snapshot()["requests"]))
            else:  # "stop"
                conn.send(None)
                return


@dataclass(slots=True)
class SimHandle:
    """A running simulator process: where it is, how to sign in, and its counters."""

    info: dict[str, Any]
    pid: int
    _conn: Connection

    def _ask(self, command: str) -> Any:
        self._conn.send(command)
        return self._conn.recv()

    def token_grants(self) -> int:
        """Token grants (password and refresh) the identity provider has answered so far."""
        counts: dict[str, int] = self._ask("grants")
        return sum(n for kind, n in counts.items() if not kind.startswith("refused:"))

    def requests(self) -> dict[str, int]:
        """Requests per ``"METHOD /path"`` so far."""
        result: dict[str, int] = self._ask("requests")
        return result


@contextmanager
def run_simulator(cpus: set[int] | None = None, **overrides: Any) -> Iterator[SimHandle]:
    """A simulator in a child process for the ``with``; stopped over the pipe, else by its PID."""
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_serve, args=(child, overrides), name="bench-simulator", daemon=True)
    process.start()
    try:
        assert process.pid is not None
        if cpus and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(process.pid, cpus)
        deadline = time.monotonic() + 60
        while not parent.poll(0.1):
            if not process.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the simulator did not start (exit code {process.exitcode})")
        handle = SimHandle(parent.recv(), process.pid, parent)
        yield handle
        handle._ask("stop")
    finally:
        process.join(10)
        if process.is_alive():
            process.terminate()
            process.join(5)
        if process.is_alive():
            process.kill()
            process.join()
        parent.close()
        child.close()
