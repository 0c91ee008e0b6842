"""Run by tests/wheel/smoke.py with an installed wheel's interpreter, from a directory outside the repo."""

from __future__ import annotations

import asyncio
import importlib.metadata
import subprocess
import sys
from pathlib import Path

extra = sys.argv[1]
extras = set(extra.split(","))
# printmgmt-sim brings printmgmt-cli (the server's profile)
has_cli = bool(extras & {"cli", "sim", "all"})
has_sim = bool(extras & {"sim", "all"})

import printmgmt  # noqa: E402
from printmgmt import PrintClient, odata  # noqa: E402

assert "site-packages" in printmgmt.__file__, f"printmgmt imported from {printmgmt.__file__}, not the wheel"
assert str(odata.field("status") == "Error") == "status eq 'Error'"
PrintClient("https://print.example", auth="token")
from printmgmt.sync import PrintClient as SyncPrintClient  # noqa: E402

SyncPrintClient("https://print.example", auth="token").close()

bin_dir = Path(sys.executable).parent
for command, available in (("printmgmt", has_cli), ("printmgmt-sim", has_sim)):
    if available:
        done = subprocess.run([bin_dir / command, "--help"], capture_output=True, text=True)
        assert done.returncode == 0, (command, done.returncode, done.stderr[-2000:])
    else:
        assert not (bin_dir / command).exists(), f"{command} is installed without its distribution"
# python -m printmgmt runs the command line, or says how to install it
done = subprocess.run([sys.executable, "-m", "printmgmt", "--help"], capture_output=True, text=True)
if has_cli:
    assert done.returncode == 0, done.stderr[-2000:]
else:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "pip install 'printmgmt[cli]'" in done.stderr and "Traceback" not in done.stderr, done.stderr[-2000:]
# the pytest plugin comes with the simulator alone: the SDK adds nothing to a user's test runs
plugins = {entry.value for entry in importlib.metadata.entry_points(group="pytest11")}
assert ("printmgmt_sim.pytest_plugin" in plugins) == has_sim, plugins

if extra in ("pandas", "all"):
    import pandas  # noqa: F401

    from printmgmt import to_pandas  # noqa: F401

if extra in ("otel", "all"):
    import opentelemetry.trace  # noqa: F401

    import printmgmt._tracing

    assert printmgmt._tracing._api() is not None, "opentelemetry-api installed but not used"

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
