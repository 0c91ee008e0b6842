"""The line budget's check (scripts/line_budget.py, run by .ci/run): it counts the SDK's hand-written lines,
leaves out only the generated sync twins, and fails when the count passes the budget."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def copy_of_the_repository(tmp_path: Path) -> Path:
    """What the check reads: the script, the budget file and the SDK's package."""
    (tmp_path / "scripts").mkdir()
    for script in ("line_budget.py", "unasync.py"):
        shutil.copy(ROOT / "scripts" / script, tmp_path / "scripts")
    shutil.copy(ROOT / "line-budget.toml", tmp_path)
    shutil.copytree(ROOT / "overlay" / "printmgmt", tmp_path / "overlay" / "printmgmt",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    return tmp_path


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(root / "scripts" / "line_budget.py")], capture_output=True, text=True, check=False
    )


def test_the_count_is_every_hand_written_line_and_no_generated_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("line_budget", ROOT / "scripts" / "line_budget.py")
    assert spec is not None and spec.loader is not None
    line_budget = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(line_budget)
    sizes = line_budget.counted()
    package = ROOT / "overlay" / "printmgmt"
    every = {path.relative_to(package) for path in package.rglob("*.py")}
    twins = {path for path in every if path.parts[0] == "_sync" or path.name == "_sync_flow.py"}
    assert twins and set(sizes) == every - twins
    assert sizes[Path("errors.py")] == len((package / "errors.py").read_text().splitlines())


@pytest.mark.parametrize("added", [0, 1])
def test_the_check_fails_once_the_sdk_grows_past_its_budget(tmp_path: Path, added: int) -> None:
    root = copy_of_the_repository(tmp_path)
    budget = int(next(line for line in (root / "line-budget.toml").read_text().splitlines()
                      if line.startswith("budget")).split("=")[1])  # fmt: skip
    # the SDK brought exactly to its budget, then one line past it
    total = int(run(root).stdout.split()[3])
    grown = root / "overlay" / "printmgmt" / "grown.py"
    grown.write_text("\n" * (budget - total + added))
    checked = run(root)
    assert checked.returncode == added, checked.stdout + checked.stderr
    assert ("over budget by 1 lines" in checked.stderr) == bool(added)
