"""Where the command line keeps what outlives a run: files only the user can read, the OS keyring (when the
optional ``keyring`` package is installed), and the names of their entries.

An entry is per identity provider, client and user, so profiles for the same sign-in share it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from printmgmt.settings import CLIENT_IDS, DEFAULTS, realm_url

from .errors import ConfigError

__all__ = [
    "KEYRING_SERVICE",
    "client_id",
    "identity_provider",
    "keyring_entry",
    "keyring_get",
    "keyring_module",
    "keyring_set",
    "write_private",
]

KEYRING_SERVICE: Final = "printmgmt"


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


def identity_provider(values: Mapping[str, str]) -> str | None:
    """The realm's URL (or the token URL as given): what names a sign-in with the user and client."""
    if token_url := values.get("token_url"):
        return token_url
    auth_url = values.get("auth_url")
    return realm_url(auth_url, values.get("realm") or DEFAULTS["realm"]) if auth_url else None


def client_id(values: Mapping[str, str]) -> str | None:
    """The OAuth client these settings sign in through: ``client_id``, else the id of ``client_kind``."""
    return values.get("client_id") or CLIENT_IDS.get(values.get("client_kind") or DEFAULTS["client_kind"])


def keyring_entry(secret: str, values: Mapping[str, str]) -> str | None:
    """The keyring user name of ``secret`` for these settings (``None`` when they cannot name one)."""
    idp = identity_provider(values)
    owner = values.get("username") if secret == "password" else client_id(values)
    return f"{secret}:{owner}@{idp}" if idp and owner else None


def keyring_get(entry: str | None) -> str | None:
    """The secret stored under ``entry``, or ``None`` (also when ``keyring`` is not installed or fails)."""
    if entry is None or (keyring := keyring_module()) is None:
        return None
    try:
        value = keyring.get_password(KEYRING_SERVICE, entry)
    except Exception:  # a locked or missing backend is not an error: fall back to the prompt
        return None
    return value if isinstance(value, str) and value else None


def keyring_set(entry: str, secret: str) -> None:
    """Store ``secret`` in the keyring (:class:`ConfigError` when ``keyring`` is not installed)."""
    if (keyring := keyring_module()) is None:
        raise ConfigError("the keyring package is not installed (pip install keyring)")
    try:
        keyring.set_password(KEYRING_SERVICE, entry, secret)
    except Exception as exc:  # keyring.errors.KeyringError and whatever a backend raises
        raise ConfigError(f"the keyring refused to store the secret: {type(exc).__name__}: {exc}") from exc


def keyring_module() -> Any:
    """The ``keyring`` module when installed (an optional extra, never a dependency), else ``None``."""
    try:
        import keyring
    except ImportError:
        return None
    return keyring
