"""Settings and credentials: options over variables over profiles, secrets never written or shown."""

from __future__ import annotations

import json
import re
import stat
import sys
import tomllib
import types
from pathlib import Path

import pytest
from cli_helpers import Invoke, error_line
from printmgmt_cli import configcmd, runner
from printmgmt_sim import Simulator


def secrets_of(sim: Simulator, kind: str = "cli") -> list[str]:
    return [sim.user("admin").password, sim.client_credentials(kind).secret]


def assert_no_secret(sim: Simulator, *texts: str) -> None:
    password, client_secret = secrets_of(sim)
    # the simulator's password is "test": look for it as a value, not inside paths like /tmp/pytest-1/test_x
    as_value = re.compile(rf"(?<![\w/.-]){re.escape(password)}(?![\w/.-])")
    for text in texts:
        assert client_secret not in text
        assert not as_value.search(text), text


# -- authentication failures: exit 3, one line ------------------------------------------------------


def test_wrong_password_exits_3_without_traceback_or_secret(cli: Invoke, sim: Simulator) -> None:
    result = cli("whoami", env={"PRINTMGMT_PASSWORD": "wrong-password"})
    assert result.exit_code == 3
    assert "authentication failed: token request refused: 401 invalid_grant" in error_line(result)
    assert "wrong-password" not in result.output


def test_debug_shows_the_traceback_and_requests_but_no_secret(cli: Invoke, sim: Simulator) -> None:
    assert cli("--debug", "whoami").exit_code == 0
    result = cli("--debug", "jobs", "get", "nope", env={"PRINTMGMT_CLIENT_SECRET": "wrong-secret"})
    assert result.exit_code == 3
    assert "Traceback" in result.stderr and "AuthenticationError" in result.stderr
    assert "profile default" in result.stderr  # where the settings came from
    assert "wrong-secret" not in result.output
    assert_no_secret(sim, result.output)
    ok = cli("--debug", "whoami")
    assert "auth.user_roles" in ok.stderr or "GET /v3/" in ok.stderr  # the SDK's request log
    assert_no_secret(sim, ok.output)


def test_a_rejected_or_expired_token_exits_3(cli: Invoke, sim: Simulator) -> None:
    assert cli("whoami", role=None, env={"PRINTMGMT_TOKEN": sim.token("admin")}).exit_code == 0
    result = cli("whoami", role=None, env={"PRINTMGMT_TOKEN": sim.token("admin", ttl=-1)})
    assert result.exit_code == 3 and "401 Unauthorized" in error_line(result)


def test_no_credentials_off_a_terminal_exits_3(cli: Invoke, sim: Simulator) -> None:
    none = cli("whoami", role=None)
    assert none.exit_code == 3 and "PRINTMGMT_TOKEN" in error_line(none)
    env = {"PRINTMGMT_PASSWORD": None}
    missing = cli("whoami", env=env)
    assert missing.exit_code == 3 and "PRINTMGMT_PASSWORD" in error_line(missing)


def test_missing_secrets_are_asked_for_with_hidden_input(
    cli: Invoke, sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "interactive", lambda: True)
    password, secret = secrets_of(sim)
    env = {"PRINTMGMT_PASSWORD": None, "PRINTMGMT_CLIENT_SECRET": None}
    result = cli("whoami", "-o", "json", env=env, input=f"{password}\n{secret}\n")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["user"] == "seal-admin"
    assert "Password for seal-admin" in result.stderr and "Client secret of seal-plossyscli" in result.stderr
    assert_no_secret(sim, result.output)  # not echoed


# -- options, variables, profiles ------------------------------------------------------------------


def test_options_override_variables(cli: Invoke, sim: Simulator) -> None:
    result = cli("--base-url", "http://127.0.0.1:9", "--retries", "0", "whoami")  # nothing listens on port 9
    assert result.exit_code == 1 and "error: " in error_line(result)
    env = {"PRINTMGMT_CLIENT_ID": None, "PRINTMGMT_CLIENT_SECRET": sim.client_credentials("operator").secret}
    operator = cli("--client-kind", "operator", "whoami", "-o", "json", env=env)
    assert json.loads(operator.stdout)["client"] == "seal-opcli"


def test_timeout_option_is_used(cli: Invoke, sim: Simulator) -> None:
    sim.faults.latency = 1.0
    result = cli("--timeout", "0.2", "--retries", "0", "printers", "get", "printer1")
    assert result.exit_code == 1 and "ReadTimeout" in error_line(result)


def test_usage_errors_exit_2(cli: Invoke, tmp_path: Path) -> None:
    assert cli("jobs", "list", "--no-such-option").exit_code == 2
    assert cli("jobs", "list", "-o", "xml").exit_code == 2
    assert cli("--client-kind", "robot", "whoami").exit_code == 2
    assert cli("jobs", "pause").exit_code == 2  # no id
    assert cli("nonsense").exit_code == 2
    bundle = tmp_path / "ca.pem"
    bundle.write_text("")
    assert cli("--insecure", "--ca-bundle", str(bundle), "whoami").exit_code == 2
    no_server = cli("whoami", env={"PRINTMGMT_BASE_URL": None})
    assert no_server.exit_code == 2 and "--base-url" in error_line(no_server)


