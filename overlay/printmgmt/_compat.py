"""What the SDK needs from httpx that its public API does not name, in one place.

``tests/wheel/shims.py`` checks each against the lowest and the highest httpx and aiohttp that
``pyproject.toml`` allows (``make wheel-test``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

__all__ = ["UseClientDefault"]

if TYPE_CHECKING:
    from httpx._client import UseClientDefault
else:
    #: The type of ``httpx.USE_CLIENT_DEFAULT`` (public), which httpx does not export by name.
    UseClientDefault = type(httpx.USE_CLIENT_DEFAULT)
