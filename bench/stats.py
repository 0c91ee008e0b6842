"""Small statistics helpers: summaries over repeated runs and latency percentiles."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import TypedDict

__all__ = ["Summary", "percentile", "ratio", "summarize"]


class Summary(TypedDict):
    """min/median/max of one figure over repeated runs, and the runs themselves."""

    min: float
    median: float
    max: float
    runs: list[float]


def summarize(values: Sequence[float]) -> Summary:
    """min/median/max of ``values`` (one value per repeated run)."""
    if not values:
        raise ValueError("nothing to summarize")
    return {
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
        "runs": [float(v) for v in values],
    }


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values (``fraction`` 0.5: p50, 0.99: p99)."""
    if not sorted_values:
        raise ValueError("no values")
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def ratio(numerators: Sequence[float], denominators: Sequence[float]) -> Summary:
    """Per-run ratios (run i over run i of the baseline), summarized: both were measured in the same round."""
    if len(numerators) != len(denominators):
        raise ValueError("ratios need as many runs on both sides")
    return summarize([n / d for n, d in zip(numerators, denominators, strict=True)])
