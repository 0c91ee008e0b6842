"""Console scripts without their distribution say how to install it and exit 2 (the wheel tests run them for real)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest


def _without(monkeypatch: pytest.MonkeyPatch, missing: str, *cached_prefixes: str, keep: str = "") -> None:
    """Make ``import missing`` fail, and forget modules that were imported with it (all but ``keep``)."""
    for name in list(sys.modules):
        if name.startswith(cached_prefixes) and name != keep:
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)


def test_python_m_printmgmt_without_the_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.metadata

    # no distribution provides the command: the SDK finds it by its entry point, never by importing it
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: importlib.metadata.EntryPoints(()))
    with pytest.raises(SystemExit) as caught:
        runpy.run_module("printmgmt", run_name="__main__")
    assert caught.value.code == 2
    assert (
        capsys.readouterr().err.strip() == "the printmgmt command line is not installed: pip install 'printmgmt[cli]'"
    )


def test_python_m_printmgmt_runs_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    import printmgmt_cli

    ran: list[bool] = []
    monkeypatch.setattr(printmgmt_cli, "main", lambda: ran.append(True))
    runpy.run_module("printmgmt", run_name="__main__")
    assert ran == [True]


def test_printmgmt_sim_without_the_sim_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import printmgmt_sim

    _without(monkeypatch, "starlette", "printmgmt_sim.", "starlette", keep="printmgmt_sim.pytest_plugin")
    assert printmgmt_sim.main() == 2
    assert capsys.readouterr().err.strip() == printmgmt_sim.INSTALL_HINT


def test_an_unrelated_import_error_is_not_hidden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # a command line that is installed but cannot import what it needs: its own error, not the install hint
    (tmp_path / "printmgmt_cli").mkdir()
    (tmp_path / "printmgmt_cli" / "__init__.py").write_text("import printmgmt_no_such_module\n")
    _without(monkeypatch, "printmgmt_no_such_module", "printmgmt_cli")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError) as caught:
        runpy.run_module("printmgmt", run_name="__main__")
    assert caught.value.name == "printmgmt_no_such_module"
