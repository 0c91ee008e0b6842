"""OpenTelemetry: one span per SDK operation and per token acquisition, nothing when not configured (16.3)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator

import httpx
import pytest
import respx
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from printmgmt import PasswordAuth, PrintClient, RetryPolicy
from printmgmt.errors import NotFound
from printmgmt.sync import PrintClient as SyncPrintClient

BASE = "https://print.test:8443"
TOKEN_URL = "https://idp.test/realms/SEAL/protocol/openid-connect/token"
PASSWORD, SECRET = "pw-S3CRET-1", "cs-S3CRET-2"

_EXPORTER = InMemorySpanExporter()
_PROVIDER = TracerProvider()
_PROVIDER.add_span_processor(SimpleSpanProcessor(_EXPORTER))


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    # the global provider can be set once per process: this module's, for every test here
    trace.set_tracer_provider(_PROVIDER)
    _EXPORTER.clear()
    yield _EXPORTER
    _EXPORTER.clear()


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_mocked=True, assert_all_called=False) as mock:
        yield mock


async def test_one_internal_span_per_operation_with_http_attributes(
    spans: InMemorySpanExporter, router: respx.MockRouter
) -> None:
    router.put(f"{BASE}/v3/jobs/j1/pause").respond(200, json={})
    async with PrintClient(BASE, auth="t") as client:
        await client.jobs.pause("j1", extra_query={"note": "user-secret-name"})
    (span,) = spans.get_finished_spans()
    assert span.name == "printmgmt jobs.pause"
    assert span.kind is SpanKind.INTERNAL
    attributes = dict(span.attributes or {})
    assert attributes == {
        "http.request.method": "PUT",
        "url.template": "/v3/jobs/{id}/pause",
        "server.address": "print.test",
        "server.port": 8443,
        "printmgmt.operation": "jobs.pause",
        "printmgmt.operation_id": "pauseJob",
        "printmgmt.target": "job 'j1'",
        "http.response.status_code": 200,
    }
    assert "user-secret-name" not in str(attributes)  # no query string, ever


async def test_retries_and_errors_are_on_the_span(spans: InMemorySpanExporter, router: respx.MockRouter) -> None:
    router.get(f"{BASE}/v3/jobs/j1").mock(
        side_effect=[httpx.Response(503), httpx.Response(503), httpx.Response(404, json={"message": "gone"})]
    )
    async with PrintClient(BASE, auth="t", retry=RetryPolicy(attempts=3, sleep=_no_wait)) as client:
        with pytest.raises(NotFound):
            await client.jobs.get("j1")
    (span,) = spans.get_finished_spans()
    attributes = dict(span.attributes or {})
    assert attributes["error.type"] == "NotFound"
    assert attributes["http.response.status_code"] == 404
    assert attributes["http.request.resend_count"] == 2
    assert span.status.status_code is StatusCode.ERROR
    assert [event.name for event in span.events] == ["exception"]


async def _no_wait(seconds: float) -> None:
    return None


async def test_token_acquisition_is_its_own_span_without_secrets(
    spans: InMemorySpanExporter, router: respx.MockRouter
) -> None:
    router.post(TOKEN_URL).respond(200, json={"access_token": "acc3ss-T0KEN", "expires_in": 300})
    router.get(f"{BASE}/v3/auth/userroles").respond(200, json={"user": "u", "roles": []})
    auth = PasswordAuth(token_url=TOKEN_URL, username="u", password=PASSWORD, client_secret=SECRET)
    async with PrintClient(BASE, auth=auth) as client:
        await client.auth.user_roles()
        await client.auth.user_roles()  # the token is reused: no second token span
    names = [span.name for span in spans.get_finished_spans()]
    assert names.count("printmgmt token") == 1
    assert names.count("printmgmt auth.user_roles") == 2
    token = next(span for span in spans.get_finished_spans() if span.name == "printmgmt token")
    assert dict(token.attributes or {})["url.full"] == TOKEN_URL
    text = repr([(span.name, dict(span.attributes or {}), span.events) for span in spans.get_finished_spans()])
    for secret in (PASSWORD, SECRET, "acc3ss-T0KEN"):
        assert secret not in text


def test_the_sync_client_traces_the_same_way(spans: InMemorySpanExporter, router: respx.MockRouter) -> None:
    router.get(f"{BASE}/v3/printers/p1").respond(200, json={"_id": "p1"})
    with SyncPrintClient(BASE, auth="t") as client:
        client.printers.get("p1")
    (span,) = spans.get_finished_spans()
    assert span.name == "printmgmt printers.get"
    assert dict(span.attributes or {})["url.template"] == "/v3/printers/{printerName}"


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_nothing_is_recorded_without_a_configured_sdk() -> None:
    # a fresh interpreter: opentelemetry-api installed, no TracerProvider set (the default for most apps)
    out = _run(
        """
        import asyncio, respx
        from unittest import mock
        from opentelemetry.sdk.trace import Span as SdkSpan
        from printmgmt import PrintClient
        import printmgmt._tracing as tracing

        async def main():
            with respx.mock() as router:
                router.get("https://p.test/v3/jobs/j1").respond(200, json={"_id": "j1"})
                async with PrintClient("https://p.test", auth="t") as client:
                    with mock.patch.object(tracing, "OperationSpan") as made:
                        await client.jobs.get("j1")
                        print(made.call_count)

        asyncio.run(main())
        """
    )
    assert out == "0"  # the non-recording span was dropped at once: no span object, no attributes


def test_without_opentelemetry_calls_work() -> None:
    out = _run(
        """
        import sys, asyncio, respx
        sys.modules["opentelemetry"] = None  # as if not installed
        from printmgmt import PrintClient

        async def main():
            with respx.mock() as router:
                router.get("https://p.test/v3/jobs/j1").respond(200, json={"_id": "j1"})
                async with PrintClient("https://p.test", auth="t") as client:
                    print((await client.jobs.get("j1")).id)

        asyncio.run(main())
        """
    )
    assert out == "j1"
