"""A monotonic clock that moves only when a test tells it to (``PasswordAuth(clock=...)``)."""

from __future__ import annotations


class FakeClock:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
