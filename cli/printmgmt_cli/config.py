"""Where the command line's settings come from: options, ``PRINTMGMT_*`` variables, what is stored.

One precedence, per setting: command-line option, then environment variable, then what is stored (the
profile file; for secrets, the session of ``printmgmt login``), then the default. Settings that name one
thing (the client: ``client_id`` or ``client_kind``; the identity provider: ``token_url`` or ``auth_url``; TLS:
``ca_bundle`` or ``verify``) count as one: the one from the higher source wins and the other is overridden,
so ``--client-kind graphical`` wins over a ``PRINTMGMT_CLIENT_ID``. ``config show`` says what wins and
what it overrides. Secrets (password, client secret, token) never come from the profile file: the
environment, then a stored session, then the keyring (when the optional ``keyring`` package is installed),
then a hidden prompt on a terminal.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from printmgmt import settings as sdk_settings
from printmgmt.settings import CLIENT_IDS, DEFAULTS, SECRETS, is_off, read_environment

from .errors import ConfigError, CredentialsError
from .session import Session, load, save
from .store import client_id, keyring_entry, keyring_get, write_private

if TYPE_CHECKING:  # the SDK (httpx...) loads when a command runs, not for --help or a usage error
    import httpx

    from printmgmt import PrintClient
    from printmgmt.auth import SessionAuth, SignInOptions

__all__ = [
    "LINKED",
    "SETTINGS",
    "Override",
    "Resolved",
    "default_path",
    "load_profile",
    "profile_exists",
    "resolve",
    "save_profile",
]

#: Non-secret settings a profile may hold (the SDK's, but the transport: the command line uses httpx's).
SETTINGS: Final = tuple(name for name in sdk_settings.SETTINGS if name != "transport")
#: Pairs of settings that name one thing: of the two, the one from the higher source wins.
LINKED: Final = (("client_id", "client_kind"), ("token_url", "auth_url"), ("ca_bundle", "verify"))
DEFAULT_PROFILE: Final = "default"


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


Prompt = Callable[[str], str]


@dataclass(frozen=True)
class Override:
    """A setting's value that another one won over: ``by`` (the same setting, or the other of a
    :data:`LINKED` pair) came from a higher source."""

    setting: str
    value: str
    source: str
    by: str


@dataclass
class Resolved:
    """The settings of one run: values and where each came from (secrets only by source), and what lost."""

    path: Path
    profile: str
    values: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    #: Values given but overridden, in the order they lost.
    overridden: list[Override] = field(default_factory=list)
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
        stored = sessions and "password" not in self.secrets and self.values.get("username")
        if stored and (session := load(self.values, self.path)) is not None:
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
            ("client_secret", f"Client secret of {client_id(self.values)}"),
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

    def auth(self) -> httpx.Auth:
        """The sign-in :meth:`fill_secrets` found: a token, a stored session, or a password."""
        from printmgmt.auth import BearerToken, PasswordAuth

        if token := self.secrets.get("token"):
            return BearerToken(token)
        if self.session is not None:
            return self.session_auth(self.session)
        return PasswordAuth(
            username=self.values["username"],
            password=self.secrets["password"],
            client_secret=self.secrets["client_secret"],
            **self._where(),
        )

    def session_auth(self, session: Session) -> SessionAuth:
        """Tokens from the stored session; each rotated refresh token is stored back where it was."""
        from dataclasses import replace

        from printmgmt.auth import SessionAuth

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
            "client_kind": values.get("client_kind") or DEFAULTS["client_kind"],  # type: ignore[typeddict-item]  # checked by resolve()
            "auth_url": values.get("auth_url"),
            "realm": values.get("realm") or DEFAULTS["realm"],
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
    """The settings in force: ``options`` over the ``PRINTMGMT_*`` variables of ``environ`` over the profile
    over the defaults (see the module). A profile named explicitly must exist unless ``creating`` it."""
    path = path or default_path(environ)
    name = profile or environ.get("PRINTMGMT_PROFILE") or DEFAULT_PROFILE
    required = bool(profile or environ.get("PRINTMGMT_PROFILE")) and not creating
    resolved = Resolved(path=path, profile=name)
    env = read_environment(environ)
    layers: list[tuple[str, Mapping[str, str | None]]] = [
        ("default", DEFAULTS),
        (f"profile {name}", load_profile(path, name, required=required)),
        ("env", {key: env.get(key) for key in SETTINGS}),
        ("option", options),
    ]
    rank: dict[str, int] = {}
    for level, (source, layer) in enumerate(layers):
        for key, value in layer.items():
            if not value:
                continue
            if key in resolved.values and resolved.sources[key] != "default":
                resolved.overridden.append(Override(key, resolved.values[key], resolved.sources[key], key))
            resolved.values[key], resolved.sources[key], rank[key] = value, source, level
    for pair in LINKED:
        first, second = pair
        if first in rank and second in rank and rank[first] != rank[second]:
            loser, winner = pair if rank[first] < rank[second] else (second, first)
            value, source = resolved.values.pop(loser), resolved.sources.pop(loser)
            if source != "default":
                resolved.overridden.append(Override(loser, value, source, winner))
    for secret in SECRETS:
        if value := env.get(secret):
            resolved.secrets[secret], resolved.sources[secret] = value, "env"
    kind = resolved.values.get("client_kind")
    if kind and kind not in CLIENT_IDS:
        source = resolved.sources["client_kind"]
        raise ConfigError(f"client kind must be one of {', '.join(CLIENT_IDS)}, not {kind!r} ({source})")
    return resolved
