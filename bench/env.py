"""The machine, interpreter and package versions a run measured, for the report's header."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["describe", "load_average"]

PACKAGES = (
    "printmgmt",
    "httpx",
    "httpcore",
    "h11",
    "anyio",
    "sniffio",
    "attrs",
    "aiohttp",
    "orjson",
    "starlette",
    "uvicorn",
)
_ROOT = Path(__file__).resolve().parent.parent


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _git() -> dict[str, Any]:
    """Commit and whether the SDK's sources differ from it (read-only git commands)."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    changed = git("status", "--porcelain", "--", "overlay", "generated", "templates")
    return {
        "commit": git("rev-parse", "--short", "HEAD"),
        "sdk_sources_modified": bool(changed) if changed is not None else None,
    }


def load_average() -> list[float] | None:
    """1, 5 and 15 minute load averages (other work on the machine makes figures noisier)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def describe(client_cpus: set[int] | None, server_cpus: set[int] | None) -> dict[str, Any]:
    """Everything the report's header shows."""
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "cpu": _cpu_model(),
            "cpus": os.cpu_count(),
            "memory_gb": _memory_gb(),
            "client_cpus": sorted(client_cpus) if client_cpus else None,
            "server_cpus": sorted(server_cpus) if server_cpus else None,
        },
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "executable": sys.executable,
        },
        "packages": {name: _version(name) for name in PACKAGES},
        "git": _git(),
        "load_average_start": load_average(),
    }
