"""No password, client secret, access token or refresh token in any log record, repr or exception.

One full cycle with DEBUG logging everywhere (root, ``httpx``, ``httpcore``, ``printmgmt``):
sign-in, a refresh (the token lives a second), a retried 503, a session revoked server-side (401, refused
refresh, new sign-in, the call sent again), a transport error, an API error, a stale bearer token, and
refused sign-ins (wrong password, wrong client secret). The secrets are the real ones: the credentials
are random per run and every token the identity provider hands out is recorded as it is issued.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import traceback
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from printmgmt_sim import Simulator
from printmgmt_sim.settings import ClientCredentials, UserCredentials
from sim_helpers import NO_WAITS, bounded, close_and_check

from printmgmt import BearerToken, PasswordAuth, PrintClient
from printmgmt.errors import AuthenticationError, NotFound, PrintMgmtError, TransportError, Unauthorized

PASSWORD = "pw-" + secrets.token_urlsafe(12)
WRONG_PASSWORD = "wrong-" + secrets.token_urlsafe(12)
CLIENT_SECRET = "cs-" + secrets.token_urlsafe(12)
WRONG_SECRET = "wrongcs-" + secrets.token_urlsafe(12)


class IssuedTokens:
    """Every access and refresh token the simulator's identity provider issues while installed."""

    def __init__(self, sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
        self.access: list[str] = []
        self.refresh: list[str] = []
        idp = sim.backend.idp
        issue = idp._tokens

        def recording(username: str, client_id: str, session_id: str) -> dict[str, Any]:
            body = issue(username, client_id, session_id)
            self.access.append(body["access_token"])
            self.refresh.append(body["refresh_token"])
            return body

        monkeypatch.setattr(idp, "_tokens", recording)


@pytest.fixture
def secret_sim() -> Iterator[Simulator]:
    users = (UserCredentials("seal-admin", PASSWORD, ("admin",)),)
    clients = (ClientCredentials("seal-plossyscli", CLIENT_SECRET, "cli"),)
    with Simulator(jobs=20, speed=0, access_ttl=1, refresh_ttl=600, users=users, clients=clients) as sim:
        yield sim


def auth_for(sim: Simulator, *, password: str = PASSWORD, client_secret: str = CLIENT_SECRET) -> PasswordAuth:
    return PasswordAuth(
        auth_url=sim.auth_url,
        client_id="seal-plossyscli",
        client_secret=client_secret,
        username="seal-admin",
        password=password,
    )


def exception_texts(exc: BaseException) -> list[str]:
    """Everything an exception can show: its traceback with causes and notes, repr, and its attributes."""
    texts = ["".join(traceback.format_exception(exc)), repr(exc), str(exc)]
    seen: BaseException | None = exc
    while seen is not None:
        texts += [repr(value) for value in vars(seen).values()]
        seen = seen.__cause__ or seen.__context__
    return texts


def record_texts(record: logging.LogRecord) -> list[str]:
    """A log record as any handler could render it: formatted with its exception, its args, its extras."""
    formatted = logging.Formatter("%(name)s %(levelname)s %(message)s").format(record)
    return [formatted, record.getMessage(), repr(record.args), *(repr(value) for value in vars(record).values())]


@pytest.mark.slow
async def test_no_secret_in_logs_reprs_or_exceptions(
    secret_sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    sim = secret_sim
    caplog.set_level(logging.DEBUG)  # the root logger
    for name in ("httpx", "httpcore", "printmgmt", "printmgmt.auth", "printmgmt_sim"):
        caplog.set_level(logging.DEBUG, logger=name)
    issued = IssuedTokens(sim, monkeypatch)
    texts: list[str] = []
    errors: list[BaseException] = []

    async def expect_error(call: Any, kind: type[PrintMgmtError]) -> None:
        with pytest.raises(kind) as caught:
            await bounded(call)
        errors.append(caught.value)

    auth = auth_for(sim)
    client = PrintClient(sim.base_url, auth=auth, retry=NO_WAITS)
    texts += [repr(client), repr(auth), repr(auth._state), repr(auth._state.tokens), repr(client.http.auth)]
    assert (await bounded(client.version_info())).name == "seal-rest"  # password grant
    await asyncio.sleep(0.6)  # past the renewal margin of a 1 s token
    await bounded(client.jobs.list(top=2))  # refresh grant
    sim.faults.fail_next = 1
    await bounded(client.printers.get("printer1"))  # a 503, its retry logged by printmgmt, then the answer
    sim.revoke_tokens()
    await bounded(client.auth.user_roles())  # 401 -> refused refresh -> password grant -> sent again
    texts += [repr(client), repr(auth), repr(auth._state), repr(auth._state.tokens)]
    await expect_error(client.jobs.get("no-such-job"), NotFound)
    sim.faults.drop_rate = 1.0
    await expect_error(client.version_info(), TransportError)
    sim.faults.drop_rate = 0.0
    stale = issued.access[0]
    with_stale = PrintClient(sim.base_url, auth=BearerToken(stale))
    texts += [repr(with_stale), repr(with_stale.http.auth)]
    await expect_error(with_stale.version_info(), Unauthorized)
    wrong_password = PrintClient(sim.base_url, auth=auth_for(sim, password=WRONG_PASSWORD))
    await expect_error(wrong_password.version_info(), AuthenticationError)
    wrong_secret = PrintClient(sim.base_url, auth=auth_for(sim, client_secret=WRONG_SECRET))
    await expect_error(wrong_secret.version_info(), AuthenticationError)
    texts += [repr(wrong_password), repr(wrong_secret)]
    await close_and_check(sim, client, with_stale, wrong_password, wrong_secret)

    # the cycle did what it says, and the logs were really on
    assert sim.backend.idp.counts == {
        "password": 2,
        "refresh_token": 1,
        "refused:invalid_grant": 2,  # the revoked refresh token, the wrong password
        "refused:unauthorized_client": 1,  # the wrong client secret
    }
    assert len(issued.access) == len(issued.refresh) == 3
    loggers = {record.name for record in caplog.records}
    # httpcore logs each connection and request
    assert {"httpx", "httpcore.connection", "httpcore.http11", "printmgmt", "printmgmt.auth"} <= loggers
    assert any("401" in record.getMessage() for record in caplog.records if record.name == "printmgmt.auth")

    for error in errors:
        texts += exception_texts(error)
    for record in caplog.records:
        texts += record_texts(record)
    secret_values = {
        "password": [PASSWORD],
        "wrong password": [WRONG_PASSWORD],
        "client secret": [CLIENT_SECRET],
        "wrong client secret": [WRONG_SECRET],
        # the signature is what makes an access token secret (header and payload are plain base64 JSON)
        "access token": [token.rsplit(".", 1)[1] for token in issued.access],
        "refresh token": issued.refresh,
    }
    assert not leaks(texts, secret_values)
    assert len(texts) > 500


#: A leak is any run of this many characters of a secret: a token cut short or split still leaks.
FRAGMENT = 12


def leaks(texts: list[str], secret_values: dict[str, list[str]]) -> set[tuple[str, str]]:
    """``(what, text)`` for every text holding ``FRAGMENT`` consecutive characters of a secret value."""
    fragments = {
        value[i : i + FRAGMENT]: what
        for what, values in secret_values.items()
        for value in values
        for i in range(len(value) - FRAGMENT + 1)
    }
    found = set()
    for text in texts:
        for run in re.findall(rf"[A-Za-z0-9_\-]{{{FRAGMENT},}}", text):  # secrets here are base64url
            for i in range(len(run) - FRAGMENT + 1):
                if what := fragments.get(run[i : i + FRAGMENT]):
                    found.add((what, text[:300]))
    return found


def test_the_leak_detector_finds_fragments() -> None:
    secret = "abcdefghijklmnopqrstuvwxyz0123456789"
    values = {"token": [secret]}
    assert leaks([f"x {secret[5:17]} y"], values) == {("token", f"x {secret[5:17]} y")}
    assert leaks([f"Bearer {secret}"], values)
    assert not leaks([f"x {secret[5:16]} y", "unrelated text"], values)


async def test_a_token_response_requested_directly_is_what_the_sdk_keeps(secret_sim: Simulator) -> None:
    """The recorded values are the real ones: a token request of our own gets the same shape, and the
    access token it returns opens the API."""
    form = {
        "grant_type": "password",
        "client_id": "seal-plossyscli",
        "client_secret": CLIENT_SECRET,
        "username": "seal-admin",
        "password": PASSWORD,
    }
    async with httpx.AsyncClient() as http:
        body = (await http.post(secret_sim.token_url, data=form)).json()
        assert {"access_token", "refresh_token", "expires_in"} <= body.keys()
        version = await http.get(
            f"{secret_sim.base_url}/v3/", headers={"Authorization": f"Bearer {body['access_token']}"}
        )
        assert version.status_code == 200
