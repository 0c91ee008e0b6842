"""A tour of the printmgmt SDK: sign in, look around, act on a printer and jobs, read a log.

Runs against the server named by the ``PRINTMGMT_*`` variables (see ``PrintClient.from_env``), or, when
``PRINTMGMT_BASE_URL`` is not set, against a local simulator it starts itself (``printmgmt[sim]``).

    python examples/demo.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from printmgmt import PasswordAuth, PrintClient, odata
from printmgmt.errors import Forbidden, PreconditionFailed, PrintMgmtError


@asynccontextmanager
async def connect() -> AsyncIterator[PrintClient]:
    """A client for the configured server, or for a simulator started for this demo."""
    if os.environ.get("PRINTMGMT_BASE_URL"):
        async with PrintClient.from_env() as client:
            yield client
        return
    from printmgmt_sim import run_simulator  # only needed without a server of your own

    async with run_simulator(seed=1, speed=1.0) as sim:
        print(f"started a simulator at {sim.base_url}")
        # the Administrator's client: in a default deployment only its roles see the dashboard (statistics)
        user, app = sim.user("admin"), sim.client_credentials("graphical")
        auth = PasswordAuth(
            auth_url=sim.auth_url,
            realm=sim.realm,
            client_id=app.client_id,
            client_secret=app.secret,
            username=user.username,
            password=user.password,
        )
        async with PrintClient(sim.base_url, auth=auth) as client:
            yield client


async def tour(client: PrintClient) -> None:
    roles = await client.auth.user_roles()
    print(f"\nsigned in as {roles.user} with roles {', '.join(roles.roles or [])}")

    printers = await client.printers.list(top=5, orderby="_id", count=True)
    print(f"\n{printers.total} printers, the first {len(printers)}:")
    for printer in printers:
        if runtime := printer.runtime:  # a field the server may leave out: one `if` narrows it
            print(f"  {printer.id:<16} {runtime.status or '?':<9} queued {runtime.queued_jobs}")

    errors = odata.field("status") == "Error"
    print("\nfailed jobs, newest first, 100 per page:")
    pages = client.jobs.iterate(filter=errors, orderby="current/checkinTime desc", page_size=100)
    async for page in pages.by_page():
        if page.skip == 0:
            for job in page.items[:3]:
                if current := job.current:
                    when = f"{checked_in:%Y-%m-%d %H:%M}" if (checked_in := current.checkin_time_utc) else "?"
                    print(f"  {job.id}  {when}  {current.user_name or '?':<10} {current.job_name}")
        print(f"  page at {page.skip:>3}: {len(page)} jobs (of {page.total})")

    target = printers.items[0].id
    await client.printers.pause(target)
    print(f"\npaused printer {target}")
    try:
        await client.printers.pause(target)
    except PreconditionFailed as refused:
        print(f"pausing it again is refused: {refused.status_code} {refused.message}")
    await client.printers.resume(target)

    # jobs held in the queue of a paused printer stay put while we act on them
    waiting = odata.field("status") == "WaitProcessing"
    held = await client.printers.list(filter="runtime/status eq 'paused'", top=1)
    jobs = (await client.jobs.list(filter=waiting & (odata.field("current/printerName") == held[0].id), top=2)).items
    if len(jobs) < 2:
        jobs = (await client.jobs.list(filter=waiting, orderby="_id", top=2)).items
    moved, canceled = jobs
    origin = moved.current.printer_name if moved.current else None
    destination = next(p.id for p in printers if p.id != origin)
    try:
        await client.jobs.move(moved.id, printer=destination)
        print(f"\nmoved job {moved.id} from {origin} to {destination}")
        await client.jobs.cancel(canceled.id)
        print(f"canceled job {canceled.id}: now {(await client.jobs.get(canceled.id)).status}")
    except PreconditionFailed as refused:  # a job may have moved on meanwhile
        print(f"\n{refused}")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{canceled.id}.log"
        size = await client.jobs.logfile(canceled.id, to=path)
        lines = path.read_text().splitlines()
    print(f"\nits log file ({size} bytes), last lines:")
    for line in lines[-3:]:
        print(f"  {line}")

    try:
        counts = await client.statistics.job_count()
        printer_counts = await client.statistics.printer_count()
    except Forbidden as refused:  # statistics are the dashboard area: granted per client (see README)
        print(f"\n{refused}")
        return
    by_status = Counter({status: n for status, n in counts["byStatus"].items() if n})
    print(f"\n{counts['total']} jobs: " + ", ".join(f"{status} {n}" for status, n in by_status.most_common(5)))
    print(f"{printer_counts['total']} printers: {printer_counts['byStatus']}")


async def main() -> int:
    try:
        async with connect() as client:
            await tour(client)
    except PrintMgmtError as exc:
        print(f"demo failed: {exc}", file=sys.stderr)
        return 1
    print("\ndone")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
