"""Starting and stopping: the context managers, the CLI, the pytest fixtures and the demo."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from printmgmt_sim import Simulator, run_simulator
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt import PrintClient

ROOT = Path(__file__).resolve().parents[2]
SIMULATOR = ROOT / "simulator"


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def subprocess_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRINTMGMT_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SIMULATOR), env.get("PYTHONPATH")]))
    return env


async def test_run_simulator_binds_loopback_and_frees_the_port() -> None:
    async with run_simulator(jobs=10, speed=0) as sim:
        assert sim.base_url.startswith("http://127.0.0.1:")
        port = int(sim.base_url.rsplit(":", 1)[1])
        assert not port_is_free(port)
        async with sim.client() as client:
            assert (await client.version_info()).name == "seal-rest"
    assert port_is_free(port)
    sim.stop()  # stopping twice is harmless


def test_sync_use_and_restart_refusal() -> None:
    with Simulator(jobs=10) as sim:
        with pytest.raises(RuntimeError, match="already running"):
            sim.start()
        response = httpx.get(f"{sim.base_url}/v3/", headers={"Authorization": f"Bearer {sim.token()}"})
        assert response.status_code == 200


def test_a_busy_port_fails_fast() -> None:
    with Simulator(jobs=0) as first:
        port = int(first.base_url.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            Simulator(jobs=0, port=port).start()


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="speed"):
        Simulator(speed=-1)
    with pytest.raises(ValueError, match="auth_prefix"):
        Simulator(auth_prefix="auth")


def test_command_line(tmp_path: Path) -> None:
    env_file = tmp_path / "sim.env"
    command = [sys.executable, "-m", "printmgmt_sim", "--port", "0", "--jobs", "30", "--speed", "0"]
    process = subprocess.Popen(
        [*command, "--env-file", str(env_file)], env=subprocess_env(), stdout=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 20
        while not env_file.exists():
            assert process.poll() is None and time.monotonic() < deadline, "the simulator did not start"
            time.sleep(0.05)
        assert env_file.stat().st_mode & 0o077 == 0  # it holds secrets
        variables = dict(shlex.split(line)[0].split("=", 1) for line in env_file.read_text().splitlines())
        assert variables["PRINTMGMT_BASE_URL"].startswith("http://127.0.0.1:")
        token = httpx.post(
            f"{variables['PRINTMGMT_AUTH_URL']}/realms/SEAL/protocol/openid-connect/token",
            data={
                "grant_type": "password",
                "client_id": variables["PRINTMGMT_CLIENT_ID"],
                "client_secret": variables["PRINTMGMT_CLIENT_SECRET"],
                "username": variables["PRINTMGMT_USERNAME"],
                "password": variables["PRINTMGMT_PASSWORD"],
            },
        ).json()["access_token"]
        jobs = httpx.get(
            f"{variables['PRINTMGMT_BASE_URL']}/v3/jobs/", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert len(jobs) == 30
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=20)
    assert process.returncode == 0
    assert not env_file.exists()
    assert "printmgmt simulator: API http://127.0.0.1:" in output
    # the demo deployment's published credentials are shown, to sign in with
    assert f"password {variables['PRINTMGMT_PASSWORD']!r}" in output
    assert f"secret {variables['PRINTMGMT_CLIENT_SECRET']!r}" in output


def test_demo_runs_against_its_own_simulator() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    for expected in ("signed in as seal-admin with roles admin", "refused: 412", "moved job", "canceled job", "done"):
        assert expected in result.stdout


def test_print_simulator_fixture_is_reset_between_tests(print_simulator: Simulator) -> None:
    # whatever another test did to this (shared) server, the data are freshly seeded
    docs, total = print_simulator.store.find("jobs")
    assert total == 300 and print_simulator.clock.now_ms() == print_simulator.settings.start_ms
    print_simulator.store.delete_job(docs[0]["_id"])
    print_simulator.advance(60)


def test_print_simulator_fixture_is_reset_between_tests_again(print_simulator: Simulator) -> None:
    test_print_simulator_fixture_is_reset_between_tests(print_simulator)


@pytest.mark.print_server(jobs=25, realm="PLANT")
async def test_print_server_fixture(print_server: PrintServer) -> None:
    assert isinstance(print_server.client, PrintClient)
    assert len(await print_server.client.jobs.list()) == 25
    async with print_server.sim.client("custom") as custom:
        assert (await custom.auth.user_roles()).roles == ["custom"]
    readonly = print_server.client_as("readonly", "graphical")
    assert (await readonly.auth.user_roles())["client"] == "seal-plossysadmin"
