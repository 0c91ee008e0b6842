"""A misbehaving HTTP server on 127.0.0.1 for the edge cases httpx mocks cannot play: each request's bytes are
read off a real socket and a handler writes whatever it likes back (slowly, broken, or not at all).

It runs on threads, so the async clients (either transport) and the sync client meet the same server.
"""

from __future__ import annotations

import json
import socket
import socketserver
import ssl
import struct
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

#: The token endpoint of realm SEAL under the server's root (PasswordAuth(auth_url=server.url)).
TOKEN_PATH = "/realms/SEAL/protocol/openid-connect/token"


@dataclass
class Exchange:
    """One request as the server read it, and the connection to answer on."""

    method: str
    path: str
    head: bytes
    body: bytes
    conn: socket.socket
    stopping: threading.Event

    def send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        """A whole JSON answer at once."""
        body = json.dumps(payload).encode()
        self.conn.sendall(head_of(status, len(body), headers) + body)

    def reset(self, first: bytes = b"") -> None:
        """Send ``first`` (the start of an answer, say), then reset the connection (RST, not a clean close)."""
        if first:
            self.conn.sendall(first)
        self.conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.conn.close()

    def trickle(self, status: int, payload: Any, every: float) -> None:
        """The head at once, then the JSON body one byte every ``every`` seconds (until the client leaves)."""
        body = json.dumps(payload).encode()
        self.conn.sendall(head_of(status, len(body)))
        for i in range(len(body)):
            if self.stopping.wait(every):
                return
            self.conn.sendall(body[i : i + 1])


def head_of(status: int, length: int, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"HTTP/1.1 {status} X", "Content-Type: application/json", f"Content-Length: {length}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


Handler = Callable[[Exchange], None]


def before_body(handler: Handler) -> Handler:
    """Mark ``handler`` to be called once the request's head is read, before its body (``exchange.body`` is
    then empty)."""
    handler.before_body = True  # type: ignore[attr-defined]
    return handler


@dataclass
class RawServer:
    """``url`` is the root; ``routes`` maps a path (without query) to its handler; ``seen`` counts requests."""

    url: str
    routes: Mapping[str, Handler]
    seen: dict[str, int] = field(default_factory=dict)


def not_found(exchange: Exchange) -> None:
    exchange.send(404, {"message": "no route"})


def version_info(exchange: Exchange) -> None:
    exchange.send(200, {"api": "v3"})


def token(lifetime: Any = 300, *, refresh: bool = False) -> Handler:
    """A token endpoint that issues ``access-<n>`` with ``expires_in=lifetime`` (left out when ``...``)."""
    issued = iter(range(1, 1_000_000))

    def answer(exchange: Exchange) -> None:
        payload: dict[str, Any] = {"access_token": f"access-{next(issued)}", "token_type": "Bearer"}
        if lifetime is not ...:
            payload["expires_in"] = lifetime
        if refresh:
            payload["refresh_token"] = "refresh"
        exchange.send(200, payload)

    return answer


@contextmanager
def raw_server(routes: Mapping[str, Handler], *, tls: ssl.SSLContext | None = None) -> Iterator[RawServer]:
    """Serve ``routes`` (404 for any other path) until the block ends; handlers are stopped then. With ``tls``
    (a server context), over TLS: ``url`` is ``https://127.0.0.1:<port>``."""
    stopping = threading.Event()
    state = RawServer("", routes)
    lock = threading.Lock()

    class Handle(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            try:
                if tls is None:
                    self.exchanges()
                    return
                with tls.wrap_socket(self.request, server_side=True) as self.request:
                    self.exchanges()
            except OSError:  # the client left, or the handler closed the connection
                return

        def exchanges(self) -> None:
            conn: socket.socket = self.request
            buffered = b""
            while not stopping.is_set():
                while b"\r\n\r\n" not in buffered:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    buffered += chunk
                head, _, buffered = buffered.partition(b"\r\n\r\n")
                method, target = head.split(b" ", 2)[:2]
                path = target.decode().split("?", 1)[0]
                with lock:
                    state.seen[path] = state.seen.get(path, 0) + 1
                handler = routes.get(path, not_found)
                body = b""
                if not getattr(handler, "before_body", False):
                    lines = head.lower().split(b"\r\n")
                    length = next((int(line[15:]) for line in lines if line.startswith(b"content-length:")), 0)
                    while len(buffered) < length:
                        chunk = conn.recv(65536)
                        if not chunk:
                            return
                        buffered += chunk
                    body, buffered = buffered[:length], buffered[length:]
                handler(Exchange(method.decode(), path, head, body, conn, stopping))

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True
        # tests open dozens of connections at once: socketserver's backlog of 5 drops their SYNs, and a
        # dropped SYN waits a second or more for its retry
        request_queue_size = 128

        def server_bind(self) -> None:
            # a small receive buffer (inherited by each connection): a large body the server does not read
            # fills it soon, so the client is still sending when a handler resets the connection
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
            super().server_bind()

    with Server(("127.0.0.1", 0), Handle) as server, serving(server, stopping):
        state.url = f"{'https' if tls else 'http'}://127.0.0.1:{server.server_address[1]}"
        yield state


@contextmanager
def serving(server: socketserver.BaseServer, stopping: threading.Event) -> Iterator[None]:
    """``server`` served on a thread until the block ends; then its handlers are told to stop (``stopping``)
    and it shuts down."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stopping.set()
        server.shutdown()
        thread.join()
