"""Fault injection for tests and benchmarks: latency, error answers, dropped connections, broken bodies.

Everything is off by default. :class:`Faults` is mutable and read on every request, so a test can switch
faults on and off while the simulator runs (``sim.faults.error_rate = 1.0``). Decisions come from a
seeded random generator: a run with the same seed and the same request order sees the same faults.

Per request, after ``latency`` (plus up to ``jitter``) seconds, at most one fault is picked. First the
countdown: while ``fail_next`` is above zero, the request is answered ``fail_status`` (default 503) without
running it and ``fail_next`` goes down by one (a burst of exactly N failures); then, while ``truncate_next``
is above zero, the answer is cut after half its body (exactly N broken downloads). Otherwise one draw picks, in
this order of the rates: ``error_rate`` (answer 500 or 503, without running the request), ``drop_rate``
(close the connection without an answer), ``truncate_rate`` (send the headers and half of the body, then
close), ``malform_rate`` (a 2xx JSON answer whose body is cut so it no longer parses), ``html_rate`` (a
200 HTML page, as a proxy's sign-in page would be, without running the request). Error answers carry
``Retry-After: <retry_after>`` unless ``retry_after`` is None.

Three knobs change every answer that is not otherwise faulted: ``content_type`` replaces its
``Content-Type`` (a JSON body served as ``text/html``), ``pad_bytes`` makes it bigger (JSON answers get
that many bytes of trailing whitespace, which keeps them valid; injected error answers get a message that
long), and ``trickle`` sends its body one byte every ``trickle`` seconds (a server that never pauses long
enough to trip a per-read timeout, yet takes as long as it likes). Only the API is affected, not the
identity provider, unless ``include_idp`` is set.

503 is not declared by ``openapi.yaml``: fault answers are outside the contract on purpose.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from dataclasses import dataclass, field, fields
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HTML_PAGE", "TRANSPORT_KEY", "FaultInjector", "Faults"]

#: Scope extension under which the server wrapper exposes the connection's asyncio transport.
TRANSPORT_KEY: Final = "printmgmt_sim.transport"


@dataclass(slots=True)
class Faults:
    """Fault knobs; rates are probabilities per request (0.0 to 1.0)."""

    latency: float = 0.0
    jitter: float = 0.0
    error_rate: float = 0.0
    error_statuses: tuple[int, ...] = (500, 503)
    retry_after: int | None = 1
    drop_rate: float = 0.0
    truncate_rate: float = 0.0
    malform_rate: float = 0.0
    html_rate: float = 0.0
    fail_next: int = 0
    fail_status: int = 503
    truncate_next: int = 0
    content_type: str | None = None
    pad_bytes: int = 0
    trickle: float = 0.0
    include_idp: bool = False
    seed: int = 0
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _lock: threading.Lock = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Switch every fault off."""
        self.latency = self.jitter = 0.0
        self.error_rate = self.drop_rate = self.truncate_rate = self.malform_rate = self.html_rate = 0.0
        self.fail_next = self.truncate_next = self.pad_bytes = 0
        self.trickle = 0.0
        self.content_type = None

    def snapshot(self) -> dict[str, Any]:
        """The knobs' values, for :meth:`restore`."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}

    def restore(self, values: dict[str, Any]) -> None:
        """Set the knobs to a :meth:`snapshot` and restart the random sequence from the seed."""
        for name, value in values.items():
            setattr(self, name, value)
        with self._lock:
            self._rng = random.Random(self.seed)

    def draw(self) -> tuple[float, str | None, int]:
        """The delay, the fault to inject (``error``, ``drop``, ``truncate``, ``malform``, ``html`` or None)
        and a status."""
        with self._lock:
            delay = self.latency + (self._rng.uniform(0, self.jitter) if self.jitter > 0 else 0.0)
            roll = self._rng.random()
            status = self._rng.choice(self.error_statuses) if self.error_statuses else 500
            if self.fail_next > 0:
                self.fail_next -= 1
                return delay, "error", self.fail_status
            if self.truncate_next > 0:
                self.truncate_next -= 1
                return delay, "truncate", status
        for kind, rate in (
            ("error", self.error_rate),
            ("drop", self.drop_rate),
            ("truncate", self.truncate_rate),
            ("malform", self.malform_rate),
            ("html", self.html_rate),
        ):
            if roll < rate:
                return delay, kind, status
            roll -= rate
        return delay, None, status


class FaultInjector:
    """ASGI middleware applying :class:`Faults` to API requests."""

    def __init__(self, app: ASGIApp, faults: Faults, *, idp_prefix: str) -> None:
        self.app = app
        self.faults = faults
        self.idp_prefix = idp_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (
            not self.faults.include_idp and str(scope.get("path", "")).startswith(self.idp_prefix)
        ):
            await self.app(scope, receive, send)
            return
        delay, kind, status = self.faults.draw()
        if delay > 0:
            await asyncio.sleep(delay)
        if kind == "error":
            await _send_error(send, status, self.faults.retry_after, self.faults.pad_bytes)
        elif kind == "drop":
            await _drop(scope)
        elif kind == "html":
            await _send_html(send)
        elif (
            kind in ("truncate", "malform") or self.faults.pad_bytes or self.faults.content_type or self.faults.trickle
        ):
            await self._rewrite(scope, receive, send, kind)
        else:
            await self.app(scope, receive, send)

    async def _rewrite(self, scope: Scope, receive: Receive, send: Send, kind: str | None) -> None:
        start: Message | None = None
        body = bytearray()

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                body.extend(message.get("body", b""))

        await self.app(scope, receive, capture)
        if start is None:
            return
        headers = list(start.get("headers", []))
        if kind == "malform":
            content_type = dict(headers).get(b"content-type", b"")
            if 200 <= start["status"] < 300 and content_type.startswith(b"application/json"):
                broken = bytes(body[: max(1, len(body) // 2)])
                headers = [(k, v) for k, v in headers if k != b"content-length"]
                headers.append((b"content-length", str(len(broken)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": broken})
                return
            await send(start)
            await send({"type": "http.response.body", "body": bytes(body)})
            return
        if kind == "truncate":  # announce the full length, send half, then cut the connection
            await send(start)
            await send({"type": "http.response.body", "body": bytes(body[: len(body) // 2]), "more_body": True})
            await _drop(scope)
            return
        content_type = dict(headers).get(b"content-type", b"")
        if self.faults.pad_bytes and content_type.startswith(b"application/json"):
            body.extend(b" " * self.faults.pad_bytes)  # trailing whitespace: still the same JSON document
        if self.faults.content_type:
            headers = [(k, v) for k, v in headers if k != b"content-type"]
            headers.append((b"content-type", self.faults.content_type.encode("latin-1")))
        headers = [(k, v) for k, v in headers if k != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        if self.faults.trickle > 0:
            await _trickle(scope, send, bytes(body), self.faults.trickle)
            return
        await send({"type": "http.response.body", "body": bytes(body)})


async def _send_error(send: Send, status: int, retry_after: int | None, pad_bytes: int = 0) -> None:
    code, message = ("ERR_UNAVAILABLE", "Service Unavailable") if status == 503 else ("ERR_INTERNAL", "Injected fault")
    if pad_bytes:
        message = f"{message}: " + "x" * pad_bytes
    payload = json.dumps({"code": code, "message": message, "metadata": {"injected": True}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


#: What a TLS-intercepting proxy or a captive portal answers instead of the API: 200 and a sign-in page.
HTML_PAGE: Final = (
    b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head>"
    b"<body><h1>Sign in to continue</h1><form method=post><input name=user></form></body></html>\n"
)


async def _send_html(send: Send) -> None:
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(HTML_PAGE)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": HTML_PAGE})


async def _trickle(scope: Scope, send: Send, body: bytes, every: float) -> None:
    """Send ``body`` one byte every ``every`` seconds, until it is sent or the client has gone."""
    transport: Any = scope.get("extensions", {}).get(TRANSPORT_KEY)
    for index in range(len(body)):
        if transport is not None and transport.is_closing():
            return
        last = index == len(body) - 1
        await send({"type": "http.response.body", "body": body[index : index + 1], "more_body": not last})
        if not last:
            await asyncio.sleep(every)


class DroppedConnection(ConnectionAbortedError):
    """Raised where the server gives no transport to abort (e.g. an in-process ASGI transport)."""


async def _drop(scope: Scope) -> None:
    transport: Any = scope.get("extensions", {}).get(TRANSPORT_KEY)
    if transport is None:
        raise DroppedConnection("fault injection: connection dropped")
    transport.abort()
    await asyncio.sleep(0)  # let the server see the disconnect before the app returns
