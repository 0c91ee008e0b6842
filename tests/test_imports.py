"""The package's imports: cheap at first, every public name reachable, heavy parts loaded only when used."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import printmgmt


def _modules_after(code: str) -> set[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out))


def test_importing_the_package_loads_no_client_code() -> None:
    loaded = _modules_after("import printmgmt")
    heavy = {"printmgmt.client", "printmgmt_api", "httpx", "typer", "rich", "pandas"}
    assert loaded.isdisjoint(heavy), sorted(loaded & heavy)


def test_the_query_check_loads_no_http_client() -> None:
    # printmgmt.server promises the standard library only; its check raises the SDK's errors
    loaded = _modules_after("import printmgmt.server, printmgmt.errors")
    assert "printmgmt.errors" in loaded
    assert not [name for name in loaded if name.split(".")[0] in {"httpx", "httpcore", "h11"}]


def test_the_client_loads_no_endpoint_module_nor_optional_extra() -> None:
    loaded = _modules_after("from printmgmt import PrintClient, odata")
    assert "printmgmt.client" in loaded
    generated = [name for name in loaded if name.startswith(("printmgmt_api.api", "printmgmt_api.models"))]
    assert generated == []  # models and endpoint modules load with the first namespace used
    assert not [name for name in loaded if name.startswith("printmgmt._async.resources")]
    # (rich is not in the list: httpx imports it for its own command line whenever it is installed)
    assert loaded.isdisjoint({"typer", "pandas", "printmgmt_cli"})


def test_the_sync_client_never_loads_asyncio() -> None:
    # a cron job or a Flask view pays nothing for the async machinery: calls, paging with prefetch on
    # threads and a bulk action on a thread pool, all without asyncio
    loaded = _modules_after(
        """
import httpx
from printmgmt.sync import PrintClient

def answer(request):
    if request.url.path == "/v3/jobs/":
        return httpx.Response(200, json={"results": [{"_id": "j1"}, {"_id": "j2"}], "totalCount": 2})
    return httpx.Response(200, json={"_id": "j1"})

with PrintClient("http://x.test", auth="t", transport=httpx.MockTransport(answer)) as client:
    assert client.jobs.get("j1").id == "j1"
    assert [job.id for job in client.jobs.iterate(page_size=1, prefetch=2)] == ["j1", "j2"]
    assert client.jobs.pause_many(["j1", "j2"]).ok
"""
    )
    assert "printmgmt._sync.client" in loaded
    assert "asyncio" not in loaded
    # and importing the async client loads it only when the first call runs
    assert "asyncio" not in _modules_after("from printmgmt import PrintClient")


def test_every_public_name_resolves() -> None:
    for name in printmgmt.__all__:
        assert getattr(printmgmt, name) is not None, name
    assert set(printmgmt.__all__) <= set(dir(printmgmt))
    assert printmgmt.NotFound is printmgmt.errors.NotFound
    assert printmgmt.WaitTimeout is printmgmt.errors.WaitTimeout  # every error class of errors.__all__
    assert "error_for_response" not in printmgmt.__all__
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        printmgmt.Nope  # noqa: B018


def test_a_namespace_loads_with_its_first_use_and_alone() -> None:
    code = (
        "import asyncio, httpx, sys\n"
        "from printmgmt import PrintClient\n"
        "mock = httpx.MockTransport(lambda request: httpx.Response(200, json={}))\n"
        "client = PrintClient('https://p.test', auth='t', transport=mock)\n"
        "lazy = ('printmgmt_api.api', 'printmgmt_api.models', 'printmgmt._async.resources')\n"
        "assert not [m for m in sys.modules if m.startswith(lazy)]\n"
        "asyncio.run(client.jobs.pause('j1'))"
    )
    loaded = _modules_after(code)
    assert {"printmgmt._async.resources.jobs", "printmgmt_api.api.jobs.pause_job"} <= loaded
    assert "printmgmt_api.api.jobs.resume_job" in loaded  # the namespace's module imports what it sends
    others = [name for name in loaded if name.startswith(("printmgmt_api.api.printers", "printmgmt_api.api.flows"))]
    assert others == []
    assert "printmgmt._async.resources.printers" not in loaded


def test_the_type_checkers_see_exactly_the_runtime_exports() -> None:
    """The names imported under TYPE_CHECKING (for mypy and IDEs) are the lazily loaded ones, from the same module."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(printmgmt.__file__).read_text())
    guarded = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen: dict[str, str] = {}
    for node in guarded.body:
        assert isinstance(node, ast.ImportFrom)
        for alias in node.names:
            if alias.name == "*":  # the error classes, as errors.__all__ names them
                assert node.module == "errors"
                seen.update(dict.fromkeys(printmgmt._error_names(), "errors"))
                continue
            assert alias.asname == alias.name, f"{alias.name}: re-export it as itself"
            seen[alias.name] = node.module or ""
    assert seen == {**printmgmt._EXPORTS, **dict.fromkeys(printmgmt._error_names(), "errors")}
    assert set(printmgmt.__all__) == {*seen, "__version__"}
