"""The sync client has the async client's surface: every public method, with the same signature.

Compared by introspection, so a method added to the async client without a sync twin (or with another
signature) fails here. Annotations are compared after the same renaming ``scripts/unasync.py`` applies
(``AsyncIterator`` → ``Iterator``...), so only real differences count.
"""

from __future__ import annotations

import importlib.util
import inspect
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import printmgmt
import printmgmt.sync
from printmgmt.client import PrintClient as AsyncPrintClient
from printmgmt.sync import PrintClient as SyncPrintClient
from printmgmt_api.operations import OPERATIONS

#: The async name of a method whose sync twin is named otherwise.
RENAMED = {"aclose": "close", "__aenter__": "__enter__", "__aexit__": "__exit__", "__aiter__": "__iter__"}
NOT_COROUTINES = {"iterate", "with_options", "from_env"}


def _unasync() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "scripts" / "unasync.py"
    spec = importlib.util.spec_from_file_location("unasync_rules", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


UNASYNC = _unasync()


def public_methods(obj: Any) -> dict[str, Any]:
    names = [name for name in dir(obj) if not name.startswith("_") or name in RENAMED or name in RENAMED.values()]
    return {name: getattr(obj, name) for name in names if callable(getattr(obj, name))}


def surfaces() -> Iterator[tuple[str, Any, Any]]:
    """(label, async object, sync object) for the client, each resource namespace and the pager."""
    async_client = AsyncPrintClient("http://127.0.0.1:1", auth="t")
    sync_client = SyncPrintClient("http://127.0.0.1:1", auth="t")
    yield "PrintClient", async_client, sync_client
    namespaces = [name for name, value in vars(AsyncPrintClient).items() if isinstance(value, cached_property)]
    assert namespaces == ["auth", "configs", "flows", "jobs", "printers", "statistics"]
    for name in namespaces:
        yield f"client.{name}", getattr(async_client, name), getattr(sync_client, name)
    yield "Pager", async_client.jobs.iterate(), sync_client.jobs.iterate()


SURFACES = list(surfaces())


def signature_of(function: Any) -> list[tuple[str, str, object, str]]:
    signature = inspect.signature(function)
    return [
        (parameter.name, parameter.kind.name, parameter.default, str(parameter.annotation))
        for parameter in signature.parameters.values()
    ] + [("return", "", None, str(signature.return_annotation))]


@pytest.mark.parametrize(("label", "async_obj", "sync_obj"), SURFACES, ids=[label for label, _, _ in SURFACES])
def test_every_async_method_has_a_sync_twin_with_the_same_signature(label: str, async_obj: Any, sync_obj: Any) -> None:
    async_methods = public_methods(async_obj)
    sync_methods = public_methods(sync_obj)
    assert async_methods, f"{label}: introspection found nothing to compare"
    for name, method in async_methods.items():
        twin_name = RENAMED.get(name, name)
        assert twin_name in sync_methods, f"{label}.{name} has no sync twin {twin_name}"
        twin = sync_methods[twin_name]
        expected = [
            (param, kind, default, UNASYNC.unasync_line(annotation))
            for param, kind, default, annotation in signature_of(method)
        ]
        assert signature_of(twin) == expected, f"{label}.{name}"
        if inspect.iscoroutinefunction(method) or name in NOT_COROUTINES:
            assert not inspect.iscoroutinefunction(twin), f"{label}.{twin_name} must not be a coroutine"
    extra = set(sync_methods) - {RENAMED.get(name, name) for name in async_methods}
    assert not extra, f"{label}: sync only: {sorted(extra)}"


def test_the_comparison_covers_every_operation() -> None:
    compared = {f"{label}.{name}" for label, async_obj, _ in SURFACES for name in public_methods(async_obj)}
    names = {
        "PrintClient." + spec.name if "." not in spec.name else "client." + spec.name for spec in OPERATIONS.values()
    }
    assert names <= compared, sorted(names - compared)


def test_the_async_surface_is_really_async() -> None:
    # the comparison above means something only if the async side is what it claims
    client = AsyncPrintClient("http://127.0.0.1:1", auth="t")
    assert inspect.iscoroutinefunction(client.jobs.get)
    assert inspect.iscoroutinefunction(client.jobs.pause_many)
    assert not inspect.iscoroutinefunction(SyncPrintClient("http://127.0.0.1:1", auth="t").jobs.get)


def test_the_sync_module_exports_the_twins() -> None:
    assert printmgmt.sync.__all__ == ["Pager", "PrintClient"]
    # the types say they differ; the test checks that the modules really export distinct classes
    assert printmgmt.sync.PrintClient is not printmgmt.PrintClient  # type: ignore[comparison-overlap]
    assert printmgmt.sync.Pager is not printmgmt.Pager  # type: ignore[comparison-overlap]


def test_a_rule_that_rewrites_nothing_fails_the_generation(capsys: pytest.CaptureFixture[str]) -> None:
    UNASYNC.USED.clear()
    assert UNASYNC.unasync_line("async def f() -> None: await g()\n") == "def f() -> None: g()\n"
    unused = UNASYNC.unused_rules()
    assert "async def" not in unused and "await " not in unused
    assert {"aiter_bytes", "AsyncIterator", "PrintServer"} <= set(unused)
    assert UNASYNC._report_unused() == 1
    assert "unasync rule 'aiter_bytes' matched nothing" in capsys.readouterr().err
