"""Users install the wheels, not the repo: build the three distributions (printmgmt, printmgmt-sim,
printmgmt-cli), install them with each extra into a fresh environment outside the checkout, and use them there as
a user would (``make wheel-test``).

The SDK's wheel holds only ``printmgmt`` and ``printmgmt_api`` and registers no console script and no pytest
plugin; the simulator's and the command line's hold their own package and entry points. For each of
``printmgmt`` alone, ``printmgmt[cli]``, ``printmgmt-sim`` (its own wheel), ``printmgmt[sim,cli]``,
``[pandas]``, ``[otel]`` and ``[all]`` on this interpreter, and ``[all]`` on every other Python
the package's classifiers claim: a new virtual environment in a temporary directory, ``pip install`` with the
built wheels as find-links (so the extras resolve to them; third-party dependencies from the index as for a
user), then, from a temporary working directory, ``check.py`` (imports, both console scripts or their absence,
the pytest plugin registered only with the simulator, a call against the simulator where it is installed),
``shims.py`` (what the SDK relies on in httpx beyond its documented API) and, where the simulator
is installed, a user's test file run by pytest with the ``print_server`` plugin in pytest-asyncio's default
strict mode, and ``respx.mock()`` in front of a default client. With ``[all]``, ``shims.py`` runs again with
the lowest httpx ``pyproject.toml`` allows. The sdists are built too, and every wheel
and sdist passes ``twine check --strict`` (the package index's own check of the metadata and the README) and
carries ``LICENSE``.
"""

from __future__ import annotations

import glob
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
#: The distributions: folder, name, its packages, and the entry points its wheel registers (group, name).
DISTRIBUTIONS = {
    ".": ("printmgmt", {"printmgmt", "printmgmt_api"}, set()),
    "simulator": (
        "printmgmt-sim",
        {"printmgmt_sim"},
        {("console_scripts", "printmgmt-sim"), ("pytest11", "printmgmt_sim.pytest_plugin")},
    ),
    "cli": ("printmgmt-cli", {"printmgmt_cli"}, {("console_scripts", "printmgmt")}),
}
#: What each environment installs, by the name check.py is told: the SDK with each extra, and the simulator by its
#: own name (it brings the SDK and, for the server's profile, the command line).
EXTRAS = {
    "": "printmgmt",
    "cli": "printmgmt[cli]",
    "sim": "printmgmt-sim",
    "sim,cli": "printmgmt[sim,cli]",
    "pandas": "printmgmt[pandas]",
    "otel": "printmgmt[otel]",
    "all": "printmgmt[all]",
}
#: On the other Pythons: everything in one environment (the full matrix on each would double make test's time).
OTHER_EXTRAS = ["all"]
WITH_SIM = {"sim", "sim,cli", "all"}
#: The libraries whose undocumented parts the SDK uses (``shims.py``), tested at both ends of their ranges.
SHIMMED = ("httpx",)
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def claimed_pythons() -> list[str]:
    """The ``3.x`` versions the classifiers claim."""
    prefix = "Programming Language :: Python :: "
    return [c.removeprefix(prefix) for c in PROJECT["classifiers"] if re.fullmatch(r"3\.\d+", c.removeprefix(prefix))]


def interpreter(version: str) -> str:
    """A ``python<version>`` that runs: on PATH, or installed by pyenv."""
    found = [
        shutil.which(f"python{version}") or "",
        *sorted(glob.glob(str(Path.home() / f".pyenv/versions/{version}.*/bin/python{version}"))),
    ]
    for candidate in filter(None, found):
        done = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True
        )
        if done.returncode == 0 and done.stdout.strip() == str(tuple(int(p) for p in version.split("."))):
            return candidate
    raise SystemExit(f"the package claims Python {version}, but no python{version} is installed to test it on")


def lowest() -> list[str]:
    """``name==<lower bound>`` of each shimmed library, as pyproject.toml declares it."""
    requirements = [*PROJECT["dependencies"], *(r for rs in PROJECT["optional-dependencies"].values() for r in rs)]
    pins = []
    for name in SHIMMED:
        (bound,) = {m.group(1) for r in requirements if (m := re.fullmatch(rf"{name}>=([\w.]+)(,.*)?", r))}
        pins.append(f"{name}=={bound}")
    return pins


def pinned(*names: str) -> list[str]:
    """The dev lock's pins of ``names`` (the same pytest a contributor runs)."""
    lock = (REPO / "requirements-dev.txt").read_text()
    return [re.search(rf"^{re.escape(name)}==\S+", lock, re.M | re.I).group(0) for name in names]  # type: ignore[union-attr]


