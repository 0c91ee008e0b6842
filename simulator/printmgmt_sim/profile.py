"""A server's profile: how a real server answered ``printmgmt doctor --write-profile``, as simulator settings.

The profile's settings, their values and its files are :mod:`printmgmt_cli.profile`'s (``PROFILE_SETTINGS``,
``read_settings``); :func:`load_profile` turns one into :class:`~printmgmt_sim.Settings` overrides:
``Simulator(profile=...)``, ``printmgmt-sim --profile FILE`` and the pytest plugin's
``--print-server-profile FILE`` (or ``@pytest.mark.print_server(profile=...)``) run the twin that way.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from printmgmt_cli.profile import LIMITS, MAX_TOP, Profile, Variants, read_settings

__all__ = ["Profile", "load_profile"]


def load_profile(profile: Profile, base: Variants | None = None) -> dict[str, Any]:
    """The :class:`~printmgmt_sim.Settings` overrides a profile states (``variants`` on top of ``base``, and
    ``max_top`` and the limits when it says). ValueError for a value the simulator does not have; a setting it does not
    know is skipped with a warning (a profile from a newer ``printmgmt``)."""
    decided: dict[str, Any] = read_settings(profile)
    overrides: dict[str, Any] = {name: decided.pop(name) for name in (MAX_TOP, *LIMITS) if name in decided}
    overrides["variants"] = dataclasses.replace(base or Variants(), **decided)
    return overrides
