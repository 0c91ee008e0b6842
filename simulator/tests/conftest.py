"""Integration tests of the simulator: the public SDK against it over real HTTP on 127.0.0.1."""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import printmgmt_sim  # noqa: F401  (installed with printmgmt[sim])
except ImportError:  # a plain checkout: the package sits beside these tests
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# a no-op once the pytest11 entry point "printmgmt_sim.pytest_plugin" is installed
pytest_plugins = ["printmgmt_sim.pytest_plugin"]
