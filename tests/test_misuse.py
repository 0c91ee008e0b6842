"""What a newcomer's slips meet: settings ``from_env`` cannot use raise the SDK's own error, a plain ``for`` over
the async client's pager says to use ``async for``, and ``dir()`` of the packages shows their public names."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable

import pytest

import printmgmt
from printmgmt import PrintClient
from printmgmt.errors import ConfigurationError, PrintMgmtError
from printmgmt.sync import PrintClient as SyncPrintClient

BASE = {"PRINTMGMT_BASE_URL": "https://p.test", "PRINTMGMT_TOKEN": "tok"}


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "PRINTMGMT_BASE_URL is not set"),
        ({"PRINTMGMT_BASE_URL": "https://p.test", "PRINTMGMT_USERNAME": "u"}, "PRINTMGMT_PASSWORD"),
        ({**BASE, "PRINTMGMT_TIMEOUT": "soon"}, "PRINTMGMT_TIMEOUT must be seconds, e.g. 30, not 'soon'"),
        ({**BASE, "PRINTMGMT_RETRIES": "2.5"}, "PRINTMGMT_RETRIES must be a whole number, e.g. 2, not '2.5'"),
        ({**BASE, "PRINTMGMT_BASE_URL": "print.test:8080"}, "http:// or https://"),
        ({**BASE, "PRINTMGMT_TRANSPORT": "curl"}, "curl"),
        ({**BASE, "PRINTMGMT_CA_BUNDLE": "/nonexistent/ca.pem"}, "/nonexistent/ca.pem"),
    ],
)
@pytest.mark.parametrize("cls", [PrintClient, SyncPrintClient])
def test_from_env_raises_the_sdks_configuration_error(
    cls: type[PrintClient] | type[SyncPrintClient], env: dict[str, str], says: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        cls.from_env(env)
    assert says in str(caught.value)
    assert isinstance(caught.value, PrintMgmtError) and isinstance(caught.value, ValueError)
    assert printmgmt.ConfigurationError is ConfigurationError


async def test_a_plain_for_over_the_async_pager_says_use_async_for() -> None:
    async with PrintClient("https://p.test", auth="tok") as client:
        with pytest.raises(TypeError, match="use 'async for'"):
            for _job in client.jobs.iterate():  # type: ignore[attr-defined]
                pass
        with pytest.raises(TypeError, match="use 'async for'"):
            list(client.printers.iterate())  # type: ignore[call-overload]
        assert not isinstance(client.jobs.iterate(), Iterable)  # still not iterable to isinstance()


def test_the_sync_pager_still_iterates_with_for() -> None:
    with SyncPrintClient("https://p.test", auth="tok") as client:
        pager = client.jobs.iterate()
        assert iter(pager) is not None  # a generator; nothing is fetched until the first item


def _dir_of(module: str) -> tuple[list[str], list[str]]:
    """``dir(module)`` after its public names were used, and its ``__all__``, in a fresh interpreter."""
    probe = (
        f"import json, {module} as m\nfor name in m.__all__: getattr(m, name)\nprint(json.dumps([dir(m), m.__all__]))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    import json

    names, public = json.loads(done.stdout)
    return names, public


@pytest.mark.parametrize("module", ["printmgmt", "printmgmt_sim"])
def test_dir_lists_the_public_names_once_and_nothing_else(module: str) -> None:
    names, public = _dir_of(module)
    assert names == sorted(set(public)), set(names) ^ set(public)
