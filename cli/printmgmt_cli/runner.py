"""The one path every command takes: resolve settings, open a client, run, turn failures into exit codes."""

from __future__ import annotations

import asyncio
import enum
import logging
import os
import sys
import traceback
import warnings
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .config import Resolved, resolve
from .errors import CliError
from .output import message

if TYPE_CHECKING:  # the SDK (httpx...) loads when a command runs, not for --help or a usage error
    from printmgmt import PrintClient

__all__ = [
    "Exit",
    "State",
    "exit_code",
    "interactive",
    "interrupted",
    "report",
    "reporting",
    "reporting_errors",
    "run",
    "state",
    "warning_lines",
]


class Exit(enum.IntEnum):
    """Exit codes of ``printmgmt``."""

    OK = 0
    API = 1  # the server refused or failed (4xx but 401, 5xx), no answer, an unexpected error
    USAGE = 2  # bad options or arguments (click's own), unusable settings
    AUTH = 3  # the identity provider refused, 401 after renewal, no credentials
    PARTIAL = 4  # a bulk action where some items were done and others not
    DIFFERS = 5  # doctor: the server answers otherwise than the SDK guesses
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)


Action = Callable[["PrintClient"], Awaitable[int | None]]


@dataclass
class State:
    """The global options of one invocation (``ctx.obj``)."""

    options: dict[str, str | None] = field(default_factory=dict)
    config: Path | None = None
    profile: str | None = None
    debug: bool = False
    #: The settings of the command that ran (set by :func:`run`).
    resolved: Resolved | None = None

    def resolve(self, *, creating: bool = False) -> Resolved:
        """The settings in force (``creating``: the profile may not exist yet)."""
        return resolve(self.options, os.environ, path=self.config, profile=self.profile, creating=creating)


def state(ctx: typer.Context) -> State:
    """The :class:`State` set up by the root command."""
    obj = ctx.find_root().obj
    return obj if isinstance(obj, State) else State()


@contextmanager
def reporting(ctx: typer.Context, errors: type[Exception] = CliError) -> Iterator[State]:
    """The invocation's :class:`State`; a failure of ``errors`` (the command line's own by default) inside becomes
    its line and exit code."""
    current = state(ctx)
    try:
        yield current
    except errors as error:
        raise typer.Exit(report(error, debug=current.debug)) from None


def interrupted() -> int:
    """Say that the user interrupted (Ctrl-C), on one line; return the exit code for it (130, as shells do)."""
    message("interrupted", style="red")
    return Exit.INTERRUPTED


def reporting_errors(ctx: typer.Context) -> AbstractContextManager[State]:
    """Any failure inside becomes its one line and exit code (checks made before :func:`run`)."""
    return reporting(ctx, Exception)


@contextmanager
def warning_lines() -> Iterator[list[warnings.WarningMessage]]:
    """The SDK's warnings inside, each as one ``warning:`` line on stderr; the list given holds them once the
    block has ended."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
    from printmgmt.errors import QueryMeaningWarning, UnknownFieldWarning

    for warning in caught:
        text = str(warning.message)
        if isinstance(warning.message, UnknownFieldWarning | QueryMeaningWarning):  # $filter -> --filter
            text = f"--{warning.message.option.lstrip('$')}{text.removeprefix(warning.message.option)}"
        message(f"warning: {text}", style="yellow")


def interactive() -> bool:
    """Whether secrets may be asked for (stdin and stderr are terminals)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def _ask(label: str) -> str:
    return str(typer.prompt(label, hide_input=True, err=True))


def exit_code(error: BaseException) -> int:
    """The exit code of a failure."""
    from printmgmt.errors import AuthenticationError, InvalidQuery, PrintMgmtError, Unauthorized

    if isinstance(error, CliError):
        return error.exit_code
    if isinstance(error, InvalidQuery):  # read before sending: a usage error
        return Exit.USAGE
    if isinstance(error, AuthenticationError | Unauthorized):
        return Exit.AUTH
    if isinstance(error, PrintMgmtError):
        return Exit.API
    if isinstance(error, ValueError | TypeError):  # the SDK's argument checks, before any request
        return Exit.USAGE
    return Exit.API


