"""The model of the server: what the SDK, the simulator, ``printmgmt doctor`` and the command line believe
about how a PLOSSYS server behaves beyond what the interface document shows.

This module is the package's one door: the modules behind it are private, and nothing outside the package
imports them. Standard library only, so every layer of the SDK may use it.

- the list-page shapes: every plausible form of a job or printer list page, read (:func:`read_page`) and
  written (:func:`write_page`) from one table (:data:`FORMS`);
- the profile: the named settings where a real server may answer otherwise than ``openapi.yaml`` guesses
  (:class:`Variants`, ``max_top``), their values, and profile files read and written as TOML or JSON.
"""

from __future__ import annotations

from . import _page_shapes, _profile

# profile and page shapes
from ._page_shapes import *  # noqa: F403  (the door: each private module's __all__, once)
from ._profile import *  # noqa: F403

__all__: list[str] = []
# profile and page shapes
__all__ += _page_shapes.__all__
__all__ += _profile.__all__
