"""cProfile helpers: the top functions of a profile as JSON-ready rows, and time per package."""

from __future__ import annotations

import cProfile
import pstats
from collections import Counter
from typing import Any, TypedDict

__all__ = ["Extra", "Row", "by_package", "extra_self_time", "new_profile", "top"]


class Row(TypedDict):
    """One function of a profile."""

    function: str
    calls: float
    self_ms: float
    cumulative_ms: float


def new_profile() -> cProfile.Profile:
    """A profiler on the default clock: a CPU-time clock costs a system call per event and would distort
    the profile more than the idle time it leaves out (which sits in the event loop's ``poll``)."""
    return cProfile.Profile()


def _is_wait(key: tuple[str, int, str]) -> bool:
    """The event loop's wait for I/O: idle time, not anyone's cost."""
    return key[0] == "~" and key[2].endswith("of 'select.epoll' objects>")


def _where(filename: str) -> str:
    """``package/module.py`` for files in site-packages, the repo or the standard library; else the name."""
    for marker in ("site-packages/", "overlay/", "generated/", "simulator/", "bench/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    if "/lib/python3" in filename:
        return "stdlib/" + filename.split("/lib/python3", 1)[1].split("/", 1)[-1]
    return filename


def _name(key: tuple[str, int, str]) -> str:
    filename, line, function = key
    if filename == "~":
        return function  # a builtin, e.g. "<method 'send' of '_socket.socket' objects>"
    return f"{_where(filename)}:{line}({function})"


def top(profile: cProfile.Profile, sort: str, limit: int = 15, *, per: int = 1) -> list[Row]:
    """The ``limit`` functions with most ``sort`` time ("tottime" or "cumulative"), in ms per ``per`` runs."""
    stats = pstats.Stats(profile)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    index = 2 if sort == "tottime" else 3
    rows = [(key, value) for key, value in raw.items() if not _is_wait(key)]
    ordered = sorted(rows, key=lambda item: item[1][index], reverse=True)[:limit]
    return [
        {
            "function": _name(key),
            "calls": value[1] / per,
            "self_ms": value[2] * 1e3 / per,
            "cumulative_ms": value[3] * 1e3 / per,
        }
        for key, value in ordered
    ]


def by_package(profile: cProfile.Profile) -> dict[str, float]:
    """Share of self time per top-level package (``printmgmt``, ``httpx``, ``stdlib/asyncio``...), leaving out the
    time the event loop sleeps in ``poll`` waiting for the server."""
    stats = pstats.Stats(profile)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    totals: Counter[str] = Counter()
    for key, value in raw.items():
        if _is_wait(key):
            continue
        filename = key[0]
        where = "builtins" if filename == "~" else _where(filename)
        parts = where.split("/")
        package = "/".join(parts[:2]) if parts[0] == "stdlib" and len(parts) > 2 else parts[0]
        totals[package.removesuffix(".py")] += value[2]
    whole = sum(totals.values()) or 1.0
    return {name: seconds / whole for name, seconds in totals.most_common()}


class Extra(TypedDict):
    """Self time a function costs per call in one profile beyond another."""

    function: str
    extra_self_us: float
    calls: float
    baseline_calls: float


def _self_times(profile: cProfile.Profile, per: int) -> dict[str, tuple[float, float]]:
    raw: dict[Any, Any] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return {_name(key): (value[1] / per, value[2] * 1e6 / per) for key, value in raw.items() if not _is_wait(key)}


def extra_self_time(
    profile: cProfile.Profile, per: int, baseline: cProfile.Profile, baseline_per: int, limit: int = 15
) -> tuple[list[Extra], float]:
    """What ``profile`` does beyond ``baseline``, per call: the functions it calls more often, by the self time
    that adds (functions called as often in both differ by noise only, so they are left out), and the total
    self time of the functions only ``profile`` calls."""
    mine, theirs = _self_times(profile, per), _self_times(baseline, baseline_per)
    rows: list[Extra] = []
    only_mine = 0.0
    for name, (calls, self_us) in mine.items():
        base_calls, base_self_us = theirs.get(name, (0.0, 0.0))
        if base_calls == 0:
            only_mine += self_us
        if calls > base_calls * 1.01 + 0.01:
            rows.append(
                {
                    "function": name,
                    "extra_self_us": self_us - base_self_us,
                    "calls": calls,
                    "baseline_calls": base_calls,
                }
            )
    return sorted(rows, key=lambda row: row["extra_self_us"], reverse=True)[:limit], only_mine
