"""Independent referees: servers nobody on this project wrote, started once per test session.

- ``prism``: ``prism mock openapi.yaml`` (@stoplight/prism-cli, pinned in package.json). It answers every
  operation from the spec's examples and flags requests that violate the spec.
- ``idp`` / ``legacy_idp``: ``keycloak_idp.mjs``, a Keycloak-shaped wrapper around oauth2-mock-server
  (pinned in package.json) that checks client secrets and passwords and rotates refresh tokens.

Each server binds 127.0.0.1 on a free port, is polled until it answers (with a deadline), and is stopped
by its PID at the end of the session; teardown checks that nothing listens on the port any more. The Node
tools come from ``npm ci`` (``make node_modules/.installed``); without them the fixtures fail and say so.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from breeze_referee import CORPUS, REWRITES, BreezeReferee, start_referee
from referee_servers import NODE_MODULES, SPEC_PATH, Idp, Server, node, require, start_idp, start_server
from semantic_referee import RUNS


@pytest.fixture(scope="session")
def referee_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("referee-logs")


@pytest.fixture(scope="session")
def prism(referee_logs: Path) -> Iterator[Server]:
    """``prism mock openapi.yaml`` with static examples; ``Prefer: dynamic=true`` gets schema-made data."""
    prism_bin = require(NODE_MODULES / ".bin" / "prism", "@stoplight/prism-cli")
    node_bin = node()

    def command(port: int) -> list[str]:
        # -v warn: Prism logs every request at info level. For Prefer: dynamic=true, --seed makes the made-up
        # data the same on every run, and fillProperties adds unknown fields to every open object.
        return [
            *[node_bin, str(prism_bin), "mock", "-h", "127.0.0.1", "-p", str(port), "-v", "warn"],
            *["--seed", "1", "--json-schema-faker-fillProperties"],
        ]

    # Prism has no health route: any answer (401 without a token) means it is up
    server = start_server("prism", lambda port: [*command(port), str(SPEC_PATH)], "/v3/", referee_logs)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def idp(referee_logs: Path) -> Iterator[Idp]:
    """Realm ``SEAL`` at the modern path (``/realms/SEAL``), Keycloak's default 300 s access tokens."""
    realm = start_idp("idp", referee_logs, realm="SEAL", prefix="", access_ttl=300)
    yield realm
    realm.server.stop()


@pytest.fixture(scope="session")
def legacy_idp(referee_logs: Path) -> Iterator[Idp]:
    """Realm ``SEAL`` behind the legacy ``/auth`` prefix, with 2 s access tokens (expiry tests)."""
    realm = start_idp("legacy-idp", referee_logs, realm="SEAL", prefix="/auth", access_ttl=2)
    yield realm
    realm.server.stop()


def _breeze(zone: str) -> Iterator[BreezeReferee]:
    referee = start_referee(zone)
    yield referee
    referee.stop()
    CORPUS[zone] += referee.checked
    REWRITES[zone] += referee.rewrites


@pytest.fixture(scope="session")
def breeze() -> Iterator[BreezeReferee]:
    """The real server's query reader (breeze_referee.cjs) with the server's zone UTC."""
    yield from _breeze("UTC")


@pytest.fixture(scope="session")
def breeze_berlin() -> Iterator[BreezeReferee]:
    """The same with the server's zone Europe/Berlin (zone-less datetimes are local time)."""
    yield from _breeze("Europe/Berlin")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if RUNS:
        for line in RUNS[-1].report().splitlines():
            terminalreporter.write_line(line)
    if CORPUS:
        counts = ", ".join(f"{n} with TZ={zone}" for zone, n in CORPUS.items())
        terminalreporter.write_line(
            f"query reading differential corpus: {sum(CORPUS.values())} query option sets ({counts}); "
            f"{sum(REWRITES.values())} rewrites offered by the strict check for them, read by breeze too"
        )
