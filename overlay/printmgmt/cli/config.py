"""Where the command line's settings come from: options, ``PRINTMGMT_*`` variables, a profile file.

Precedence, per setting: command-line option, then environment variable, then the profile. Secrets
(password, client secret, token) never come from the profile file: the environment, then the keyring
(when the optional ``keyring`` package is installed), then a hidden prompt on a terminal.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from printmgmt._idp import CLIENT_IDS, realm_url

if TYPE_CHECKING:  # the SDK (httpx...) loads when a command runs, not for --help or a usage error
    import httpx

    from printmgmt import PrintClient
    from printmgmt.auth import SessionAuth, SignInOptions

    from .session import Session

__all__ = [
    "SECRETS",
    "SETTINGS",
    "CliError",
    "ConfigError",
    "CredentialsError",
    "Resolved",
    "default_path",
    "keyring_entry",
    "load_profile",
    "profile_exists",
    "resolve",
    "save_profile",
    "write_private",
]

#: Non-secret settings a profile may hold (the ``PRINTMGMT_<NAME>`` variable of each is its upper case).
SETTINGS: Final = (
    "base_url",
    "auth_url",
    "token_url",
    "realm",
    "client_kind",
    "client_id",
    "username",
    "ca_bundle",
    "verify",
    "timeout",
    "retries",
)
#: Secrets: read from the environment, the keyring or a prompt, never from or into the profile file.
SECRETS: Final = ("password", "client_secret", "token")
DEFAULT_PROFILE: Final = "default"
KEYRING_SERVICE: Final = "printmgmt"


class CliError(Exception):
    """An error the command line reports as one line, with its exit code."""

    exit_code = 1


class ConfigError(CliError):
    """The settings are unusable (a missing server URL, a broken profile): exit 2."""

    exit_code = 2


class CredentialsError(CliError):
    """No usable credentials: exit 3."""

    exit_code = 3


def default_path(environ: Mapping[str, str]) -> Path:
    """``PRINTMGMT_CONFIG``, else ``$XDG_CONFIG_HOME/printmgmt/profiles.toml`` (``~/.config`` by default)."""
    if explicit := environ.get("PRINTMGMT_CONFIG"):
        return Path(explicit).expanduser()
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "printmgmt" / "profiles.toml"


def _read_file(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read profile file {path}: {exc}") from exc


def profile_exists(path: Path, name: str) -> bool:
    """Whether the profile file at ``path`` has a profile ``name``."""
    return name in _read_file(path)


def load_profile(path: Path, name: str, *, required: bool) -> dict[str, str]:
    """The settings of profile ``name`` as strings; ``{}`` when absent and not ``required``."""
    profiles = _read_file(path)
    section = profiles.get(name)
    if section is None:
        if required:
            known = ", ".join(sorted(profiles)) or "none"
            raise ConfigError(f"no profile {name!r} in {path} (profiles: {known})")
        return {}
    if not isinstance(section, dict):
        raise ConfigError(f"profile {name!r} in {path} is not a table")
    values: dict[str, str] = {}
    for key, value in section.items():
        if key in SECRETS:
            raise ConfigError(
                f"profile {name!r} in {path} holds {key!r}: secrets do not belong in the profile file; "
                f"use PRINTMGMT_{key.upper()}, the keyring or the prompt"
            )
        if key not in SETTINGS:
            raise ConfigError(f"profile {name!r} in {path}: unknown setting {key!r} (known: {', '.join(SETTINGS)})")
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, str | int | float):
            raise ConfigError(f"profile {name!r} in {path}: {key} must be a string or number")
        values[key] = str(value)
    return values


def save_profile(path: Path, name: str, values: Mapping[str, str]) -> None:
    """Write profile ``name`` (other profiles are kept) with owner-only permissions; secrets are refused."""
    if leaked := sorted(set(values) & set(SECRETS)):
        raise ValueError(f"refusing to write secrets to a profile: {leaked}")
    profiles = _read_file(path)
    profiles[name] = {key: values[key] for key in SETTINGS if values.get(key)}
    lines = ["# printmgmt profiles: no secrets here (they come from PRINTMGMT_* variables, the keyring or a prompt)"]
    for profile, section in profiles.items():
        lines.append(f"\n[{json.dumps(profile)}]")
        lines.extend(f"{key} = {json.dumps(value)}" for key, value in section.items())
    write_private(path, "\n".join(lines) + "\n")


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by the user alone (0600, in a 0700 directory), complete or not at all.

    Through a temporary file of this writer's own (mkstemp makes it 0600), so writers at once never share one.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def keyring_entry(secret: str, values: Mapping[str, str]) -> str | None:
    """The keyring user name of ``secret`` for these settings (``None`` when they cannot name one).

    The entry is per identity provider, so profiles for the same user and realm share it.
    """
    idp = identity_provider(values)
    owner = values.get("username") if secret == "password" else _client_id(values)
    return f"{secret}:{owner}@{idp}" if idp and owner else None


def identity_provider(values: Mapping[str, str]) -> str | None:
    """The realm's URL (or the token URL as given): what names a sign-in with the user and client."""
    if token_url := values.get("token_url"):
        return token_url
    auth_url = values.get("auth_url")
    return realm_url(auth_url, values.get("realm") or "SEAL") if auth_url else None


