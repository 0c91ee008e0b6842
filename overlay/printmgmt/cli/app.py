"""The ``printmgmt`` command: global options, ``whoami``, and the command groups."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup, TyperOption

from printmgmt import __version__

from . import configcmd, doctorcmd, jobs, logincmd, printers, stats
from . import options as opt
from .listing import get_one
from .output import Format
from .runner import State, interrupted

if TYPE_CHECKING:
    from printmgmt import PrintClient
    from printmgmt_api.models import UserRoles

__all__ = ["app"]


class _Root(TyperGroup):
    """The root group: global options are accepted after the subcommand too (``printmgmt jobs list --debug``)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        return super().parse_args(ctx, hoist_globals(self, ctx, args))

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        """Ctrl-C anywhere (at a prompt click turns it into ``Abort``): one line and exit 130, not "Aborted!"."""
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, typer.Abort):
            raise typer.Exit(interrupted()) from None


def hoist_globals(root: TyperGroup, ctx: typer.Context, args: list[str]) -> list[str]:
    """``args`` with the root's options that follow the subcommand moved before it, unless the subcommand
    has an option of the same name (``jobs wait --timeout`` is the wait's own)."""
    takes_value = {
        name: not option.is_flag
        for option in root.params
        if isinstance(option, TyperOption)
        for name in (*option.opts, *option.secondary_opts)
    }
    leading: list[str] = []
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "--":
        name = args[index].split("=", 1)[0]
        consumed = 2 if takes_value.get(name) and "=" not in args[index] else 1
        leading += args[index : index + consumed]
        index += consumed
    command: Any = root
    path: list[str] = []
    rest = args[index:]
    position = 0
    while isinstance(command, TyperGroup) and position < len(rest) and not rest[position].startswith("-"):
        command = command.get_command(ctx, rest[position])
        path.append(rest[position])
        position += 1
    if command is None or command is root:
        return args
    own = {name for param in command.params if isinstance(param, TyperOption) for name in param.opts}
    hoisted: list[str] = []
    kept: list[str] = []
    tail = rest[position:]
    i = 0
    while i < len(tail):
        token = tail[i]
        if token == "--":
            kept += tail[i:]
            break
        name = token.split("=", 1)[0]
        if name in takes_value and name not in own:
            consumed = 2 if takes_value[name] and "=" not in token else 1
            hoisted += tail[i : i + consumed]
            i += consumed
            continue
        kept.append(token)
        i += 1
    return [*leading, *hoisted, *path, *kept]


app = typer.Typer(
    cls=_Root,
    name="printmgmt",
    help="Manage print jobs and printers of a PLOSSYS Output Engine (REST interface v3).\n\n"
    "Settings come from these options, PRINTMGMT_* variables or a profile (printmgmt config init); "
    "secrets from PRINTMGMT_PASSWORD / PRINTMGMT_CLIENT_SECRET / PRINTMGMT_TOKEN, the keyring or a prompt.\n\n"
    "Exit codes: 0 done, 1 API error, 2 usage error, 3 authentication error, 4 bulk action partly done, "
    "5 doctor found the server differing from a guess, 130 interrupted (Ctrl-C).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,  # errors are reported as one line by the runner; --debug adds the traceback
)
app.add_typer(jobs.app, name="jobs")
app.add_typer(printers.app, name="printers")
app.add_typer(stats.app, name="stats")
app.add_typer(configcmd.app, name="config")
app.command("doctor")(doctorcmd.doctor)
app.command("login")(logincmd.login)
app.command("logout")(logincmd.logout)


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
    """Show the signed-in user, their roles and where the credentials come from."""
    from .output import message
    from .runner import state

    async def roles(client: PrintClient) -> UserRoles:
        answer = await client.auth.user_roles()
        if (resolved := state(ctx).resolved) is not None:  # said once the sign-in worked
            message(f"signed in with {resolved.signed_in_with()}")
        return answer

    get_one(ctx, roles, output)
