"""Staying signed in: ``printmgmt login`` keeps a session, later commands reuse and rotate it, ``logout``
revokes it; end to end against the simulator's identity provider, with an in-memory keyring backend (16.1)."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import keyring
import keyring.errors
import pytest
import typer.main
from cli_helpers import Invoke
from keyring.backend import KeyringBackend
from printmgmt_sim import Simulator
from typer.core import TyperGroup

NO_PASSWORD = {"PRINTMGMT_PASSWORD": None, "PRINTMGMT_CLIENT_SECRET": None}


class MemoryKeyring(KeyringBackend):
    """A keyring backend in memory: the real keyring API, no OS store touched."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's base class is untyped
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("not found")


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def stored(ring: MemoryKeyring) -> dict[str, str]:
    sessions = [json.loads(value) for (service, name), value in ring.entries.items() if name.startswith("session:")]
    assert len(sessions) == 1, ring.entries.keys()
    session: dict[str, str] = sessions[0]
    return session


def test_login_keeps_a_session_that_later_commands_reuse_and_rotate(
    cli: Invoke, sim: Simulator, ring: MemoryKeyring
) -> None:
    idp = sim.backend.idp
    result = cli("login")
    assert result.exit_code == 0, result.stderr
    assert "signed in as" in result.stderr and "OS keyring" in result.stderr
    first = stored(ring)["refresh_token"]
    assert idp.counts["password"] == 1
    password = sim.env("admin", "cli")["PRINTMGMT_PASSWORD"]
    assert all(password not in value for value in ring.entries.values())  # the password is never kept

    # no password or client secret anywhere now: the session signs in, and its rotated token is kept
    for _ in range(2):
        listed = cli("jobs", "list", "--top", "1", "-o", "json", env=NO_PASSWORD)
        assert listed.exit_code == 0, listed.stderr
    assert idp.counts["password"] == 1
    assert idp.counts["refresh_token"] == 2  # the simulator's refresh tokens work once: rotation was stored
    assert stored(ring)["refresh_token"] != first

    whoami = cli("whoami", env=NO_PASSWORD)
    assert whoami.exit_code == 0 and "a stored session in the OS keyring" in whoami.stderr


def test_logout_revokes_and_forgets_the_session(cli: Invoke, sim: Simulator, ring: MemoryKeyring) -> None:
    assert cli("login").exit_code == 0
    refresh = stored(ring)["refresh_token"]
    result = cli("logout", env=NO_PASSWORD)
    assert result.exit_code == 0, result.stderr
    assert "revoked and forgotten" in result.stderr
    assert not any(name.startswith("session:") for _, name in ring.entries)
    assert sim.backend.idp.counts["revoke"] == 1
    # the identity provider no longer honours it, and without a session or password there is no sign-in
    assert (
        sim.backend.idp.grant({"grant_type": "refresh_token", "refresh_token": refresh, **_client_form(sim)})[0] == 400
    )
    after = cli("jobs", "list", "--top", "1", env=NO_PASSWORD)
    assert after.exit_code == 3
    assert cli("logout", env=NO_PASSWORD).stderr.startswith("not signed in")


def _client_form(sim: Simulator) -> dict[str, str]:
    env = sim.env("admin", "cli")  # the cli fixture's client
    return {"client_id": env["PRINTMGMT_CLIENT_ID"], "client_secret": env["PRINTMGMT_CLIENT_SECRET"]}


def test_a_session_file_only_when_asked_and_only_for_its_owner(
    cli: Invoke, profiles: Path, ring: MemoryKeyring
) -> None:
    assert cli("login", "--store", "file").exit_code == 0
    path = profiles.with_name("sessions.json")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not ring.entries  # not in the keyring
    assert cli("whoami", env=NO_PASSWORD).exit_code == 0
    assert "the session file" in cli("whoami", env=NO_PASSWORD).stderr
    assert cli("logout", env=NO_PASSWORD).exit_code == 0
    assert json.loads(path.read_text()) == {}


