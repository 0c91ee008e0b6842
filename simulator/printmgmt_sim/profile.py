"""A server's profile: how a real server answered ``printmgmt doctor --write-profile``, as simulator settings.

A profile (TOML, or JSON when the file name ends in ``.json``) holds a ``settings`` table: each
:class:`~printmgmt_sim.variants.Variants` setting and ``max_top`` (``"none"``: no cap) as the server showed
it, ``"unknown"`` where the doctor could not decide (the default stays). ``statuses`` and ``observed``
record what was seen, for people. :func:`load_profile` turns it into :class:`~printmgmt_sim.Settings`
overrides: ``Simulator(profile=...)``, ``printmgmt-sim --profile FILE`` and the pytest plugin's
``--print-server-profile FILE`` (or ``@pytest.mark.print_server(profile=...)``) run the twin that way.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tomllib
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from .variants import Variants, parse_variant

__all__ = ["Profile", "load_profile"]

#: A profile: a file, or its content already read.
Profile = str | os.PathLike[str] | Mapping[str, Any]

#: What a profile says of a setting no probe decided, and of a server whose pages have no cap.
UNKNOWN: Final = "unknown"
NO_CAP: Final = "none"


def load_profile(profile: Profile, base: Variants | None = None) -> dict[str, Any]:
    """The :class:`~printmgmt_sim.Settings` overrides a profile states (``variants`` on top of ``base``, and
    ``max_top`` when it says). ValueError for a value the simulator does not have; a setting it does not
    know is skipped with a warning (a profile from a newer ``printmgmt``)."""
    data = profile if isinstance(profile, Mapping) else _read(Path(profile))
    settings = data.get("settings", {})
    if not isinstance(settings, Mapping):
        raise ValueError("a profile's settings must be a table")
    variants = base or Variants()
    overrides: dict[str, Any] = {}
    known = {field.name for field in dataclasses.fields(Variants)}
    for name, value in settings.items():
        if value == UNKNOWN:
            continue
        if name == "max_top":
            overrides["max_top"] = None if value == NO_CAP else _cap(value)
        elif name in known:
            variants = parse_variant(f"{name}={value}", variants)
        else:
            warnings.warn(f"profile setting {name}={value!r} is not one this simulator has: ignored", stacklevel=2)
    overrides["variants"] = variants
    return overrides


def _read(path: Path) -> Mapping[str, Any]:
    text = path.read_text(encoding="utf-8")
    try:
        data: Mapping[str, Any] = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: not a profile ({exc})") from exc
    return data


def _cap(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"profile setting max_top must be a positive integer or {NO_CAP!r}, not {value!r}")
    return value
