"""The simulated clock: epoch milliseconds that run at ``speed`` times real time from a fixed start."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["SimClock"]


class SimClock:
    """``now_ms()`` = start + real time elapsed x ``speed`` + manual advances.

    A speed of 0 freezes the clock; :meth:`advance` still moves it, which is how tests step through a
    job's life deterministically.
    """

    def __init__(self, start_ms: int, speed: float, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        if speed < 0:
            raise ValueError("speed must not be negative")
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._base_ms = float(start_ms)
        self._since = monotonic()
        self._speed = speed

    def now_ms(self) -> int:
        with self._lock:
            return int(self._base_ms + (self._monotonic() - self._since) * 1000.0 * self._speed)

    @property
    def speed(self) -> float:
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        if value < 0:
            raise ValueError("speed must not be negative")
        with self._lock:
            now = self._monotonic()
            self._base_ms += (now - self._since) * 1000.0 * self._speed
            self._since = now
            self._speed = value

    def advance(self, seconds: float) -> int:
        """Move the clock forward by ``seconds`` of simulated time; return the new time."""
        if seconds < 0:
            raise ValueError("the clock does not go backwards")
        with self._lock:
            self._base_ms += seconds * 1000.0
        return self.now_ms()
