"""Random streams for seeded data: one per field of each document, so a field added later draws from its own
stream and every value drawn before stays as it was.

``Draws(seed, "job", 17)("current/copies")`` is the stream of one field of one document: a
:class:`random.Random` whose bits are BLAKE2b of the key and a counter (cheap to start, unlike seeding the
Mersenne Twister once per field).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

__all__ = ["Draws"]


class _Stream(random.Random):
    def __init__(self, key: str) -> None:
        self._key = key.encode()
        self._counter = 0
        super().__init__()

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """The key is the seed."""

    def getrandbits(self, k: int) -> int:
        bits, value = 0, 0
        while bits < k:
            block = hashlib.blake2b(self._key + self._counter.to_bytes(8, "big"), digest_size=8).digest()
            self._counter += 1
            value, bits = (value << 64) | int.from_bytes(block, "big"), bits + 64
        return value >> (bits - k)

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53


class Draws:
    """The random streams of one document, keyed by what identifies it (seed, kind, index...)."""

    __slots__ = ("_key",)

    def __init__(self, *key: object) -> None:
        self._key = ":".join(map(str, key))

    def __call__(self, field: str) -> random.Random:
        """The stream of ``field`` (a wire path such as ``current/copies``) of this document."""
        return _Stream(f"{self._key}/{field}")
