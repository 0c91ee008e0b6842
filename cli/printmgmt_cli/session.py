"""Where ``printmgmt login`` keeps a session: the refresh token (and the client secret it needs), in the OS
keyring by default, or in a file only readable by the user (``--store file``) when asked.

A session is per identity provider, client and user (:func:`session_entry`), so profiles for the same
sign-in share it. Commands reuse it and store each rotated refresh token back; ``logout`` revokes and
forgets it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from .errors import ConfigError
from .filelock import locked
from .store import KEYRING_SERVICE, identity_provider, keyring_get, write_private
from .store import client_id as _client_id
from .store import keyring_module as _keyring

__all__ = [
    "SESSION_FILE",
    "Session",
    "Store",
    "forget",
    "keyring_problem",
    "load",
    "save",
    "session_entry",
    "session_file",
]

Store = Literal["keyring", "file"]
#: The file store, beside the profiles (created 0600 in a 0700 directory, only with ``--store file``).
SESSION_FILE: Final = "sessions.json"


@dataclass(frozen=True)
class Session:
    """A stored sign-in: where it is kept and its secrets (never shown)."""

    entry: str
    store: Store
    refresh_token: str
    client_secret: str

    def __repr__(self) -> str:
        return f"Session(entry={self.entry!r}, store={self.store!r}, refresh_token='***', client_secret='***')"


def session_entry(values: Mapping[str, str]) -> str | None:
    """The name of the session of these settings: ``session:<user>@<idp>#<client id>``."""
    idp, user, client = identity_provider(values), values.get("username"), _client_id(values)
    return f"session:{user}@{idp}#{client}" if idp and user and client else None


def session_file(profiles: Path) -> Path:
    """The file store of the sessions, beside the profile file ``profiles``."""
    return profiles.with_name(SESSION_FILE)


def keyring_problem() -> str | None:
    """Why the OS keyring cannot keep a session here, in words; None when it can."""
    keyring = _keyring()
    if keyring is None:
        return "the keyring package is not installed (pip install 'printmgmt[keyring]')"
    try:
        backend = keyring.get_keyring()
        if backend.priority <= 0:  # keyring's "fail" and "null" backends: no OS store was found
            return f"no OS keyring was found (keyring backend {type(backend).__module__}.{type(backend).__name__})"
        backend.get_password(KEYRING_SERVICE, "printmgmt-probe")
    except Exception as exc:  # a locked or broken backend: whatever it raises
        return f"the OS keyring does not answer ({type(exc).__name__})"
    return None


def _read_file(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the session file {path}: {type(exc).__name__}") from exc
    return data if isinstance(data, dict) else {}


def _decode(entry: str, store: Store, raw: Any) -> Session | None:
    if isinstance(raw, str):
        with contextlib.suppress(ValueError):
            raw = json.loads(raw)
    if not isinstance(raw, dict):
        return None
    refresh, secret = raw.get("refresh_token"), raw.get("client_secret")
    if not (isinstance(refresh, str) and refresh and isinstance(secret, str) and secret):
        return None
    return Session(entry, store, refresh, secret)


def load(values: Mapping[str, str], profiles: Path) -> Session | None:
    """The stored session for these settings: the keyring's, else the file's; None when there is none."""
    entry = session_entry(values)
    if entry is None:
        return None
    if (raw := keyring_get(entry)) and (session := _decode(entry, "keyring", raw)):
        return session
    return _decode(entry, "file", _read_file(session_file(profiles)).get(entry))


def save(session: Session, profiles: Path) -> None:
    """Keep ``session`` in its store (its entry replaced)."""
    value = {"refresh_token": session.refresh_token, "client_secret": session.client_secret}
    if session.store == "file":
        path = session_file(profiles)
        with locked(path):  # read, change and write back as one: other processes keep their sessions
            data = _read_file(path)
            data[session.entry] = value
            write_private(path, json.dumps(data))
        return
    keyring = _keyring()
    if keyring is None:
        raise ConfigError(
            "the keyring package is not installed (pip install 'printmgmt[keyring]'), or use --store file"
        )
    try:
        keyring.set_password(KEYRING_SERVICE, session.entry, json.dumps(value))
    except Exception as exc:  # keyring.errors.KeyringError and whatever a backend raises
        raise ConfigError(f"the keyring refused to store the session: {type(exc).__name__}") from exc


def forget(session: Session, profiles: Path) -> None:
    """Remove ``session`` from its store."""
    if session.store == "file":
        path = session_file(profiles)
        with locked(path):
            data = _read_file(path)
            if data.pop(session.entry, None) is not None:
                write_private(path, json.dumps(data))
        return
    keyring = _keyring()
    if keyring is not None:
        with contextlib.suppress(Exception):  # already gone
            keyring.delete_password(KEYRING_SERVICE, session.entry)
