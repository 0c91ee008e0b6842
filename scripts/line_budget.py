"""Fail when the SDK distribution's hand-written Python grows past the budget in line-budget.toml.

Counts physical lines (as `wc -l` does) of every .py under overlay/printmgmt (the SDK's hand-written package)
except the generated sync twin. Standard library only: .ci/run calls it before the venv exists.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "overlay" / "printmgmt"
# Generated from _async by scripts/unasync.py; its size follows the hand-written half.
GENERATED = ("_sync",)


def counted() -> dict[Path, int]:
    """Physical lines of each counted file, keyed by its path relative to the package."""
    sizes: dict[Path, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in GENERATED:
            continue
        sizes[relative] = path.read_bytes().count(b"\n")
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
