"""Check the simulator against ``openapi.yaml`` with schemathesis (every operation, ``--checks all``).

    python simulator/run_schemathesis.py [more schemathesis run options]

Starts a frozen simulator on a free loopback port, signs in as the admin through the realm's token
endpoint (the graphical client, whose roles see every area, statistics included), runs ``schemathesis run``
with ``simulator/schemathesis.toml`` (fixed seed, bounded examples; the file explains its settings, and which
of schemathesis' warnings are expected where) in a scratch directory, stops the simulator and exits with
schemathesis' exit code.

The one line the simulator would print, ``Invalid HTTP request received.``, is expected and left out here
(:class:`ProbeRefused`): schemathesis first probes whether the server takes a NUL byte in a header, and the
simulator refuses that request, as a real server does.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
SPEC = HERE.parent / "openapi.yaml"
CONFIG = HERE / "schemathesis.toml"

if __package__ in (None, ""):  # run as a script from a checkout
    sys.path.insert(0, str(HERE))

from printmgmt_sim import Simulator  # noqa: E402


class ProbeRefused(logging.Filter):
    """Leaves out uvicorn's report of the request it refuses (schemathesis' NUL-byte probe); the refusal itself
    is what the probe expects, and schemathesis reports it ("Supports NULL byte in headers: ✘")."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Invalid HTTP request received."


def main(argv: Sequence[str] | None = None) -> int:
    extra = list(sys.argv[1:] if argv is None else argv)
    logging.getLogger("uvicorn.error").addFilter(ProbeRefused())
    with Simulator(jobs=50, speed=0, access_ttl=3600) as sim, tempfile.TemporaryDirectory() as scratch:
        user, client = sim.user("admin"), sim.client_credentials("graphical")
        response = httpx.post(
            sim.token_url,
            data={
                "grant_type": "password",
                "client_id": client.client_id,
                "client_secret": client.secret,
                "username": user.username,
                "password": user.password,
            },
            timeout=10,
        )
        response.raise_for_status()
        token = response.json()["access_token"]
        command = [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "--config-file",
            str(CONFIG),
            "run",
            str(SPEC),
            "--url",
            sim.base_url,
            "--checks",
            "all",
            "--header",
            f"Authorization: Bearer {token}",
            *extra,
        ]
        return subprocess.run(command, cwd=scratch, timeout=900, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