def check_licence(wheel: Path, sdist: Path) -> None:
    """Both archives carry LICENSE, and the wheel's metadata declares the licence pyproject.toml states."""
    licence = (REPO / "LICENSE").read_text()
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (packaged,) = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
        metadata = archive.read(next(name for name in names if name.endswith(".dist-info/METADATA"))).decode()
        assert archive.read(packaged).decode() == licence, "the wheel's LICENSE differs"
    assert f"License-Expression: {PROJECT['license']}" in metadata, "the wheel declares another licence"
    with tarfile.open(sdist) as archive:
        (member,) = [m for m in archive.getmembers() if m.name.endswith("/LICENSE") and m.name.count("/") == 1]
        assert archive.extractfile(member).read().decode() == licence, "the sdist's LICENSE differs"  # type: ignore[union-attr]


def check_contents(wheel: Path, packages: set[str], entry_points: set[tuple[str, str]]) -> None:
    """The wheel holds its own packages and nothing else, and registers exactly ``entry_points``."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        tops = {name.split("/")[0] for name in names} - {info}
        assert tops == packages, f"{wheel.name} holds {sorted(tops)}, not {sorted(packages)}"
        found: set[tuple[str, str]] = set()
        if f"{info}/entry_points.txt" in names:
            group = ""
            for line in archive.read(f"{info}/entry_points.txt").decode().splitlines():
                if line.startswith("["):
                    group = line.strip("[]")
                elif "=" in line:
                    found.add((group, line.split("=")[0].strip()))
    assert found == entry_points, f"{wheel.name} registers {sorted(found)}, not {sorted(entry_points)}"


def run(*args: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(a) for a in args], cwd=cwd, check=True)


def main() -> int:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="printmgmt-wheel-") as tmp:
        work = Path(tmp)
        dist = work / "dist"
        for folder, (name, packages, entry_points) in DISTRIBUTIONS.items():
            run(sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", dist, REPO / folder)
            stem = name.replace("-", "_")
            (wheel,) = dist.glob(f"{stem}-*.whl")
            (sdist,) = dist.glob(f"{stem}-*.tar.gz")
            print(f"built {wheel.name} and {sdist.name}", flush=True)
            # what the package index checks on upload (metadata, the README as long description), and the licence
            run(sys.executable, "-m", "twine", "check", "--strict", wheel, sdist)
            check_licence(wheel, sdist)
            check_contents(wheel, packages, entry_points)
            print(f"{name}: twine check passed; LICENSE in the wheel and the sdist; its own files", flush=True)
        this = f"{sys.version_info.major}.{sys.version_info.minor}"
        runs = [(sys.executable, this, extra) for extra in EXTRAS]
        runs += [(interpreter(v), v, extra) for v in claimed_pythons() if v != this for extra in OTHER_EXTRAS]
        for python_exe, version, extra in runs:
            name = f"{extra.replace(',', '-') or 'no-extra'}-py{version}"
            venv = work / f"venv-{name}"
            cwd = work / f"cwd-{name}"
            cwd.mkdir()
            run(python_exe, "-m", "venv", venv)
            python = venv / "bin" / "python"
            extra_packages = pinned("pytest", "pytest-asyncio", "respx") if extra in WITH_SIM else []
            pip = (python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check")
            # the three distributions come from the wheels just built, everything else from the index
            run(*pip, "--find-links", dist, f"{EXTRAS[extra]}=={PROJECT['version']}", *extra_packages)
            for script in ("check.py", "shims.py"):
                shutil.copy(HERE / script, cwd / script)
            try:
                run(python, "check.py", extra, cwd=cwd)
                run(python, "shims.py", cwd=cwd)
                if extra in WITH_SIM:
                    shutil.copy(HERE / "users_suite.py", cwd / "test_user.py")
                    # the loop scope of async fixtures set, as pytest-asyncio asks of every project (unset, it
                    # warns); its mode stays the default, strict
                    scope = ("-o", "asyncio_default_fixture_loop_scope=function")
                    run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *scope, "test_user.py", cwd=cwd)
                if extra == "all":
                    run(*pip, *lowest())
                    run(python, "shims.py", cwd=cwd)
            except subprocess.CalledProcessError:
                print(f"wheel test FAILED in the environment with {name}", file=sys.stderr)
                return 1
            print(f"wheel with {name}: ok", flush=True)
    print(f"wheel tests passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
