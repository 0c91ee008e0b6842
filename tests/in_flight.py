"""A respx side effect that answers after a delay and records how many requests were in flight at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx


class InFlight:
    """``mock.get(...).mock(side_effect=InFlight(answer))``; ``peak`` is the most requests seen at once."""

    def __init__(self, answer: Callable[[httpx.Request], httpx.Response], delay: float = 0.005) -> None:
        self.answer = answer
        self.delay = delay
        self.now = self.peak = 0

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.now += 1
        self.peak = max(self.peak, self.now)
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.now -= 1
        return self.answer(request)
