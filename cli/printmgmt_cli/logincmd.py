"""``printmgmt login`` / ``logout``: sign in once, keep the session, end it (as ``gh auth login``, ``az login``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from .errors import ConfigError, CredentialsError
from .output import message
from .runner import Exit, reporting, run, state
from .session import Store

if TYPE_CHECKING:
    from printmgmt import PrintClient

__all__ = ["login", "logout"]


def login(
    ctx: typer.Context,
    store: Annotated[
        Store | None,
        typer.Option(
            "--store",
            help="keyring (the OS keyring) or file (sessions.json beside the profiles, 0600); "
            "default: the keyring when one works here, else the file.",
        ),
    ] = None,
) -> None:
    """Sign in with your password once and keep the session: later commands reuse and renew it.

    The password comes from PRINTMGMT_PASSWORD, the keyring or a prompt; only the refresh token (and the
    client secret it needs) is kept, in the OS keyring when one works, else in a file only you can read.
    Which store is said before anything is asked.
    """
    from printmgmt.auth import PasswordAuth

    from .session import Session, keyring_problem, save, session_entry, session_file

    with reporting(ctx) as current:
        file = session_file(current.resolve().path)
        problem = None if store == "file" else keyring_problem()
        if store == "keyring" and problem:
            raise ConfigError(f"--store keyring: {problem}; --store file keeps the session in {file} instead")
    chosen: Store = "file" if store == "file" or problem else "keyring"
    if chosen == "keyring":
        message(f"the session will be kept in the OS keyring (--store file: in {file} instead)")
    elif store is None:
        message(f"{problem}: the session will be kept in {file}, readable by you only (--store keyring to insist)")
    else:
        message(f"the session will be kept in {file}, readable by you only")

    async def action(client: PrintClient) -> int:
        roles = await client.auth.user_roles()
        resolved = state(ctx).resolved
        auth = client.http.auth
        assert resolved is not None
        if not isinstance(auth, PasswordAuth) or not auth.refresh_token:
            raise CredentialsError("the identity provider gave no refresh token: there is no session to keep")
        entry = session_entry(resolved.values)
        assert entry is not None  # a password sign-in has a user, an identity provider and a client
        secret = resolved.secrets["client_secret"]
        save(Session(entry, chosen, auth.refresh_token, secret), resolved.path)
        where = "the OS keyring" if chosen == "keyring" else str(file)
        message(f"signed in as {roles.user} ({', '.join(roles.roles or []) or 'no roles'}); session kept in {where}")
        return Exit.OK

    run(ctx, action, sessions=False)


def logout(ctx: typer.Context) -> None:
    """End the stored session: revoke its refresh token at the identity provider and forget it."""
    import httpx

    from .session import forget, load

    with reporting(ctx) as current:
        resolved = current.resolve()
        session = load(resolved.values, resolved.path)
        if session is None:
            message(f"not signed in: no stored session for {resolved.values.get('username') or 'this user'}")
            return
        from printmgmt.settings import is_off, ssl_context

        request = resolved.session_auth(session).revocation_request()
        verify = ssl_context(resolved.values.get("ca_bundle") or not is_off(resolved.values.get("verify")))
        problem = None
        try:
            with httpx.Client(verify=verify, timeout=10) as http:
                answer = http.send(request)
            if not answer.is_success:
                problem = f"the identity provider answered {answer.status_code} to POST {request.url}"
        except httpx.HTTPError as exc:
            problem = f"POST {request.url} failed: {type(exc).__name__}"
        forget(session, resolved.path)
        if problem:
            message(f"session forgotten here, but not revoked: {problem}", style="yellow")
            raise typer.Exit(Exit.API)
        message("signed out: the session is revoked and forgotten")
