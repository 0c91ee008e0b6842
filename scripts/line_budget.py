"""Fail when the SDK distribution's hand-written Python grows past the budget in line-budget.toml.

Counts physical lines (as `wc -l` does) of every .py under overlay/printmgmt (the SDK's hand-written package)
except the generated sync twins. Standard library only: .ci/run calls it before the venv exists.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from unasync import PAIRS  # what scripts/unasync.py generates, declared once (run as a script, scripts/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "overlay" / "printmgmt"


def counted() -> dict[Path, int]:
    """Physical lines of each counted file, keyed by its path relative to the package."""
    sizes: dict[Path, int] = {}
    twins = [ROOT / twin for _, twin in PAIRS]
    for path in sorted(PACKAGE.rglob("*.py")):
        if not any(path == twin or twin in path.parents for twin in twins):
            sizes[path.relative_to(PACKAGE)] = path.read_bytes().count(b"\n")
    return sizes


def main() -> int:
    budget = int(tomllib.loads((ROOT / "line-budget.toml").read_text())["budget"])
    sizes = counted()
    total = sum(sizes.values())
    print(f"hand-written SDK lines: {total} (budget {budget}, {len(sizes)} files)")
    print("largest files:")
    for relative, lines in sorted(sizes.items(), key=lambda item: (-item[1], str(item[0])))[:10]:
        print(f"  {lines:6d}  {relative}")
    if total > budget:
        print(f"over budget by {total - budget} lines: cut, or raise line-budget.toml saying why", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
