"""Actions on one id (the plain SDK call) or several (the SDK's bulk call, with a progress bar)."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import typer

from . import options as opt
from .output import Column, Format, message, open_writer, progress
from .runner import Exit, exit_code, run

if TYPE_CHECKING:
    from printmgmt import ActionResult, BulkResult, PrintClient

__all__ = ["Many", "ManyOf", "Single", "act", "act_one", "bulk_commands", "read_keys"]

Single = Callable[["PrintClient", str], Awaitable["ActionResult"]]
Many = Callable[..., Awaitable["BulkResult"]]
#: Picks the bulk method of a client, e.g. ``lambda c: c.jobs.pause_many``.
ManyOf = Callable[["PrintClient"], Many]

_COLUMNS = (Column("key", rank=0), Column("status", rank=1), Column("message", rank=2, wraps=True))


def read_keys(keys: Sequence[str]) -> list[str]:
    """``keys``, with ``-`` replaced by the non-empty lines of stdin; duplicates dropped, order kept."""
    expanded: list[str] = []
    for key in keys:
        if key == "-":
            expanded.extend(line.strip() for line in sys.stdin if line.strip())
        else:
            expanded.append(key)
    if not expanded:
        raise typer.BadParameter("no ids given", param_hint="KEYS")
    return list(dict.fromkeys(expanded))


def _result_record(key: str, status: str, result: ActionResult | None, reason: str | None) -> dict[str, Any]:
    data = result.to_dict() if result is not None else None
    text = reason if reason is not None else (data or {}).get("message")
    return {"key": key, "status": status, "message": text, "result": data}


def _write(records: Sequence[dict[str, Any]], fmt: Format) -> None:
    if fmt is Format.table and len(records) == 1:
        record = records[0]
        sys.stdout.write(f"{record['key']}: {record['message'] or record['status']}\n")
        return
    writer = open_writer(fmt, _COLUMNS)
    for record in records:
        writer.write(record)
    writer.close()


def _bulk_exit(result: BulkResult) -> int:
    """0 when all were done; the code of the first failure when none was; else 4 (partial)."""
    if result.ok:
        return Exit.OK
    if not result.done:
        first = (result.failed or result.refused)[0]
        return exit_code(first.error) if first.error is not None else Exit.API
    return Exit.PARTIAL


def act(
    ctx: typer.Context,
    *,
    keys: Sequence[str],
    noun: str,
    verb: str,
    single: Single,
    many: ManyOf | None,
    fmt: Format,
    concurrency: int = 8,
    confirm: bool = False,
) -> None:
    """Run action ``verb`` on each key: the single call for one key, the bulk call for several.

    One key: its result, or the error's line and exit code. Several: a progress bar on stderr, one row
    per key, a summary line, and exit 4 when only some were done.
    """
    keys = read_keys(keys)
    if len(keys) > 1 and many is None:
        raise typer.BadParameter(f"{verb} takes one {noun} at a time", param_hint="KEYS")
    if confirm:
        what = f"{len(keys)} {noun}s" if len(keys) > 1 else f"{noun} {keys[0]!r}"
        if not sys.stdin.isatty():
            message(f"error: refusing to {verb} {what} without --yes (not on a terminal)", style="red")
            raise typer.Exit(Exit.USAGE)
        if not typer.confirm(f"{verb.capitalize()} {what}?", err=True):
            message(f"nothing done: not confirmed (--yes to {verb} without asking)")
            raise typer.Exit(Exit.API)

    async def one(client: PrintClient) -> int:
        result = await single(client, keys[0])
        _write([_result_record(keys[0], "done", result, None)], fmt)
        return Exit.OK

    async def several(client: PrintClient) -> int:
        assert many is not None
        with progress() as bar:
            task = bar.add_task(f"{verb} {len(keys)} {noun}s", total=len(keys))
            result = await many(client)(keys, concurrency=concurrency, on_outcome=lambda _outcome: bar.advance(task))
        _write([_result_record(o.key, str(o.status), o.result, o.reason) for o in result], fmt)
        summary = f"{verb}: {len(result.done)} done, {len(result.refused)} refused, {len(result.failed)} failed"
        message(summary, style=None if result.ok else "yellow")
        return _bulk_exit(result)

    run(ctx, one if len(keys) == 1 else several)


def act_one(ctx: typer.Context, key: str, *, noun: str, verb: str, single: Single, fmt: Format) -> None:
    """Run an action that takes one key at a time (repeat, move, redirect...)."""
    act(ctx, keys=[key], noun=noun, verb=verb, single=single, many=None, fmt=fmt)


def bulk_commands(
    app: typer.Typer, noun: str, resource: Callable[[PrintClient], Any], summaries: Mapping[str, str]
) -> None:
    """Register ``<noun>s <verb> KEY...`` on ``app`` for each verb in ``summaries`` (verb -> help text); one key
    calls ``resource(client).<verb>(key)``, several ``resource(client).<verb>_many(keys)``."""
    for verb, summary in summaries.items():
        _bulk_command(app, noun, verb, summary, resource)


def _bulk_command(app: typer.Typer, noun: str, verb: str, summary: str, resource: Callable[[PrintClient], Any]) -> None:
    def single(client: PrintClient, key: str) -> Awaitable[ActionResult]:
        return cast("Awaitable[ActionResult]", getattr(resource(client), verb)(key))

    def many(client: PrintClient) -> Many:
        return cast("Many", getattr(resource(client), f"{verb}_many"))

    def command(
        ctx: typer.Context, keys: opt.Keys, output: opt.Output = Format.table, concurrency: opt.Concurrency = 8
    ) -> None:
        act(ctx, keys=keys, noun=noun, verb=verb, single=single, many=many, fmt=output, concurrency=concurrency)

    if noun == "printer":  # printer names complete in the shell
        command.__annotations__["keys"] = opt.PrinterKeys
    command.__doc__ = f"{summary} Several run concurrently; exit 4 when only some succeed."
    app.command(verb)(command)
