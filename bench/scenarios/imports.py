"""Scenario 6: import time of ``printmgmt`` against ``httpx`` + ``attrs``, in fresh interpreters.

Each run is a new ``python -c "import ..."``; the two are interleaved so that both see the same machine
load. Bytecode writing is allowed and a warm-up run comes first, so both sides load cached ``.pyc`` files
as an installed package would. ``-X importtime`` then names the modules that cost most themselves.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

from ..context import Context
from ..stats import ratio, summarize

__all__ = ["run"]

SDK = "import printmgmt"
#: What a program does next; with lazy imports in printmgmt, this is where their cost shows.
SDK_CLIENT = "from printmgmt import PrintClient"
BASELINE = "import httpx, attrs"
#: Every asyncio program has loaded asyncio before it makes a client; httpx alone does not load it.
ASYNC_BASELINE = "import asyncio, httpx, attrs"
_ROOT = Path(__file__).resolve().parents[2]


class Row(TypedDict):
    """One module of an ``-X importtime`` profile."""

    module: str
    self_us: int
    cumulative_us: int
    depth: int


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # users' installs have .pyc files; compiling is not importing
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def _wall(statement: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True, env=env, cwd=_ROOT)
    return time.perf_counter() - started


def _importtime(statement: str, env: dict[str, str]) -> dict[str, Row]:
    """``-X importtime`` of one fresh interpreter: per module, self and cumulative microseconds and depth."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement],
        check=True,
        env=env,
        cwd=_ROOT,
        capture_output=True,
        text=True,
    )
    rows: dict[str, Row] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, name = line.removeprefix("import time:").split("|")
        module = name.strip()
        # importtime indents a module two spaces per level under the one that imported it
        depth = (len(name.rstrip()) - len(module) - 1) // 2
        rows[module] = {"module": module, "self_us": int(self_us), "cumulative_us": int(cumulative_us), "depth": depth}
    return rows


def _median_rows(profiles: list[dict[str, Row]]) -> list[Row]:
    """Per module, the median over the profiles (a module missing from one counts 0 there), by self time."""
    modules = {module for rows in profiles for module in rows}
    merged: list[Row] = []
    for module in modules:
        present = [rows[module] for rows in profiles if module in rows]
        selfs = [row["self_us"] for row in present] + [0] * (len(profiles) - len(present))
        cumulative = [row["cumulative_us"] for row in present] + [0] * (len(profiles) - len(present))
        merged.append(
            {
                "module": module,
                "self_us": int(statistics.median(selfs)),
                "cumulative_us": int(statistics.median(cumulative)),
                "depth": present[0]["depth"],
            }
        )
    return sorted(merged, key=lambda row: row["self_us"], reverse=True)


def _by_package(rows: list[Row]) -> dict[str, float]:
    """Self milliseconds per top-level package, largest first."""
    totals: dict[str, float] = {}
    for row in rows:
        package = row["module"].split(".")[0]
        totals[package] = totals.get(package, 0.0) + row["self_us"] / 1e3
    return dict(sorted(totals.items(), key=lambda item: item[1], reverse=True)[:12])


def run(context: Context) -> dict[str, Any]:
    """Median of ``runs`` fresh interpreters each (at least 15 in a full run)."""
    env = _env()
    runs = 5 if context.quick else 21
    statements = (SDK, SDK_CLIENT, BASELINE, ASYNC_BASELINE, "pass")
    for statement in statements:
        _wall(statement, env)  # warm-up: writes the .pyc files and fills the OS file cache
    walls: dict[str, list[float]] = {statement: [] for statement in statements}
    for _ in range(runs):
        for statement in statements:
            walls[statement].append(_wall(statement, env))
    # interpreter start-up is the same on both sides; without it the ratio compares the imports alone
    startup = walls["pass"]
    alone = {statement: [w - p for w, p in zip(walls[statement], startup, strict=True)] for statement in statements}
    sdk_rows = _median_rows([_importtime(SDK, env) for _ in range(3)])
    client_rows = _median_rows([_importtime(SDK_CLIENT, env) for _ in range(3)])
    baseline_modules = set(_importtime(BASELINE, env))
    # what getting a PrintClient loads beyond httpx and attrs: the candidates for lazy imports
    extra = [row for row in client_rows if row["module"] not in baseline_modules]
    children = sorted(
        (row for row in client_rows if row["depth"] == 1 and row["module"].startswith("printmgmt.")),
        key=lambda row: row["cumulative_us"],
        reverse=True,
    )
    context.log("imports: done")
    return {
        "runs": runs,
        "wall_s": {statement: summarize(values) for statement, values in walls.items()},
        "ratio_with_startup": ratio(walls[SDK], walls[BASELINE]),
        "ratio_imports_only": ratio(alone[SDK], alone[BASELINE]),
        "client_ratio_with_startup": ratio(walls[SDK_CLIENT], walls[BASELINE]),
        "client_ratio_imports_only": ratio(alone[SDK_CLIENT], alone[BASELINE]),
        "client_ratio_to_asyncio_baseline": ratio(walls[SDK_CLIENT], walls[ASYNC_BASELINE]),
        "importtime_note": "-X importtime, median of 3 interpreters",
        "importtime_top_self": sdk_rows[:10],
        "importtime_self_ms_by_package": _by_package(sdk_rows),
        "client_importtime_top_self": client_rows[:10],
        "client_importtime_self_ms_by_package": _by_package(client_rows),
        "not_in_baseline_top_self": extra[:10],
        "not_in_baseline_self_ms": sum(row["self_us"] for row in extra) / 1e3,
        "not_in_baseline_self_ms_by_package": _by_package(extra),
        "printmgmt_submodules_cumulative": children[:10],
    }
