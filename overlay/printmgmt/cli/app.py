"""The ``printmgmt`` command: global options, ``whoami``, and the command groups."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from printmgmt import __version__

from . import configcmd, doctorcmd, jobs, printers, stats
from . import options as opt
from .listing import get_one
from .output import Format
from .runner import State

__all__ = ["app"]

app = typer.Typer(
    name="printmgmt",
    help="Manage print jobs and printers of a PLOSSYS Output Engine (REST interface v3).\n\n"
    "Settings come from these options, PRINTMGMT_* variables or a profile (printmgmt config init); "
    "secrets from PRINTMGMT_PASSWORD / PRINTMGMT_CLIENT_SECRET / PRINTMGMT_TOKEN, the keyring or a prompt.\n\n"
    "Exit codes: 0 done, 1 API error, 2 usage error, 3 authentication error, 4 bulk action partly done.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,  # errors are reported as one line by the runner; --debug adds the traceback
)
app.add_typer(jobs.app, name="jobs")
app.add_typer(printers.app, name="printers")
app.add_typer(stats.app, name="stats")
app.add_typer(configcmd.app, name="config")
app.command("doctor")(doctorcmd.doctor)


class ClientKind(enum.StrEnum):
    """The command line's choices of printmgmt.auth.CLIENT_IDS (typer needs an enum class; a test keeps them equal)."""

    graphical = "graphical"
    operator = "operator"
    cli = "cli"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"printmgmt {__version__}")
        raise typer.Exit()


_CONNECTION = "Connection (each overrides its PRINTMGMT_* variable and the profile)"


@app.callback()
def root(
    ctx: typer.Context,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="Server URL (PRINTMGMT_BASE_URL).", rich_help_panel=_CONNECTION),
    ] = None,
    auth_url: Annotated[
        str | None,
        typer.Option("--auth-url", help="Keycloak URL (PRINTMGMT_AUTH_URL).", rich_help_panel=_CONNECTION),
    ] = None,
    realm: Annotated[
        str | None,
        typer.Option("--realm", help="Keycloak realm, default SEAL (PRINTMGMT_REALM).", rich_help_panel=_CONNECTION),
    ] = None,
    token_url: Annotated[
        str | None,
        typer.Option(
            "--token-url",
            help="Token endpoint, instead of --auth-url (PRINTMGMT_TOKEN_URL).",
            rich_help_panel=_CONNECTION,
        ),
    ] = None,
    client_kind: Annotated[
        ClientKind | None,
        typer.Option(
            "--client-kind",
            help="Which registered client, default cli (PRINTMGMT_CLIENT_KIND).",
            rich_help_panel=_CONNECTION,
        ),
    ] = None,
    client_id: Annotated[
        str | None,
        typer.Option(
            "--client-id",
            help="Client id, instead of --client-kind (PRINTMGMT_CLIENT_ID).",
            rich_help_panel=_CONNECTION,
        ),
    ] = None,
    username: Annotated[
        str | None,
        typer.Option("--username", "-u", help="User name (PRINTMGMT_USERNAME).", rich_help_panel=_CONNECTION),
    ] = None,
    ca_bundle: Annotated[
        Path | None,
        typer.Option(
            "--ca-bundle",
            help="CA certificates to trust (PRINTMGMT_CA_BUNDLE).",
            exists=True,
            rich_help_panel=_CONNECTION,
        ),
    ] = None,
    insecure: Annotated[
        bool,
        typer.Option(
            "--insecure", help="Do not verify TLS certificates (PRINTMGMT_VERIFY=false).", rich_help_panel=_CONNECTION
        ),
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", min=0.1, help="Seconds per request (PRINTMGMT_TIMEOUT).", rich_help_panel=_CONNECTION
        ),
    ] = None,
    retries: Annotated[
        int | None,
        typer.Option(
            "--retries", min=0, help="Retries of a failed request (PRINTMGMT_RETRIES).", rich_help_panel=_CONNECTION
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="Profile file (PRINTMGMT_CONFIG; default ~/.config/printmgmt/profiles.toml).",
            dir_okay=False,
        ),
    ] = None,
    profile: Annotated[
        str | None, typer.Option("--profile", help="Profile to use (PRINTMGMT_PROFILE; default 'default').")
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Log requests and show tracebacks (never secrets).")] = False,
    version: Annotated[
        bool | None, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = None,
) -> None:
    """Manage print jobs and printers."""
    if insecure and ca_bundle is not None:
        raise typer.BadParameter("--insecure and --ca-bundle exclude each other", param_hint="--insecure")
    ctx.obj = State(
        options={
            "base_url": base_url,
            "auth_url": auth_url,
            "realm": realm,
            "token_url": token_url,
            "client_kind": client_kind.value if client_kind else None,
            "client_id": client_id,
            "username": username,
            "ca_bundle": str(ca_bundle) if ca_bundle else None,
            "verify": "false" if insecure else None,
            "timeout": str(timeout) if timeout is not None else None,
            "retries": str(retries) if retries is not None else None,
        },
        config=config,
        profile=profile,
        debug=debug,
    )


@app.command("whoami")
def whoami(ctx: typer.Context, output: opt.Output = Format.table) -> None:
    """Show the signed-in user and their roles."""
    get_one(ctx, lambda c: c.auth.user_roles(), output)
