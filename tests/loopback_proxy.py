"""An HTTP proxy on 127.0.0.1 that counts what passes through it: requests in absolute form (``GET
http://host/path``) are forwarded, and ``CONNECT host:port`` opens a tunnel (HTTPS, end to end: the proxy sees
no more than the host).

It runs on threads, so the async clients (either transport) and the sync client meet the same proxy; every
connection it holds is closed when the block ends.
"""

from __future__ import annotations

import contextlib
import select
import socket
import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from raw_http import serving


@dataclass
class Passed:
    """One request as the proxy received it."""

    method: str
    #: The request target: ``http://127.0.0.1:8000/v3/`` (forwarded) or ``127.0.0.1:8443`` (CONNECT).
    target: str
    #: The request's ``Proxy-Authorization`` header, if any (several, joined with ``, ``).
    authorization: str | None


@dataclass
class CountingProxy:
    url: str
    passed: list[Passed] = field(default_factory=list)

    def targets(self) -> list[str]:
        return [f"{seen.method} {seen.target}" for seen in self.passed]


def _read_head(conn: socket.socket, buffered: bytes) -> tuple[bytes, bytes] | None:
    while b"\r\n\r\n" not in buffered:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        buffered += chunk
    head, _, rest = buffered.partition(b"\r\n\r\n")
    return head, rest


def _read_body(conn: socket.socket, head: bytes, buffered: bytes) -> tuple[bytes, bytes]:
    """The body a ``Content-Length`` announces (every request and answer in the tests has one)."""
    lines = head.lower().split(b"\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in lines if line.startswith(b"content-length:")), 0)
    while len(buffered) < length:
        chunk = conn.recv(65536)
        if not chunk:
            raise ConnectionError("closed in the middle of a body")
        buffered += chunk
    return buffered[:length], buffered[length:]


def _pipe(a: socket.socket, b: socket.socket, stopping: threading.Event) -> None:
    """Copy bytes both ways until either side closes (or the proxy stops)."""
    while not stopping.is_set():
        ready, _, _ = select.select([a, b], [], [], 0.05)
        for source in ready:
            data = source.recv(65536)
            if not data:
                return
            (b if source is a else a).sendall(data)


@contextmanager
def loopback_proxy() -> Iterator[CountingProxy]:
    """A counting forward proxy on a free port of 127.0.0.1, until the block ends."""
    stopping = threading.Event()
    lock = threading.Lock()
    state = CountingProxy("")
    open_sockets: set[socket.socket] = set()

    class Handle(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            with lock:
                open_sockets.add(self.request)
            try:
                self.serve(self.request)
            except OSError:  # a side left
                return
            finally:
                with lock:
                    open_sockets.discard(self.request)

        def serve(self, client: socket.socket) -> None:
            buffered = b""
            while not stopping.is_set():
                read = _read_head(client, buffered)
                if read is None:
                    return
                head, buffered = read
                method, target, _ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
                fields = [line.split(b":", 1) for line in head.split(b"\r\n")[1:]]
                # every Proxy-Authorization, joined: one sent twice shows
                authorization = ", ".join(
                    value.strip().decode() for name, value in fields if name.strip().lower() == b"proxy-authorization"
                )
                with lock:
                    state.passed.append(Passed(method, target, authorization or None))
                if method == "CONNECT":
                    host, port = target.rsplit(":", 1)
                    with socket.create_connection((host, int(port)), timeout=5) as upstream:
                        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                        if buffered:
                            upstream.sendall(buffered)
                        _pipe(client, upstream, stopping)
                    return
                body, buffered = _read_body(client, head, buffered)
                url = urlsplit(target)
                kept = [
                    line
                    for line in head.split(b"\r\n")[1:]
                    if not line.lower().startswith((b"proxy-authorization:", b"proxy-connection:"))
                ]
                path = (url.path or "/") + (f"?{url.query}" if url.query else "")
                forwarded = b"\r\n".join([f"{method} {path} HTTP/1.1".encode(), *kept])
                with socket.create_connection((url.hostname or "", url.port or 80), timeout=5) as upstream:
                    upstream.sendall(forwarded + b"\r\n\r\n" + body)
                    answer = _read_head(upstream, b"")
                    if answer is None:
                        return
                    answer_head, rest = answer
                    answer_body, _ = _read_body(upstream, answer_head, rest)
                client.sendall(answer_head + b"\r\n\r\n" + answer_body)

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True
        request_queue_size = 128

    with Server(("127.0.0.1", 0), Handle) as server:
        state.url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with serving(server, stopping):
                yield state
        finally:
            with lock:
                for conn in open_sockets:  # a client's idle keep-alive connection: its handler waits in recv
                    with contextlib.suppress(OSError):  # already closed by the client
                        conn.shutdown(socket.SHUT_RDWR)
