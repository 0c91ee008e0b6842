"""Users install the wheel, not the repo: build it, install it with each extra into a fresh environment
outside the checkout, and use it there as a user would (``make wheel-test``).

For each of no extra, ``[cli]``, ``[sim]``, ``[aiohttp]``, ``[pandas]`` and ``[all]``: a new virtual
environment in a temporary directory, ``pip install`` of the wheel (dependencies resolved from the index as
for a user), then, from a temporary working directory, ``check.py`` (imports, both console scripts, a call
against the simulator where ``[sim]`` is installed) and, where ``[sim]`` is installed, a user's test file run
by pytest with the ``print_server`` plugin in pytest-asyncio's default strict mode. The sdist is built too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EXTRAS = ["", "cli", "sim", "aiohttp", "pandas", "otel", "all"]
WITH_SIM = {"sim", "all"}


def pinned(*names: str) -> list[str]:
    """The dev lock's pins of ``names`` (the same pytest a contributor runs)."""
    lock = (REPO / "requirements-dev.txt").read_text()
    return [re.search(rf"^{re.escape(name)}==\S+", lock, re.M | re.I).group(0) for name in names]  # type: ignore[union-attr]


def run(*args: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(a) for a in args], cwd=cwd, check=True)


def main() -> int:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="printmgmt-wheel-") as tmp:
        work = Path(tmp)
        run(sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", work / "dist", REPO)
        (wheel,) = (work / "dist").glob("*.whl")
        (sdist,) = (work / "dist").glob("*.tar.gz")
        print(f"built {wheel.name} and {sdist.name}", flush=True)
        for extra in EXTRAS:
            name = extra or "no-extra"
            venv = work / f"venv-{name}"
            cwd = work / f"cwd-{name}"
            cwd.mkdir()
            run(sys.executable, "-m", "venv", venv)
            python = venv / "bin" / "python"
            requirement = f"printmgmt[{extra}] @ {wheel.as_uri()}" if extra else str(wheel)
            extra_packages = pinned("pytest", "pytest-asyncio") if extra in WITH_SIM else []
            run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement, *extra_packages)
            shutil.copy(HERE / "check.py", cwd / "check.py")
            try:
                run(python, "check.py", extra, cwd=cwd)
                if extra in WITH_SIM:
                    shutil.copy(HERE / "users_suite.py", cwd / "test_user.py")
                    run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_user.py", cwd=cwd)
            except subprocess.CalledProcessError:
                print(f"wheel test FAILED in the environment with {name}", file=sys.stderr)
                return 1
            print(f"wheel with {name}: ok", flush=True)
    print(f"wheel tests passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
