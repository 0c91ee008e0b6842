"""The command line's own errors: each is reported as one line, with its exit code."""

from __future__ import annotations

__all__ = ["CliError", "ConfigError", "CredentialsError"]


class CliError(Exception):
    """An error the command line reports as one line, with its exit code."""

    exit_code = 1


class ConfigError(CliError):
    """The settings are unusable (a missing server URL, a broken profile): exit 2."""

    exit_code = 2


class CredentialsError(CliError):
    """No usable credentials: exit 3."""

    exit_code = 3
