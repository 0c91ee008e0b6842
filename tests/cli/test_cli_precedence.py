"""One precedence for every setting: option > environment > stored (profile) > default, with settings that name
one thing (the client, the identity provider, TLS) counted as one; ``config show`` says what wins and what
it overrides."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Invoke
from printmgmt_sim import Simulator


def shown(cli: Invoke, *args: str, env: dict[str, str | None] | None = None) -> dict[str, dict[str, Any]]:
    result = cli(*args, "config", "show", "-o", "json", env=env)
    assert result.exit_code == 0, result.output
    return {row["setting"]: row for row in json.loads(result.stdout)["settings"]}


def shell_with(env_file: Path, tmp_path: Path) -> Callable[[str], subprocess.CompletedProcess[str]]:
    """Run a bash script after ``set -a; . env_file; set +a``, as README says (``printmgmt`` is ``$PRINTMGMT``)."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith("PRINTMGMT_")}
    clean["PRINTMGMT_CONFIG"] = str(tmp_path / "profiles.toml")
    command = f"{shlex.quote(sys.executable)} -m printmgmt_cli"

    def shell(script: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", f"set -a; . {shlex.quote(str(env_file))}; set +a; {script.replace('$PRINTMGMT', command)}"],
            env=clean,
            capture_output=True,
            text=True,
            timeout=120,
        )

    return shell


def test_statistics_work_with_the_simulators_env_file(sim: Simulator, tmp_path: Path) -> None:
    """``printmgmt-sim --env-file sim.env``, ``. sim.env``, ``printmgmt stats``: the file the simulator's
    command writes signs in through the client whose roles see the statistics."""
    from printmgmt_sim.__main__ import _env_file  # what --env-file runs

    env_file = tmp_path / "sim.env"
    with _env_file(str(env_file), sim):
        result = shell_with(env_file, tmp_path)("$PRINTMGMT stats jobs -o json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == sum(sim.store.count_jobs("status").values())


def test_through_the_cli_client_the_403_hint_works_as_written(sim: Simulator, tmp_path: Path) -> None:
    """Variables of the cli client's id and secret, then what the 403 says: ``--client-kind graphical`` with
    that client's secret in PRINTMGMT_CLIENT_SECRET; the kind without its secret is refused with a 401 that
    names the client whose secret is needed. Through a shell and the installed command."""
    env_file = tmp_path / "cli.env"
    env_file.write_text("".join(f"{key}={shlex.quote(value)}\n" for key, value in sim.env("admin", "cli").items()))
    shell = shell_with(env_file, tmp_path)
    refused = shell("$PRINTMGMT stats jobs")
    assert refused.returncode == 1
    assert "add --client-kind graphical (or set PRINTMGMT_CLIENT_KIND=graphical)" in refused.stderr
    assert "that client's own secret in PRINTMGMT_CLIENT_SECRET" in refused.stderr
    graphical = sim.client_credentials("graphical")
    unmatched = shell("$PRINTMGMT --client-kind graphical stats jobs")
    assert unmatched.returncode == 3
    assert "401 unauthorized_client" in unmatched.stderr
    assert (
        f"PRINTMGMT_CLIENT_SECRET (or the prompt's answer) must be the secret of the client '{graphical.client_id}'"
        in (unmatched.stderr)
    )
    followed = shell(
        f"PRINTMGMT_CLIENT_SECRET={shlex.quote(graphical.secret)} $PRINTMGMT --client-kind graphical stats jobs -o json"
    )
    assert followed.returncode == 0, followed.stderr
    assert json.loads(followed.stdout)["total"] == sum(sim.store.count_jobs("status").values())


def test_config_show_marks_what_wins_and_what_it_overrides(cli: Invoke, sim: Simulator) -> None:
    rows = shown(cli, "--client-kind", "graphical", "--base-url", sim.base_url + "/")
    # the option's client kind wins over the environment's client id: both shown, the id as overridden
    assert rows["client_kind"]["value"] == "graphical" and rows["client_kind"]["source"] == "option"
    cli_id = sim.client_credentials("cli").client_id
    assert rows["client_kind"]["note"] == f"overrides client_id {cli_id} (env)"
    assert rows["client_id"] == {
        "setting": "client_id",
        "value": cli_id,
        "source": "env",
        "note": "overridden by client_kind (option)",
    }
    # one setting from two sources
    assert rows["base_url"]["value"] == sim.base_url + "/"
    assert rows["base_url"]["note"] == f"overrides {sim.base_url} (env)"
    # the table says the same
    table = cli("--client-kind", "graphical", "config", "show", env={"COLUMNS": "200"}).stdout
    assert "overridden by client_kind (option)" in table and f"overrides client_id {cli_id} (env)" in table


@pytest.mark.parametrize(
    ("profile", "env", "option", "expected"),
    [
        (None, None, None, ("SEAL", "default")),
        ("P", None, None, ("P", "profile default")),
        ("P", "E", None, ("E", "env")),
        ("P", "E", "O", ("O", "option")),
        (None, "E", "O", ("O", "option")),
        ("P", None, "O", ("O", "option")),
    ],
)
def test_option_over_environment_over_profile_over_default(
    cli: Invoke,
    profiles: Path,
    profile: str | None,
    env: str | None,
    option: str | None,
    expected: tuple[str, str],
) -> None:
    if profile:
        profiles.write_text(f'[default]\nrealm = "{profile}"\n')
    args = ("--realm", option) if option else ()
    row = shown(cli, *args, env={"PRINTMGMT_REALM": env})["realm"]
    assert (row["value"], row["source"]) == expected
    beaten = _given(profile, env, option)[:-1]  # all but the winner, lowest first
    assert row["note"] == ("; ".join(f"overrides {value} ({source})" for value, source in beaten) or None)


def _given(profile: str | None, env: str | None, option: str | None) -> list[tuple[str, str]]:
    given = [(profile, "profile default"), (env, "env"), (option, "option")]
    return [(value, source) for value, source in given if value]


def test_a_stored_identity_provider_is_overridden_as_one_setting(cli: Invoke, sim: Simulator, profiles: Path) -> None:
    # the profile names the token endpoint; the environment's auth URL (higher) wins, and the sign-in works
    profiles.write_text('[default]\ntoken_url = "http://127.0.0.1:9/nowhere"\n')
    rows = shown(cli)
    assert rows["token_url"]["note"] == "overridden by auth_url (env)"
    assert rows["auth_url"]["note"] == "overrides token_url http://127.0.0.1:9/nowhere (profile default)"
    assert cli("whoami").exit_code == 0
    # from the same source both stay (the token URL is used, as the SDK does)
    both = {"PRINTMGMT_TOKEN_URL": "http://127.0.0.1:9/nowhere", "PRINTMGMT_RETRIES": "0"}
    assert cli("whoami", env=both).exit_code != 0
