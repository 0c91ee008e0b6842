"""Load: 10,000 calls from 200 concurrent callers through one client whose tokens live 3 seconds.

No call may fail, the token must be renewed once per lifetime by one shared token request (not once per
waiting caller), the pool limit must hold on both ends, and closing the client must leave no connection.

The simulator runs in a subprocess (``python -m printmgmt_sim``) so that it has its own core and its own
interpreter lock: in a thread of the test process, the server and the 200 callers share one core and the
run takes three times as long. It writes what it saw to ``--stats-file`` when it is stopped.

The client's CPU bounds the run: ~5-6 ms per call inside httpx/httpcore, 40 % of it a failing
``import sniffio`` that httpcore repeats for every lock it creates when sniffio is not installed (anyio 4.16
no longer pulls it in). On a 2-core machine: 53-78 s without sniffio, ~40 s with it.
``PRINTMGMT_LOAD_CALLS`` changes the number of calls (default 10,000).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sim_helpers import established_to, eventually, loop_transport, port_of

from printmgmt import PrintClient
from printmgmt.auth import DEFAULT_LEEWAY

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

CALLS = int(os.environ.get("PRINTMGMT_LOAD_CALLS", "10000"))
CONCURRENCY = 200
POOL_LIMIT = 50
ACCESS_TTL = 3  # seconds
#: A token is renewed this long before it expires (auth.py: a tenth of its lifetime, at most 30 s, at least 1 s)
MARGIN = min(DEFAULT_LEEWAY, max(1.0, ACCESS_TTL / 10))
#: So one token request is due every this many seconds
RENEWAL = ACCESS_TTL - MARGIN
#: Longest the run may take before it counts as stalled (the slowest run seen here took 78 s).
HANG_GUARD = max(30.0, CALLS * 0.018)


class Server:
    """A simulator subprocess: its environment for ``PrintClient.from_env`` and, once stopped, its stats."""

    def __init__(self, process: subprocess.Popen[str], env: dict[str, str], stats_file: Path) -> None:
        self.process = process
        self.env = env
        self.stats_file = stats_file
        self.port = port_of(env["PRINTMGMT_BASE_URL"])

    def stop(self) -> dict[str, Any]:
        """SIGTERM; the simulator writes its stats before it stops serving."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)
        stats: dict[str, Any] = json.loads(self.stats_file.read_text())
        return stats


@pytest.fixture
def load_server(tmp_path: Path) -> Iterator[Server]:
    env_file, stats_file = tmp_path / "sim.env", tmp_path / "stats.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRINTMGMT_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "simulator"), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "printmgmt_sim", "--port", "0", "--jobs", "300", "--speed", "0"]
    command += ["--access-ttl", str(ACCESS_TTL), "--env-file", str(env_file), "--stats-file", str(stats_file)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("printmgmt simulator:")  # the env file is written
        variables = dict(line.split("=", 1) for line in env_file.read_text().splitlines())
        yield Server(process, variables, stats_file)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stdout is not None
        process.stdout.close()


def server_side_sockets(port: int) -> int:
    """The server's ends of connections on ``port`` still open (ESTABLISHED or CLOSE_WAIT)."""
    count = 0
    with open("/proc/net/tcp") as lines:
        next(lines)
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            if state in ("01", "08") and int(local.rsplit(":", 1)[1], 16) == port:
                count += 1
    return count


async def test_ten_thousand_calls_with_short_lived_tokens(load_server: Server) -> None:
    client = PrintClient.from_env(load_server.env, limits=httpx.Limits(max_connections=POOL_LIMIT))
    job_id = (await client.jobs.list(top=1)).items[0].id
    pool = loop_transport(client)._pool  # type: ignore[union-attr]
    calls: list[Callable[[], Awaitable[object]]] = [
        lambda: client.version_info(),
        lambda: client.printers.get("printer1"),
        lambda: client.jobs.get(job_id),
        lambda: client.jobs.list(top=5),
        lambda: client.auth.user_roles(),
    ]
    tickets = itertools.count()
    failures: list[BaseException] = []
    most_pooled = completed = 0
    done = asyncio.Event()

    async def caller() -> None:
        nonlocal completed
        while (n := next(tickets)) < CALLS:
            try:
                await calls[n % len(calls)]()
            except Exception as exc:
                failures.append(exc)
            completed += 1

    async def watch_pool() -> None:
        nonlocal most_pooled
        while not done.is_set():
            most_pooled = max(most_pooled, len(pool.connections))
            await asyncio.sleep(0.01)

    watcher = asyncio.create_task(watch_pool())
    started = time.monotonic()
    try:
        async with asyncio.timeout(HANG_GUARD):
            await asyncio.gather(*(caller() for _ in range(CONCURRENCY)))
    except TimeoutError:
        pytest.fail(f"stalled: {completed} of {CALLS} calls done in {HANG_GUARD:.0f} s, {len(failures)} failed")
    finally:
        duration = time.monotonic() - started
        done.set()
        await watcher
        await client.aclose()
    assert pool.connections == []
    assert await eventually(lambda: established_to(load_server.port) == 0)
    assert await eventually(lambda: server_side_sockets(load_server.port) == 0)
    stats = load_server.stop()

    grants = [at for at, _grant in stats["token_grants"]]
    gaps = [later - earlier for earlier, later in itertools.pairwise(grants)]
    api = {route: n for route, n in stats["statuses"].items() if " /v3/" in route}
    answered = sum(n for route, n in api.items() if route.endswith(" 200"))
    renewals_allowed = math.ceil(duration / RENEWAL) + 1
    figures = {
        "calls": CALLS,
        "concurrency": CONCURRENCY,
        "duration_s": round(duration, 1),
        "calls_per_s": round(CALLS / duration),
        "failures": len(failures),
        "token_requests": len(grants),
        "token_requests_allowed": renewals_allowed,
        "shortest_gap_between_grants_s": round(min(gaps), 2) if gaps else None,
        "api_401": sum(n for route, n in api.items() if route.endswith(" 401")),
        "max_connections_server": stats["max_connections"],
        "max_connections_client_pool": most_pooled,
        "connections_opened": stats["connections"],
    }
    print("\nload:", json.dumps(figures))
    assert not failures, f"{len(failures)} failed calls, e.g. {failures[:3]!r}"
    assert answered == CALLS + 1  # each call answered exactly once (plus the job lookup)
    # one token request per lifetime, shared by every caller: never two within one lifetime window
    assert stats["idp_counts"]["password"] == 1
    assert not [name for name in stats["idp_counts"] if name.startswith("refused")]
    assert len(grants) <= renewals_allowed
    assert gaps
    assert min(gaps) >= 0.8 * RENEWAL
    # the pool limit holds on both ends, and nothing is left open
    assert stats["max_connections"] <= POOL_LIMIT
    assert most_pooled <= POOL_LIMIT
    assert stats["open_connections"] == 0