#: The command line's words for the SDK's hints (which name Python arguments).
STATISTICS_HINT = (
    "; statistics are usually granted to the graphical client only: add --client-kind graphical (or set "
    "PRINTMGMT_CLIENT_KIND=graphical) and give that client's own secret in PRINTMGMT_CLIENT_SECRET (or at the "
    "prompt): each client kind has its own client secret"
)
#: The command line's word for the SDK's ``client_secret`` in a refusal of a client id and secret.
CLIENT_SECRET = "PRINTMGMT_CLIENT_SECRET (or the prompt's answer)"
LIST_HINT = " (check the syntax of --filter, --orderby and --select)"
BASE_URL_HINT = (
    "; --base-url (PRINTMGMT_BASE_URL or the profile's base_url) ends in /v3: give the server's root "
    "(https://host:port), /v3 is added"
)


def _describe(error: BaseException) -> str:
    from printmgmt import errors
    from printmgmt.auth import CLIENT_REFUSALS
    from printmgmt.auth import CLIENT_SECRET_HINT as sdk_hint
    from printmgmt.errors import AuthenticationError, BadRequest, Forbidden, InvalidQuery, PrintMgmtError

    if isinstance(error, AuthenticationError):
        text = str(error)
        if error.error in CLIENT_REFUSALS:  # the SDK's hint names client_secret, Python's word
            hint = sdk_hint.partition("{")[0]
            text = text.replace(hint, hint.replace("client_secret", CLIENT_SECRET))
        return f"authentication failed: {text}"
    if isinstance(error, InvalidQuery):  # the command line's option: $filter -> --filter
        return f"--{error.option.lstrip('$')}{str(error).removeprefix(error.option)}"
    if isinstance(error, BadRequest) and error.operation.endswith(".list"):
        return f"{str(error).removesuffix(error.hint)}{LIST_HINT}"
    if isinstance(error, Forbidden) and error.hint == errors.DASHBOARD_HINT:
        return f"{str(error).removesuffix(error.hint)}{STATISTICS_HINT}"
    if isinstance(error, errors.ApiError) and error.hint == errors.BASE_URL_HINT:
        return f"{str(error).removesuffix(error.hint)}{BASE_URL_HINT}"
    if isinstance(error, CliError | PrintMgmtError):
        return str(error)
    if isinstance(error, ValueError | TypeError):
        return f"invalid argument: {error}"
    return f"unexpected {type(error).__name__}: {error} (run with --debug for details)"


def report(error: BaseException, *, debug: bool) -> int:
    """Print ``error`` as one line on stderr (with the traceback when ``debug``); return its exit code."""
    if debug:
        # plain frames and messages only: no local variables, which could hold secrets
        traceback.print_exception(error, file=sys.stderr)
    message(f"error: {_describe(error)}", style="red")
    return exit_code(error)


async def _call(client: PrintClient, action: Action) -> int | None:
    async with client:
        return await action(client)


def run(ctx: typer.Context, action: Action, *, sessions: bool = True) -> None:
    """Run ``action`` with a client built from the settings; exit with its code or the failure's.

    ``sessions=False``: sign in with a password even when a session is stored (``login``)."""
    current = state(ctx)
    with _debug_logging(current.debug):
        try:
            resolved = current.resolved = current.resolve()
            resolved.fill_secrets(_ask if interactive() else None, sessions=sessions)
            if current.debug:
                sources = ", ".join(f"{key}={resolved.sources[key]}" for key in sorted(resolved.sources))
                # under the SDK's logger ("printmgmt"), the one --debug shows
                logging.getLogger("printmgmt.cli").debug(
                    "profile %s (%s); from: %s", resolved.profile, resolved.path, sources
                )
            code = asyncio.run(_call(resolved.client(), action)) or Exit.OK
        except (KeyboardInterrupt, typer.Abort):  # Ctrl-C, or Ctrl-C / Ctrl-D at a prompt
            code = interrupted()
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            _silence_stdout()
            code = Exit.OK
        except Exception as error:
            code = report(error, debug=current.debug)
    if code:
        raise typer.Exit(int(code))


@contextmanager
def _debug_logging(enabled: bool) -> Iterator[None]:
    """When ``enabled``, send the SDK's log records (which never hold secrets) to stderr meanwhile."""
    if not enabled:
        yield
        return
    logger = logging.getLogger("printmgmt")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (tests, embedding)
        pass