def test_config_init_writes_no_secret_and_the_profile_works(cli: Invoke, sim: Simulator, profiles: Path) -> None:
    written = cli("--profile", "sim", "--realm", "SEAL", "config", "init")
    assert written.exit_code == 0, written.stderr
    text = profiles.read_text()
    assert_no_secret(sim, text)
    saved = tomllib.loads(text)["sim"]
    assert saved["base_url"] == sim.base_url and saved["username"] == "seal-admin"
    assert not {"password", "client_secret", "token"} & set(saved)
    assert stat.S_IMODE(profiles.stat().st_mode) == 0o600
    # the profile gives everything but the secrets
    secrets = {"PRINTMGMT_PASSWORD": secrets_of(sim)[0], "PRINTMGMT_CLIENT_SECRET": secrets_of(sim)[1]}
    assert cli("--profile", "sim", "whoami", role=None, env=secrets).exit_code == 0
    assert cli("whoami", role=None, env={**secrets, "PRINTMGMT_PROFILE": "sim"}).exit_code == 0
    # variables win over the profile, options over both
    broken = {**secrets, "PRINTMGMT_BASE_URL": "http://127.0.0.1:9", "PRINTMGMT_RETRIES": "0"}
    assert cli("--profile", "sim", "whoami", role=None, env=broken).exit_code == 1
    assert cli("--profile", "sim", "--base-url", sim.base_url, "whoami", role=None, env=broken).exit_code == 0
    # an existing profile is only replaced on request
    assert cli("--profile", "sim", "config", "init").exit_code == 2
    assert cli("--profile", "sim", "config", "init", "--force").exit_code == 0


def test_config_show_masks_secrets(cli: Invoke, sim: Simulator) -> None:
    table = cli("config", "show")
    assert table.exit_code == 0
    assert "***" in table.stdout and sim.base_url in table.stdout
    assert_no_secret(sim, table.output)
    shown = json.loads(cli("config", "show", "-o", "json", env={"PRINTMGMT_TOKEN": None}).stdout)
    rows = {row["setting"]: row for row in shown["settings"]}
    assert rows["password"] == {"setting": "password", "value": "***", "source": "env", "note": None}
    assert rows["token"]["value"] is None
    assert rows["base_url"]["source"] == "env"


def test_profile_file_with_a_secret_or_a_typo_is_refused(cli: Invoke, profiles: Path) -> None:
    profiles.write_text('[default]\nbase_url = "http://x"\npassword = "oops"\n')
    result = cli("whoami")
    assert result.exit_code == 2 and "secrets do not belong" in error_line(result)
    profiles.write_text('[default]\nbase_ulr = "http://x"\n')
    assert "unknown setting 'base_ulr'" in error_line(cli("whoami"))
    assert "no profile 'other'" in error_line(cli("--profile", "other", "whoami"))


def test_keyring_when_installed(cli: Invoke, sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
    store: dict[tuple[str, str], str] = {}
    fake = types.ModuleType("keyring")
    fake.get_password = lambda service, name: store.get((service, name))  # type: ignore[attr-defined]
    fake.set_password = lambda service, name, value: store.__setitem__((service, name), value)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "keyring", fake)
    monkeypatch.setattr(configcmd, "interactive", lambda: False)
    assert cli("config", "init", "--keyring").exit_code == 0
    assert sorted(store.values()) == sorted(secrets_of(sim))
    no_secrets = {"PRINTMGMT_PASSWORD": None, "PRINTMGMT_CLIENT_SECRET": None, "PRINTMGMT_BASE_URL": None}
    assert cli("whoami", env=no_secrets).exit_code == 0  # profile + keyring, nothing secret in the environment
    shown = json.loads(cli("config", "show", "-o", "json", env=no_secrets).stdout)
    assert {row["setting"]: row["source"] for row in shown["settings"]}["password"] == "keyring"


def test_the_command_lines_client_kinds_are_the_sdks() -> None:
    import typer.main
    from printmgmt_cli.app import app

    from printmgmt.auth import CLIENT_IDS

    [option] = [param for param in typer.main.get_command(app).params if param.name == "client_kind"]
    assert list(option.type.choices) == list(CLIENT_IDS)  # type: ignore[attr-defined]


def test_the_command_line_names_the_identity_provider_the_sdk_signs_in_at() -> None:
    from printmgmt_cli.store import identity_provider

    from printmgmt.auth import PasswordAuth

    values = {"auth_url": "https://idp:32769/auth/", "realm": "my realm/x"}
    auth = PasswordAuth(username="u", password="p", client_secret="s", auth_url=values["auth_url"], realm="my realm/x")
    assert identity_provider(values) == "https://idp:32769/auth/realms/my%20realm%2Fx"
    assert auth.token_url == f"{identity_provider(values)}/protocol/openid-connect/token"
