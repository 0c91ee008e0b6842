"""What every scenario gets: run size, fixtures, CPU placement, and a place for progress messages."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from .fixtures import Fixtures

__all__ = ["Context", "split_cpus"]


def split_cpus() -> tuple[set[int] | None, set[int] | None]:
    """CPUs for (servers, the client): the last CPU for servers, the others for the client, so neither
    steals the other's core. ``(None, None)`` where affinity cannot be set or there is a single CPU."""
    if not hasattr(os, "sched_getaffinity"):
        return None, None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None, None
    return {cpus[-1]}, set(cpus[:-1])


@dataclass(slots=True)
class Context:
    """Settings of one bench run, shared by the scenarios."""

    quick: bool
    repeats: int
    fixtures: Fixtures
    server_cpus: set[int] | None
    client_cpus: set[int] | None

    def log(self, message: str) -> None:
        print(f"[bench] {message}", file=sys.stderr, flush=True)
