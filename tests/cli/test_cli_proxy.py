"""The command line goes through the proxy the environment names, as any client of the SDK does."""

from __future__ import annotations

from cli_helpers import Invoke
from loopback_proxy import loopback_proxy
from printmgmt_sim import Simulator

#: Every proxy variable, unset: only what a test sets applies.
UNSET: dict[str, str | None] = {
    name: None for base in ("http_proxy", "https_proxy", "all_proxy", "no_proxy") for name in (base, base.upper())
}


def test_the_environment_proxy_carries_the_sign_in_and_the_calls(cli: Invoke, sim: Simulator) -> None:
    with loopback_proxy() as proxy:
        result = cli("whoami", "-o", "json", env={**UNSET, "HTTP_PROXY": proxy.url})
    assert result.exit_code == 0, result.stderr
    assert proxy.targets() == [f"POST {sim.token_url}", f"GET {sim.base_url}/v3/auth/userroles"]


def test_no_proxy_leaves_the_server_direct(cli: Invoke, sim: Simulator) -> None:
    with loopback_proxy() as proxy:
        result = cli("whoami", env={**UNSET, "HTTP_PROXY": proxy.url, "NO_PROXY": "127.0.0.1"})
    assert result.exit_code == 0, result.stderr
    assert proxy.passed == []
