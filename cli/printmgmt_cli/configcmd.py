"""``printmgmt config``: write a profile, show the settings in force (secrets masked)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from printmgmt.settings import SECRETS

from . import options as opt
from .config import SETTINGS, Resolved, profile_exists, save_profile
from .errors import ConfigError
from .output import Column, Format, message, open_writer, write_one
from .runner import interactive, reporting
from .session import Session, load, session_file
from .store import keyring_entry, keyring_get, keyring_set

__all__ = ["app"]

app = typer.Typer(help="Profiles: write one, show the settings in force.", no_args_is_help=True)

#: Asked for by ``config init`` on a terminal when not given otherwise.
_ASKED = (("base_url", "Server URL"), ("auth_url", "Identity provider URL"), ("username", "User name"))


@app.command("init")
def init(
    ctx: typer.Context,
    use_keyring: Annotated[
        bool, typer.Option("--keyring", help="Also store the password and client secret in the system keyring.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing profile.")] = False,
) -> None:
    """Write the profile (--profile, default 'default') from the options and PRINTMGMT_* variables in force.

    On a terminal, asks for what is missing. Secrets are never written to the file: with --keyring they go
    to the system keyring (needs the keyring package).
    """
    with reporting(ctx) as current:
        resolved = current.resolve(creating=True)
        values = {key: value for key, value in resolved.values.items() if resolved.sources[key] != "default"}
        if profile_exists(resolved.path, resolved.profile) and not force:
            raise ConfigError(f"profile {resolved.profile!r} exists in {resolved.path}; pass --force to replace it")
        for key, label in _ASKED:
            if not values.get(key) and not (key == "auth_url" and values.get("token_url")) and interactive():
                values[key] = str(typer.prompt(label, err=True))
        if not values.get("base_url"):
            raise ConfigError("no server: pass --base-url or set PRINTMGMT_BASE_URL")
        if use_keyring:
            _store_secrets(values, resolved.secrets)
        save_profile(resolved.path, resolved.profile, {key: values[key] for key in SETTINGS if key in values})
    message(f"profile {resolved.profile!r} written to {resolved.path} (no secrets in it)")


def _store_secrets(values: dict[str, str], known: dict[str, str]) -> None:
    for name in ("password", "client_secret"):
        entry = keyring_entry(name, values)
        if entry is None:
            raise ConfigError("--keyring needs a username and an identity provider URL")
        secret = known.get(name)
        if secret is None and interactive():
            secret = str(typer.prompt(name.replace("_", " ").capitalize(), hide_input=True, err=True))
        if not secret:
            raise ConfigError(
                f"no {name.replace('_', ' ')} to store: set PRINTMGMT_{name.upper()} or run on a terminal"
            )
        keyring_set(entry, secret)
        message(f"{name.replace('_', ' ')} stored in the keyring")


@app.command("show")
def show(ctx: typer.Context, output: opt.Output = Format.table) -> None:
    """Show the settings in force, where each comes from and what it overrides; secrets only as set or not.

    Precedence: option > environment (PRINTMGMT_*) > stored (the profile; for secrets a login session) >
    default. Of two settings that name one thing (--client-kind or --client-id, --auth-url or --token-url,
    --ca-bundle or --insecure) the one from the higher source wins.
    """
    with reporting(ctx) as current:
        resolved = current.resolve()
        stored = load(resolved.values, resolved.path)
    secrets = dict(resolved.secret_sources())
    for name in ("password", "client_secret"):
        if name not in secrets and keyring_get(keyring_entry(name, resolved.values)):
            secrets[name] = "keyring"
    rows = [_row(resolved, key) for key in SETTINGS]
    rows += [
        {"setting": name, "value": "***" if name in secrets else None, "source": secrets.get(name), "note": None}
        for name in SECRETS
    ]
    rows.append(_login_row(stored, resolved, secrets))
    if output is Format.json:
        write_one({"path": str(resolved.path), "profile": resolved.profile, "settings": rows}, output)
        return
    writer = open_writer(
        output,
        (
            Column("setting", rank=0),
            Column("value", rank=1, wraps=True),
            Column("source", rank=2),
            Column("note", rank=3, wraps=True),
        ),
    )
    for row in rows:
        writer.write(row)
    writer.note(f"profile {resolved.profile!r} in {resolved.path}; option > environment > profile > default")
    writer.close()


def _login_row(stored: Session | None, resolved: Resolved, secrets: dict[str, str]) -> dict[str, Any]:
    """The stored login (``printmgmt login``) of this user, client and identity provider, if there is one."""
    if stored is None:
        return {"setting": "login", "value": None, "source": None, "note": "none stored (printmgmt login)"}
    unused = {"token", "password"} & secrets.keys()
    note = f"not used: {' and '.join(sorted(unused))} set" if unused else "used; printmgmt logout ends it"
    if stored.store == "file":
        note += f"; kept in {session_file(resolved.path)}"
    user = resolved.values.get("username")
    return {"setting": "login", "value": f"session of {user}", "source": stored.store, "note": note}


def _row(resolved: Resolved, key: str) -> dict[str, Any]:
    """A setting's row: in force (``note``: what it overrides), or overridden by another setting."""
    lost = [override for override in resolved.overridden if override.setting == key and override.by != key]
    if key not in resolved.values and lost:
        override = lost[-1]
        winner = f"{override.by} ({resolved.sources[override.by]})"
        return {"setting": key, "value": override.value, "source": override.source, "note": f"overridden by {winner}"}
    beaten = [override for override in resolved.overridden if override.by == key]
    note = "; ".join(
        f"overrides {'' if override.setting == key else override.setting + ' '}{override.value} ({override.source})"
        for override in beaten
    )
    return {
        "setting": key,
        "value": resolved.values.get(key),
        "source": resolved.sources.get(key),
        "note": note or None,
    }
