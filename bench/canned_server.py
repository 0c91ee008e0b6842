"""A minimal HTTP/1.1 keep-alive server answering canned bodies, run in its own process.

It exists so that client-side figures measure the client: an ``asyncio.Protocol`` with no framework, no
routing table and pre-built answers spends a few microseconds per request. Routes:

* ``GET /v3/jobs/{id}``: the canned job body;
* ``GET /v3/jobs/?$top=&$skip=``: a page of ``--total`` jobs made from the canned job with distinct ``_id``
  values (``totalCount`` with ``$inlinecount=allpages``);
* ``POST .../token``: a canned token answer;
* anything else: the canned job body.

``--delay`` seconds are added to every answer (without blocking other connections). Start it with
:func:`serve` from the bench process; run as ``python -m bench.canned_server`` it prints ``PORT <n>`` once
it listens on ``127.0.0.1`` (port 0: a free one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["CannedServer", "serve"]

_ID_MARK = "__BENCH_ID__"
_TOKEN_BODY = json.dumps(
    {"access_token": "bench-token", "token_type": "Bearer", "expires_in": 300, "refresh_token": "bench-refresh"}
).encode()


class _Bodies:
    """Pre-built answers; a page is joined from the job split around its ``_id``."""

    def __init__(self, job: bytes, total: int) -> None:
        document = json.loads(job)
        document["_id"] = _ID_MARK
        head, tail = json.dumps(document, separators=(",", ":")).encode().split(_ID_MARK.encode())
        self.job = _answer(job)
        self.token = _answer(_TOKEN_BODY)
        self.total = total
        self._head, self._tail = head, tail

    def page(self, query: str) -> bytes:
        params = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
        skip = int(params.get("$skip", "0") or 0)
        top = int(params.get("$top", str(self.total)) or 0)
        ids = range(skip, min(skip + top, self.total))
        # 24 hex digits, like the MongoDB ObjectIds of the real service; ordered as $orderby=_id expects
        results = b",".join(b"%s%024x%s" % (self._head, i, self._tail) for i in ids)
        if params.get("$inlinecount") == "allpages":
            return _answer(b'{"results":[%s],"totalCount":%d}' % (results, self.total))
        return _answer(b'{"results":[%s]}' % results)


def _answer(body: bytes, status: bytes = b"200 OK") -> bytes:
    return (
        b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: keep-alive\r\n\r\n"
        % (status, len(body))
    ) + body


class _Protocol(asyncio.Protocol):
    """One connection: splits requests off the buffer and answers each (no pipelining needed by clients)."""

    def __init__(self, bodies: _Bodies, delay: float) -> None:
        self._bodies = bodies
        self._delay = delay
        self._buffer = b""
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self._buffer[:end]
            length = _content_length(head)
            if len(self._buffer) < end + 4 + length:
                return  # the body has not arrived yet
            self._buffer = self._buffer[end + 4 + length :]
            self._respond(self._route(head))

    def _route(self, head: bytes) -> bytes:
        method, target = head.split(b"\r\n", 1)[0].split(b" ")[:2]
        url = urlsplit(target.decode("latin-1"))
        path = unquote(url.path)
        if method == b"POST" and path.endswith("/token"):
            return self._bodies.token
        if path.rstrip("/") == "/v3/jobs":
            return self._bodies.page(url.query)
        return self._bodies.job

    def _respond(self, answer: bytes) -> None:
        if self._delay:
            asyncio.get_running_loop().call_later(self._delay, self._write, answer)
        else:
            self._write(answer)

    def _write(self, answer: bytes) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(answer)

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None


def _content_length(head: bytes) -> int:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return 0


async def _main(job_file: Path, total: int, delay: float, port: int) -> None:
    bodies = _Bodies(job_file.read_bytes(), total)  # noqa: ASYNC240  (once, before serving)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: _Protocol(bodies, delay), "127.0.0.1", port, backlog=1024)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    async with server:
        await stop.wait()


@dataclass(frozen=True, slots=True)
class CannedServer:
    """A running canned server: its URL and process id."""

    url: str
    pid: int

    def cpu_seconds(self) -> float | None:
        """User + system CPU the server process has used (Linux ``/proc``; None elsewhere)."""
        return process_cpu_seconds(self.pid)


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) of process ``pid`` from ``/proc``, or None when unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # fields after the command name: state is [0], utime [11], stime [12], in clock ticks
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def serve(
    job_file: Path, *, total: int = 1000, delay: float = 0.0, cpus: set[int] | None = None
) -> Iterator[CannedServer]:
    """Run the canned server in a child process for the duration of the ``with``; stop it by its PID."""
    command = [sys.executable, "-m", "bench.canned_server", str(job_file), f"--total={total}", f"--delay={delay}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parent.parent)
    try:
        if cpus and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(process.pid, cpus)
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"canned server did not start (exit code {process.poll()})")
        yield CannedServer(f"http://127.0.0.1:{int(line.split()[1])}", process.pid)
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("job_file", type=Path, help="JSON body of one job")
    parser.add_argument("--total", type=int, default=1000, help="jobs in the paged collection")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds added to every answer")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(_main(args.job_file, args.total, args.delay, args.port))


if __name__ == "__main__":
    main()