def _client_id(values: Mapping[str, str]) -> str | None:
    return values.get("client_id") or CLIENT_IDS.get(values.get("client_kind") or "cli")


def keyring_get(entry: str | None) -> str | None:
    """The secret stored under ``entry``, or ``None`` (also when ``keyring`` is not installed or fails)."""
    if entry is None or (keyring := _keyring()) is None:
        return None
    try:
        value = keyring.get_password(KEYRING_SERVICE, entry)
    except Exception:  # a locked or missing backend is not an error: fall back to the prompt
        return None
    return value if isinstance(value, str) and value else None


def keyring_set(entry: str, secret: str) -> None:
    """Store ``secret`` in the keyring (:class:`ConfigError` when ``keyring`` is not installed)."""
    if (keyring := _keyring()) is None:
        raise ConfigError("the keyring package is not installed (pip install keyring)")
    try:
        keyring.set_password(KEYRING_SERVICE, entry, secret)
    except Exception as exc:  # keyring.errors.KeyringError and whatever a backend raises
        raise ConfigError(f"the keyring refused to store the secret: {type(exc).__name__}: {exc}") from exc


def _keyring() -> Any:
    """The ``keyring`` module when installed (an optional extra, never a dependency), else ``None``."""
    try:
        return importlib.import_module("keyring")
    except ImportError:
        return None


Prompt = Callable[[str], str]


