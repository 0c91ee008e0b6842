"""Run by tests/wheel/smoke.py with an installed wheel's interpreter, from a directory outside the repo."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

extra = sys.argv[1]
has_cli = extra in ("cli", "all")
has_sim = extra in ("sim", "all")

import printmgmt  # noqa: E402
from printmgmt import PrintClient, odata  # noqa: E402

assert "site-packages" in printmgmt.__file__, f"printmgmt imported from {printmgmt.__file__}, not the wheel"
assert str(odata.field("status") == "Error") == "status eq 'Error'"
PrintClient("https://print.example", auth="token")
from printmgmt.sync import PrintClient as SyncPrintClient  # noqa: E402

SyncPrintClient("https://print.example", auth="token").close()

bin_dir = Path(sys.executable).parent
for command, available, hint in (
    ("printmgmt", has_cli, "pip install 'printmgmt[cli]'"),
    ("printmgmt-sim", has_sim, "pip install 'printmgmt[sim]'"),
):
    done = subprocess.run([bin_dir / command, "--help"], capture_output=True, text=True)
    if available:
        assert done.returncode == 0, (command, done.returncode, done.stderr[-2000:])
    else:
        assert done.returncode == 2, (command, done.returncode, done.stderr[-2000:])
        assert hint in done.stderr, (command, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, done.stderr[-2000:]

if extra in ("aiohttp", "all"):
    PrintClient("https://print.example", auth="token", transport="aiohttp")
if extra in ("pandas", "all"):
    import pandas  # noqa: F401

    from printmgmt import to_pandas  # noqa: F401

if extra in ("otel", "all"):
    import opentelemetry.trace  # noqa: F401

    import printmgmt._tracing

    printmgmt._tracing._get_tracer()  # None until an SDK is configured, but opentelemetry has been found
    assert printmgmt._tracing._trace is not None, "opentelemetry-api installed but not used"

if has_sim:
    from printmgmt_sim import Simulator

    async def one_call(sim: Simulator) -> None:
        async with sim.client("admin") as client:
            page = await client.jobs.list(top=3, count=True)
            assert len(page.items) == 3 and page.total, page

    with Simulator(jobs=20) as simulator:
        asyncio.run(one_call(simulator))
        with simulator.sync_client("admin") as sync_client:
            assert len(sync_client.jobs.list(top=2).items) == 2
print(f"check.py ({extra or 'no extra'}): ok")
