"""A password never shows: a URL with credentials in it is refused when a client or an auth is built (saying
where credentials go, without repeating them), and a real sign-in and call, with every logger of the process
at DEBUG, leaves the password in no log line, repr or exception. The async and the sync client."""

from __future__ import annotations

import io
import logging
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from raw_http import TOKEN_PATH, RawServer, raw_server, token, version_info

from printmgmt import PasswordAuth, PrintClient
from printmgmt.errors import ConfigurationError, PrintMgmtError
from printmgmt.sync import PrintClient as SyncPrintClient

PASSWORD = "pa55-W0RD-in-the-url"


@pytest.fixture
def every_log() -> Iterator[io.StringIO]:
    """Every logger of the process (httpx, httpcore, printmgmt, asyncio...) at DEBUG, into one text."""
    text = io.StringIO()
    handler = logging.StreamHandler(text)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s %(args)s"))
    root = logging.getLogger()
    loggers = [root, *(logging.getLogger(name) for name in list(logging.root.manager.loggerDict))]
    for name in ("httpx", "httpcore", "printmgmt", "printmgmt.auth", "asyncio"):
        loggers.append(logging.getLogger(name))
    levels = [(logger, logger.level, logger.disabled) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        logger.disabled = False
    root.addHandler(handler)
    try:
        yield text
    finally:
        root.removeHandler(handler)
        for logger, level, disabled in levels:
            logger.setLevel(level)
            logger.disabled = disabled


def texts_of(exc: BaseException) -> list[str]:
    """str, repr, args and attributes of ``exc`` and of its whole chain, and the formatted traceback."""
    texts = ["".join(traceback.format_exception(exc))]
    pending, seen = [exc], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        texts += [str(current), repr(current), repr(current.args), *(repr(v) for v in vars(current).values())]
        pending += [e for e in (current.__cause__, current.__context__) if e is not None]
    return texts


def url_with_password(server: RawServer) -> str:
    return server.url.replace("http://", f"http://ann:{PASSWORD}@")


@pytest.fixture
def server() -> Iterator[RawServer]:
    with raw_server({TOKEN_PATH: token(), "/v3/": version_info}) as served:
        yield served


def builders(server: RawServer) -> dict[str, Callable[[], Any]]:
    """Every way a URL with a password can be given, on each client."""
    secret_url = url_with_password(server)
    auth = PasswordAuth(auth_url=server.url, username="ann", password="pw", client_secret="cs")
    return {
        "base_url-httpx": lambda: PrintClient(secret_url, auth=auth, transport="httpx"),
        "base_url-sync": lambda: SyncPrintClient(secret_url, auth=auth),
        "base_url-from_env": lambda: PrintClient.from_env({"PRINTMGMT_BASE_URL": secret_url, "PRINTMGMT_TOKEN": "t"}),
        "auth_url": lambda: PasswordAuth(auth_url=secret_url, username="ann", password="pw", client_secret="cs"),
        "token_url": lambda: PasswordAuth(
            token_url=secret_url + TOKEN_PATH, username="ann", password="pw", client_secret="cs"
        ),
        "without-scheme": lambda: PrintClient(f"ann:{PASSWORD}@printserver:8080"),
    }


WAYS = ["base_url-httpx", "base_url-sync", "base_url-from_env", "auth_url", "token_url"]


@pytest.mark.parametrize("way", [*WAYS, "without-scheme"])
def test_a_url_with_a_password_is_refused_without_showing_it(
    server: RawServer, way: str, every_log: io.StringIO
) -> None:
    with pytest.raises(ConfigurationError, match=r"must not hold credentials \(.*\*\*\*@.*\): give the user") as caught:
        builders(server)[way]()
    assert "PasswordAuth(username=..., password=...)" in str(caught.value)
    leaked = [text for text in [*texts_of(caught.value), every_log.getvalue()] if PASSWORD in text]
    assert leaked == []


@pytest.mark.parametrize("transport", ["httpx", "sync"])
async def test_a_sign_in_and_its_calls_log_no_password_at_debug(
    server: RawServer, transport: str, every_log: io.StringIO
) -> None:
    auth = PasswordAuth(auth_url=server.url, username="ann", password=PASSWORD, client_secret="cs")
    shown: list[str] = [repr(auth)]
    if transport == "sync":
        with SyncPrintClient(server.url, auth=auth) as sync_client:
            shown.append(repr(sync_client))
            assert sync_client.version_info()["api"] == "v3"
            with pytest.raises(PrintMgmtError) as caught:
                sync_client.jobs.get("nowhere")
    else:
        async with PrintClient(server.url, auth=auth, transport=transport) as client:  # type: ignore[arg-type]
            shown.append(repr(client))
            assert (await client.version_info())["api"] == "v3"
            with pytest.raises(PrintMgmtError) as caught:
                await client.jobs.get("nowhere")
    logged = every_log.getvalue()
    assert f"HTTP Request: POST {server.url}{TOKEN_PATH}" in logged  # httpx's own log lines were captured
    assert server.seen[TOKEN_PATH] == 1
    leaked = [text for text in [*shown, *texts_of(caught.value), logged] if PASSWORD in text]
    assert leaked == []
