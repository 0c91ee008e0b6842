"""The session file is shared by every ``printmgmt`` process of a user (cron jobs, shells side by side): logins
at once each keep their session, and the file stays whole, private and alone in its directory."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from printmgmt_cli.session import Session, forget, load, save, session_file
from printmgmt_sim import Simulator
from printmgmt_sim.settings import UserCredentials

USERS = tuple(UserCredentials(f"operator-{n}", "test", ("admin",)) for n in range(10))


def assert_alone_and_private(sessions: Path) -> None:
    assert sorted(path.name for path in sessions.parent.iterdir()) == ["sessions.json"]  # no temporary file left
    assert stat.S_IMODE(sessions.stat().st_mode) == 0o600


@pytest.mark.print_server(users=USERS)
def test_ten_logins_at_once_keep_ten_sessions(sim: Simulator, tmp_path: Path, ca_bundle: str) -> None:
    profiles = tmp_path / "config" / "profiles.toml"
    env = {key: value for key, value in os.environ.items() if not key.startswith("PRINTMGMT_")}
    env |= sim.env() | {"PRINTMGMT_CONFIG": str(profiles), "PRINTMGMT_CA_BUNDLE": ca_bundle}
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"  # no OS keyring touched
    command = [sys.executable, "-m", "printmgmt", "login", "--store", "file"]
    logins = [
        subprocess.Popen(
            command,
            env=env | {"PRINTMGMT_USERNAME": user.username},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for user in USERS
    ]
    said = [login.communicate(timeout=180) for login in logins]
    assert [login.returncode for login in logins] == [0] * len(USERS), [err[-600:] for _, err in said]
    sessions = session_file(profiles)
    kept = json.loads(sessions.read_text())
    assert sorted(entry.split("@")[0] for entry in kept) == sorted(f"session:{user.username}" for user in USERS)
    assert_alone_and_private(sessions)


def test_writers_at_once_lose_no_session_and_leave_no_temporary_file(tmp_path: Path) -> None:
    profiles = tmp_path / "config" / "profiles.toml"
    sessions = [Session(f"session:user-{n}@idp#cli", "file", f"refresh-{n}", "secret") for n in range(40)]
    failures: list[BaseException] = []
    start = threading.Barrier(len(sessions))

    def login_and_out(session: Session) -> None:
        try:
            start.wait()
            save(session, profiles)
            save(session, profiles)  # a rotated token stored back
            if session.refresh_token.endswith("0"):
                forget(session, profiles)
        except BaseException as exc:  # reported below: a thread's exception is otherwise lost
            failures.append(exc)

    threads = [threading.Thread(target=login_and_out, args=(session,)) for session in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    kept = json.loads(session_file(profiles).read_text())
    assert sorted(kept) == sorted(s.entry for s in sessions if not s.refresh_token.endswith("0"))
    assert load({"token_url": "idp", "username": "user-1", "client_id": "cli"}, profiles) == sessions[1]
    assert_alone_and_private(session_file(profiles))
