"""Shared fixtures: a PrintClient whose traffic respx intercepts, and the spec's operations."""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import respx
import yaml
from hypothesis import settings

from printmgmt import PrintClient, RetryPolicy

BASE_URL = "https://print.test:8080"
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
# loading the CA store takes ~0.1 s; one context serves every test client
SSL_CONTEXT = ssl.create_default_context()
#: Retries with their real attempt counts and delays, but no waiting: for clients whose retries a test provokes.
NO_WAITS = RetryPolicy(sleep=lambda seconds: None)

# The property tests draw the same examples on every run and keep no example database (.hypothesis/): a failure
# shows on every run until the code is fixed, never only in the clone that once found it, and a fixed failure
# leaves nothing behind to replay.
settings.register_profile("printmgmt", derandomize=True, database=None)
settings.load_profile("printmgmt")


@pytest.fixture(scope="session")
def spec() -> dict[str, Any]:
    with SPEC_PATH.open() as f:
        loaded: dict[str, Any] = yaml.safe_load(f)
    return loaded


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    # assert_all_mocked: a request no route expects fails the test instead of reaching the network
    with respx.mock(base_url=BASE_URL, assert_all_called=False, assert_all_mocked=True) as router:
        yield router


@pytest.fixture
async def client(mock: respx.MockRouter) -> AsyncIterator[PrintClient]:
    async with PrintClient(BASE_URL, auth="test-token", verify=SSL_CONTEXT, retry=NO_WAITS) as c:
        yield c
