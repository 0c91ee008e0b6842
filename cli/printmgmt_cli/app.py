"""The ``printmgmt`` command: global options, ``whoami``, and the command groups."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup, TyperOption

from printmgmt import __version__
from printmgmt.settings import ENV_PREFIX, ClientKind

from . import configcmd, doctorcmd, jobs, logincmd, printers, stats
from . import options as opt
from .config import SETTINGS
from .listing import get_one
from .output import Format, message
from .runner import State, interrupted, state

if TYPE_CHECKING:
    from printmgmt import PrintClient
    from printmgmt_api.models import UserRoles

__all__ = ["app"]


class _Root(TyperGroup):
    """The root group: global options are accepted after the subcommand too (``printmgmt jobs list --debug``);
    every command's help is made of paragraphs (:func:`paragraphs`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # typer builds the whole tree before its root: every command is here
        pending: list[Any] = [self]  # typer's commands and groups (of the click typer carries)
        while pending:
            command = pending.pop()
            command.help = paragraphs(command.help)
            pending += list(getattr(command, "commands", {}).values())

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        return super().parse_args(ctx, hoist_globals(self, ctx, args))

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        """Ctrl-C anywhere (at a prompt click turns it into ``Abort``): one line and exit 130, not "Aborted!"."""
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, typer.Abort):
            raise typer.Exit(interrupted()) from None


def paragraphs(text: str | None) -> str | None:
    """A help text whose paragraphs (separated by a blank line) are each one line: typer keeps the line breaks of
    a docstring's later paragraphs, which then break mid-sentence wherever the terminal's width falls."""
    if not text:
        return text
    kept = [part if part.startswith("\b") else " ".join(part.split()) for part in inspect.cleandoc(text).split("\n\n")]
    return "\n\n".join(kept)


def hoist_globals(root: TyperGroup, ctx: typer.Context, args: list[str]) -> list[str]:
    """``args`` with the root's options moved before the subcommand, unless the subcommand has an option of
    the same name (``jobs wait --timeout`` is the wait's own)."""
    takes_value = {
        name: not option.is_flag
        for option in root.params
        if isinstance(option, TyperOption)
        for name in (*option.opts, *option.secondary_opts)
    }
    command: Any = root
    walking = True  # the subcommand's path: the words before its first option
    own: set[str] = set()
    leading: list[str] = []  # before the subcommand: left as they are
    hoisted: list[str] = []
    kept: list[str] = []
    index = 0
    while index < len(args):
        token = args[index]
        if token == "--":
            kept += args[index:]
            break
        if token.startswith("-"):
            walking = walking and command is root
        elif walking:
            command = command.get_command(ctx, token)
            if command is None:  # click names the unknown command
                return args
            own = {name for param in command.params if isinstance(param, TyperOption) for name in param.opts}
            walking = isinstance(command, TyperGroup)
        name = token.split("=", 1)[0]
        consumed = 2 if takes_value.get(name) and "=" not in token else 1
        if command is root:
            leading += args[index : index + consumed]
        elif name in takes_value and name not in own:
            hoisted += args[index : index + consumed]
        else:
            kept.append(token)
            consumed = 1
        index += consumed
    return args if command is root else [*leading, *hoisted, *kept]


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


def _version(value: bool) -> None:
    if value:
        typer.echo(f"printmgmt {__version__}")
        raise typer.Exit()


_CONNECTION = "Connection (each overrides its PRINTMGMT_* variable and the profile)"


def _connection(flag: str, help: str, *short: str, **kwargs: Any) -> Any:
    """An option of the connection panel; its help ends with the ``PRINTMGMT_*`` variable it overrides."""
    variable = ENV_PREFIX + flag.removeprefix("--").replace("-", "_").upper()
    return typer.Option(flag, *short, help=f"{help} ({variable}).", rich_help_panel=_CONNECTION, **kwargs)


@app.callback()
def root(
    ctx: typer.Context,
    base_url: Annotated[str | None, _connection("--base-url", "Server URL")] = None,
    auth_url: Annotated[str | None, _connection("--auth-url", "Keycloak URL")] = None,
    realm: Annotated[str | None, _connection("--realm", "Keycloak realm, default SEAL")] = None,
    token_url: Annotated[str | None, _connection("--token-url", "Token endpoint, instead of --auth-url")] = None,
    client_kind: Annotated[
        ClientKind | None, _connection("--client-kind", "Which registered client, default cli")
    ] = None,
    client_id: Annotated[str | None, _connection("--client-id", "Client id, instead of --client-kind")] = None,
    username: Annotated[str | None, _connection("--username", "User name", "-u")] = None,
    ca_bundle: Annotated[Path | None, _connection("--ca-bundle", "CA certificates to trust", exists=True)] = None,
    insecure: Annotated[
        bool,
        typer.Option(
            "--insecure", help="Do not verify TLS certificates (PRINTMGMT_VERIFY=false).", rich_help_panel=_CONNECTION
        ),
    ] = False,
    timeout: Annotated[float | None, _connection("--timeout", "Seconds per request", min=0.1)] = None,
    retries: Annotated[int | None, _connection("--retries", "Retries of a failed request", min=0)] = None,
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
    # each connection option is named as the setting it gives (--base-url: base_url)
    given = {name: str(value) for name, value in ctx.params.items() if name in SETTINGS and value is not None}
    options = {**given, "verify": "false" if insecure else None}
    ctx.obj = State(options=options, config=config, profile=profile, debug=debug)


@app.command("whoami")
def whoami(ctx: typer.Context, output: opt.Output = Format.table) -> None:
    """Show the signed-in user, their roles and where the credentials come from."""

    async def roles(client: PrintClient) -> UserRoles:
        answer = await client.auth.user_roles()
        if (resolved := state(ctx).resolved) is not None:  # said once the sign-in worked
            message(f"signed in with {resolved.signed_in_with()}")
        return answer

    get_one(ctx, roles, output)
