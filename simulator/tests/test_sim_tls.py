"""TLS against a loopback HTTPS simulator whose certificate comes from a throw-away CA (trustme).

Verification is on by default, so the self-signed deployment is refused until the client is given the CA
(``verify=`` a bundle path, an ``ssl.SSLContext`` or ``PRINTMGMT_CA_BUNDLE``); ``verify=False`` works
but has to be asked for, and says so once in the ``printmgmt`` log.
"""

from __future__ import annotations

import logging
import os
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trustme
from printmgmt_sim import Simulator
from sim_helpers import bounded, close_and_check

import printmgmt._network
from printmgmt import PrintClient
from printmgmt.errors import TransportError

ROOT = Path(__file__).resolve().parents[2]


class Pki:
    """A CA, a server certificate for 127.0.0.1 signed by it, and a second CA that signed nothing."""

    def __init__(self, folder: Path) -> None:
        self.ca = trustme.CA()
        issued = self.ca.issue_cert("127.0.0.1", "localhost")
        self.ca_bundle = folder / "ca.pem"
        self.ca.cert_pem.write_to_path(str(self.ca_bundle))
        self.server_pem = folder / "server.pem"  # chain and key in one file
        issued.private_key_and_cert_chain_pem.write_to_path(str(self.server_pem))
        self.server_chain = folder / "server-chain.pem"  # chain and key apart
        self.server_key = folder / "server-key.pem"
        for blob in issued.cert_chain_pems:
            blob.write_to_path(str(self.server_chain), append=True)
        issued.private_key_pem.write_to_path(str(self.server_key))
        self.other_ca_bundle = folder / "other-ca.pem"
        trustme.CA().cert_pem.write_to_path(str(self.other_ca_bundle))


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def tls_sim(pki: Pki) -> Iterator[Simulator]:
    with Simulator(jobs=20, speed=0, tls_cert=str(pki.server_pem)) as sim:
        yield sim


@pytest.fixture
def sim(tls_sim: Simulator) -> Simulator:
    tls_sim.reset()
    return tls_sim


def test_the_simulator_serves_https(sim: Simulator, pki: Pki) -> None:
    assert sim.base_url.startswith("https://127.0.0.1:")
    assert sim.token_url.startswith("https://127.0.0.1:")
    with pytest.raises(ValueError, match="tls_key needs tls_cert"):
        Simulator(tls_key=str(pki.server_key))


async def test_verification_is_on_by_default(sim: Simulator) -> None:
    client = PrintClient(sim.base_url, auth=sim.password_auth())
    with pytest.raises(TransportError) as caught:
        await bounded(client.version_info())
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert "CERTIFICATE_VERIFY_FAILED" in str(caught.value)
    assert caught.value.attempts == 1  # the next try would meet the same certificate
    assert sim.traffic.requests == {}  # not even the token request got through
    await close_and_check(sim, client)


@pytest.mark.parametrize("verify", ["path", "pathlike", "context"])
async def test_verify_with_the_deployment_ca(sim: Simulator, pki: Pki, verify: str) -> None:
    if verify == "context":
        context = ssl.create_default_context()
        pki.ca.configure_trust(context)
        client = PrintClient(sim.base_url, auth=sim.password_auth(), verify=context)
    else:
        client = PrintClient(
            sim.base_url, auth=sim.password_auth(), verify=pki.ca_bundle if verify == "pathlike" else str(pki.ca_bundle)
        )
    assert (await bounded(client.version_info())).name == "seal-rest"
    assert sim.traffic.statuses == {f"POST /realms/{sim.realm}/protocol/openid-connect/token 200": 1, "GET /v3/ 200": 1}
    await close_and_check(sim, client)


async def test_a_bundle_of_another_ca_is_refused(sim: Simulator, pki: Pki) -> None:
    client = PrintClient(sim.base_url, auth=sim.password_auth(), verify=str(pki.other_ca_bundle))
    with pytest.raises(TransportError, match="CERTIFICATE_VERIFY_FAILED"):
        await bounded(client.version_info())
    await close_and_check(sim, client)


async def test_the_ca_bundle_from_the_environment(sim: Simulator, pki: Pki) -> None:
    client = PrintClient.from_env({**sim.env(), "PRINTMGMT_CA_BUNDLE": str(pki.ca_bundle)})
    assert (await bounded(client.jobs.list(top=3))).items
    await close_and_check(sim, client)


async def test_verify_false_is_explicit_and_warns_once(
    sim: Simulator, pki: Pki, caplog: pytest.LogCaptureFixture
) -> None:
    printmgmt._network.warn_unverified.cache_clear()  # as in a fresh process
    caplog.set_level(logging.WARNING, logger="printmgmt")
    verified = PrintClient(sim.base_url, auth=sim.password_auth(), verify=str(pki.ca_bundle))
    assert not caplog.records  # the default says nothing
    first = PrintClient(sim.base_url, auth=sim.password_auth(), verify=False)
    second = PrintClient.from_env({**sim.env(), "PRINTMGMT_VERIFY": "false"})
    for client in (first, second):
        assert (await bounded(client.version_info())).name == "seal-rest"
    warnings = [r for r in caplog.records if r.name == "printmgmt" and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "verification is off" in warnings[0].getMessage()
    await close_and_check(sim, verified, first, second)


def test_command_line_https(pki: Pki, tmp_path: Path) -> None:
    """``--tls-cert``/``--tls-key`` (key in its own file): the CLI serves HTTPS and writes an https base URL."""
    env_file = tmp_path / "sim.env"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRINTMGMT_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "simulator"), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "printmgmt_sim", "--port", "0", "--jobs", "10", "--speed", "0"]
    command += ["--tls-cert", str(pki.server_chain), "--tls-key", str(pki.server_key), "--env-file", str(env_file)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert "API https://127.0.0.1:" in process.stdout.readline()
        variables = dict(line.split("=", 1) for line in env_file.read_text().splitlines())
        assert variables["PRINTMGMT_BASE_URL"].startswith("https://")
        base = variables["PRINTMGMT_BASE_URL"]
        with httpx.Client(verify=ssl.create_default_context(cafile=str(pki.ca_bundle))) as http:
            assert http.get(f"{base}/v3/").status_code == 401  # TLS fine; no token
        with httpx.Client() as http, pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            http.get(f"{base}/v3/")
    finally:
        process.terminate()
        process.wait(timeout=20)
        assert process.stdout is not None
        process.stdout.close()