@dataclass
class Resolved:
    """The settings of one run: values and where each came from (secrets only by source)."""

    path: Path
    profile: str
    values: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    #: A stored sign-in (``printmgmt login``) these settings use instead of a password.
    session: Session | None = field(default=None, repr=False)

    def secret_sources(self) -> dict[str, str]:
        return {name: self.sources[name] for name in (*SECRETS, "session") if name in self.sources}

    def signed_in_with(self) -> str:
        """Where this run's credentials come from, for people (``whoami``)."""
        if "token" in self.secrets:
            return f"an access token ({self.sources['token']}: PRINTMGMT_TOKEN)"
        if self.session is not None:
            where = "the OS keyring" if self.session.store == "keyring" else "the session file"
            return f"a stored session in {where} (printmgmt login; printmgmt logout ends it)"
        return f"a password ({self.sources.get('password', 'unknown')})"

    def fill_secrets(self, prompt: Prompt | None, *, sessions: bool = True) -> None:
        """Find the secrets a sign-in needs: a token, a password in the environment, a stored session
        (``sessions``), the keyring, then ``prompt`` (``None``: not interactive)."""
        if "token" in self.secrets:
            return
        if sessions and "password" not in self.secrets and self.values.get("username"):
            from .session import load

            if (session := load(self.values, self.path)) is not None:
                self.session = session
                self.sources["session"] = session.store
                return
        if not self.values.get("username"):
            raise CredentialsError(
                "no credentials: set PRINTMGMT_TOKEN, or a username (--username, PRINTMGMT_USERNAME or a "
                "profile) with its password and client secret"
            )
        if not (self.values.get("auth_url") or self.values.get("token_url")):
            raise ConfigError("no identity provider: pass --auth-url (with --realm) or --token-url")
        for name, label in (
            ("password", f"Password for {self.values['username']}"),
            ("client_secret", f"Client secret of {_client_id(self.values)}"),
        ):
            if name in self.secrets:
                continue
            if value := keyring_get(keyring_entry(name, self.values)):
                self.secrets[name], self.sources[name] = value, "keyring"
            elif prompt is not None:
                if not (value := prompt(label)):
                    raise CredentialsError(f"no {name.replace('_', ' ')} given")
                self.secrets[name], self.sources[name] = value, "prompt"
            else:
                raise CredentialsError(
                    f"no {name.replace('_', ' ')}: set PRINTMGMT_{name.upper()}, store it with "
                    "'printmgmt config init --keyring', or run on a terminal to be asked"
                )

    def client(self) -> PrintClient:
        """A :class:`~printmgmt.PrintClient` for these settings (call :meth:`fill_secrets` first)."""
        from printmgmt import PrintClient
        from printmgmt._config import is_off

        values = self.values
        if not values.get("base_url"):
            raise ConfigError("no server: pass --base-url, set PRINTMGMT_BASE_URL or use a profile (--profile)")
        if values.get("ca_bundle") and is_off(values.get("verify")):
            raise ConfigError("--ca-bundle and --insecure exclude each other")
        options: dict[str, Any] = {"verify": values.get("ca_bundle") or not is_off(values.get("verify"))}
        try:
            if timeout := values.get("timeout"):
                options["timeout"] = float(timeout)
            if retries := values.get("retries"):
                options["retries"] = int(retries)
            return PrintClient(values["base_url"], auth=self.auth(), **options)
        except ValueError as exc:  # the SDK's own checks: a bad URL, timeout or retry count
            raise ConfigError(f"unusable settings: {exc}") from exc

    def auth(self) -> httpx.Auth | None:
        """The sign-in of these settings: a token, a stored session, a password, or none without a username."""
        from printmgmt.auth import BearerToken, PasswordAuth

        if token := self.secrets.get("token"):
            return BearerToken(token)
        if self.session is not None:
            return self.session_auth(self.session)
        if not (username := self.values.get("username")):
            return None
        if missing := [name for name in ("password", "client_secret") if not self.secrets.get(name)]:
            raise CredentialsError(f"no {' or '.join(name.replace('_', ' ') for name in missing)} for {username}")
        return PasswordAuth(
            username=username,
            password=self.secrets["password"],
            client_secret=self.secrets["client_secret"],
            **self._where(),
        )

    def session_auth(self, session: Session) -> SessionAuth:
        """Tokens from the stored session; each rotated refresh token is stored back where it was."""
        from dataclasses import replace

        from printmgmt.auth import SessionAuth

        from .session import save

        return SessionAuth(
            refresh_token=session.refresh_token,
            client_secret=self.secrets.get("client_secret") or session.client_secret,
            username=self.values["username"],
            on_refresh=lambda refresh: save(replace(session, refresh_token=refresh), self.path),
            **self._where(),
        )

    def _where(self) -> SignInOptions:
        values = self.values
        return {
            "client_id": values.get("client_id"),
            "client_kind": values.get("client_kind") or "cli",  # type: ignore[typeddict-item]  # checked by resolve()
            "auth_url": values.get("auth_url"),
            "realm": values.get("realm") or "SEAL",
            "token_url": values.get("token_url"),
        }


def resolve(
    options: Mapping[str, str | None],
    environ: Mapping[str, str],
    *,
    path: Path | None = None,
    profile: str | None = None,
    creating: bool = False,
) -> Resolved:
    """Merge the profile, ``PRINTMGMT_*`` variables of ``environ`` and ``options`` (later ones win).

    A profile named explicitly must exist unless ``creating`` it.
    """
    path = path or default_path(environ)
    name = profile or environ.get("PRINTMGMT_PROFILE") or DEFAULT_PROFILE
    required = bool(profile or environ.get("PRINTMGMT_PROFILE")) and not creating
    resolved = Resolved(path=path, profile=name)
    layers: list[tuple[str, Mapping[str, str | None]]] = [
        (f"profile {name}", load_profile(path, name, required=required)),
        ("env", {key: environ.get(f"PRINTMGMT_{key.upper()}") for key in SETTINGS}),
    ]
    for source, layer in layers:
        for key, value in layer.items():
            if value:
                resolved.values[key], resolved.sources[key] = value, source
    for key, value in options.items():
        if value:
            resolved.values[key] = value
            resolved.sources[key] = "option"
    for secret in SECRETS:
        if value := environ.get(f"PRINTMGMT_{secret.upper()}"):
            resolved.secrets[secret], resolved.sources[secret] = value, "env"
    kind = resolved.values.get("client_kind")
    if kind and kind not in CLIENT_IDS:
        source = resolved.sources["client_kind"]
        raise ConfigError(f"client kind must be one of {', '.join(CLIENT_IDS)}, not {kind!r} ({source})")
    return resolved