def test_a_password_in_the_environment_wins_over_a_stored_session(cli: Invoke, ring: MemoryKeyring) -> None:
    assert cli("login").exit_code == 0
    assert "a password (env)" in cli("whoami").stderr


def test_global_options_are_accepted_after_the_subcommand(cli: Invoke, sim: Simulator) -> None:
    args = ("jobs", "list", "--top", "1", "-o", "json", "--base-url", sim.base_url)
    result = cli(*args, env={"PRINTMGMT_BASE_URL": None})
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)) == 1
    debug = cli("printers", "list", "--top", "1", "--debug")
    assert debug.exit_code == 0 and "GET /v3/printers/" in debug.stderr


def test_global_options_move_before_the_subcommand_unless_it_has_its_own() -> None:
    from printmgmt_cli.app import app, hoist_globals

    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    ctx = typer.Context(root)
    moved = hoist_globals(root, ctx, ["jobs", "list", "--debug", "--timeout", "5", "-o", "json"])
    assert moved == ["--debug", "--timeout", "5", "jobs", "list", "-o", "json"]
    own = hoist_globals(root, ctx, ["jobs", "wait", "j1", "--timeout", "5", "--debug"])
    assert own == ["--debug", "jobs", "wait", "j1", "--timeout", "5"]  # the wait's own --timeout stays
    valued = hoist_globals(root, ctx, ["--profile", "jobs", "jobs", "list", "--retries=1"])
    assert valued == ["--profile", "jobs", "--retries=1", "jobs", "list"]
    assert hoist_globals(root, ctx, ["jobs", "list", "--", "--debug"]) == ["jobs", "list", "--", "--debug"]
    assert hoist_globals(root, ctx, ["nosuch", "--debug"]) == ["nosuch", "--debug"]  # click names the unknown one


def test_python_dash_m_printmgmt() -> None:
    done = subprocess.run([sys.executable, "-m", "printmgmt", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("printmgmt ")


def test_config_show_lists_a_stored_login(cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str) -> None:
    """In an 80-column terminal: no login, then the session ``login --store file`` kept, where, and whether this
    run uses it (a password in the environment wins)."""
    from cli_helpers import in_terminal, table_rows, terminal_env

    def login_row(env: dict[str, str]) -> dict[str, str]:
        code, screen = in_terminal(["config", "show"], env)
        assert code == 0, screen
        assert max(len(line) for line in screen.splitlines()) <= 80, screen
        headers, rows, _ = table_rows(screen)
        joined: list[list[str]] = []
        for row in rows:  # a wrapped cell's further lines join its row
            if row[0]:
                joined.append(row)
            else:
                joined[-1] = [f"{a} {b}".strip() for a, b in zip(joined[-1], row, strict=True)]
        cells = dict(zip(headers, next(row for row in joined if row[0] == "login"), strict=True))
        return {header: cells[header] for header in ("Setting", "Value", "Source")}  # the note: when there is room

    def login_note(env: Mapping[str, str | None]) -> str:
        settings = json.loads(cli("config", "show", "-o", "json", env=env).stdout)["settings"]
        note: str = next(row["note"] for row in settings if row["setting"] == "login")
        return note

    env = terminal_env(sim, profiles, ca_bundle)
    without = {key: value for key, value in env.items() if key not in NO_PASSWORD}
    assert login_row(without) == {"Setting": "login", "Value": "", "Source": ""}
    assert login_note(NO_PASSWORD) == "none stored (printmgmt login)"
    assert cli("login", "--store", "file").exit_code == 0
    user = sim.user("admin").username
    assert login_row(without) == {"Setting": "login", "Value": f"session of {user}", "Source": "file"}
    sessions = profiles.with_name("sessions.json")
    assert login_note(NO_PASSWORD) == f"used; printmgmt logout ends it; kept in {sessions}"
    assert login_note({}).startswith("not used: password set")
