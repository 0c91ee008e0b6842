"""Starting and stopping the referee servers (used by conftest.py's session fixtures).

Each server binds 127.0.0.1 on a free port, is polled until it answers (with a deadline), and is stopped
by its PID; :meth:`Server.stop` then checks that nothing listens on the port any more.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
NODE_MODULES = REPO / "node_modules"
SPEC_PATH = REPO / "openapi.yaml"
IDP_SCRIPT = Path(__file__).resolve().with_name("keycloak_idp.mjs")

#: How long a server may take to answer its first request (Prism: 2-4 s, the IdP: under 1 s).
START_DEADLINE = 60.0
#: How long a server may take to exit after SIGTERM before it is killed.
STOP_DEADLINE = 10.0
POLL_INTERVAL = 0.05
#: Start attempts: a free port picked here can be taken by someone else before the server binds it.
START_ATTEMPTS = 3


def require(path: Path, what: str) -> Path:
    if not path.exists():
        pytest.fail(
            f"{what} is not installed ({path} is missing). The referee tests need the pinned Node tools: "
            f"run `npm ci` in {REPO} (or `make node_modules/.installed`).",
            pytrace=False,
        )
    return path


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is not on PATH: the referee tests need Node 20 and `npm ci` in the repository.")
    return found


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Linux: the server gets SIGTERM when pytest dies, even by SIGKILL (no orphans holding ports)."""
    pr_set_pdeathsig = 1
    ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def port_is_listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1.0)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Server:
    """A referee server process on 127.0.0.1."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    started_in: float
    url: str = field(init=False)

    def __post_init__(self) -> None:
        self.url = f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM by PID (SIGKILL after STOP_DEADLINE), then check that the port is free."""
        process = self.process
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(STOP_DEADLINE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_DEADLINE)
        deadline = time.monotonic() + STOP_DEADLINE
        while port_is_listening(self.port):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} (pid {process.pid}) stopped but port {self.port} still answers")
            time.sleep(POLL_INTERVAL)


def start_server(
    name: str,
    command: Callable[[int], list[str]],
    ready_path: str,
    log_dir: Path,
    env: dict[str, str] | None = None,
) -> Server:
    """Start ``command(port)`` on a free port and wait until ``GET ready_path`` gets any HTTP answer."""
    failures = []
    for attempt in range(1, START_ATTEMPTS + 1):
        port = free_port()
        log = log_dir / f"{name}-{port}.log"
        started = time.monotonic()
        with log.open("wb") as sink:  # the child keeps its own descriptor
            process = subprocess.Popen(
                command(port),
                cwd=REPO,
                env={**os.environ, **(env or {})},
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        server = Server(name, port, process, log, 0.0)
        deadline = started + START_DEADLINE
        with httpx.Client(trust_env=False, timeout=2.0) as probe:
            while process.poll() is None and time.monotonic() < deadline:
                try:
                    probe.get(server.url + ready_path)
                except httpx.TransportError:
                    time.sleep(POLL_INTERVAL)
                    continue
                server.started_in = time.monotonic() - started
                return server
        if process.poll() is None:  # deadline passed
            server.stop()
            pytest.fail(
                f"{name} did not answer within {START_DEADLINE:.0f} s on port {port}. Log:\n{server.log_tail()}",
                pytrace=False,
            )
        server.stop()
        failures.append(f"attempt {attempt} (port {port}, exit {process.returncode}):\n{server.log_tail()}")
        if "EADDRINUSE" not in server.log_tail():
            break
    pytest.fail(f"{name} did not start:\n" + "\n".join(failures), pytrace=False)


@dataclass
class Idp:
    """A Keycloak-shaped realm served by keycloak_idp.mjs."""

    server: Server
    realm: str
    prefix: str
    client_id: str
    client_secret: str
    username: str
    password: str
    access_ttl: int

    @property
    def auth_url(self) -> str:
        """What ``PasswordAuth(auth_url=...)`` takes: the server root plus the path prefix."""
        return self.server.url + self.prefix

    @property
    def issuer(self) -> str:
        return f"{self.auth_url}/realms/{self.realm}"

    @property
    def token_url(self) -> str:
        return f"{self.issuer}/protocol/openid-connect/token"

    @property
    def jwks_url(self) -> str:
        return f"{self.issuer}/protocol/openid-connect/certs"


def start_idp(name: str, log_dir: Path, *, realm: str, prefix: str, access_ttl: int) -> Idp:
    require(NODE_MODULES / "oauth2-mock-server" / "package.json", "oauth2-mock-server")
    node_bin = node()
    client_id = "seal-plossyscli"
    # characters that break a hand-made form body: the SDK must encode them
    client_secret = "s3cr&t=+/ %x"
    username, password = "seal-admin", "p@ss w&rd=+%20;\u00e9"
    env = {
        "PATH_PREFIX": prefix,
        "CLIENT_ID": client_id,
        "CLIENT_SECRET": client_secret,
        "TEST_USER": username,
        "TEST_PASSWORD": password,
        "ACCESS_TTL": str(access_ttl),
    }
    ready = f"{prefix}/realms/{realm}/.well-known/openid-configuration"
    server = start_server(name, lambda port: [node_bin, str(IDP_SCRIPT), str(port), realm], ready, log_dir, env)
    return Idp(server, realm, prefix, client_id, client_secret, username, password, access_ttl)
