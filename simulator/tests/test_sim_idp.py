"""The Keycloak-compatible token endpoint, discovery and keys."""

from __future__ import annotations

import base64
import time

import httpx
import pytest
from joserfc import jwt
from joserfc.jwk import KeySet
from printmgmt_sim import Simulator

pytestmark = pytest.mark.print_server(jobs=10, access_ttl=120, refresh_ttl=600)


def password_form(sim: Simulator, role: str = "admin", kind: str = "cli", **changes: str) -> dict[str, str]:
    user, client = sim.user(role), sim.client_credentials(kind)
    form = {
        "grant_type": "password",
        "client_id": client.client_id,
        "client_secret": client.secret,
        "username": user.username,
        "password": user.password,
    }
    return {**form, **changes}


def test_password_grant_answers_like_keycloak(print_simulator: Simulator) -> None:
    response = httpx.post(print_simulator.token_url, data=password_form(print_simulator))
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert {
        "access_token",
        "expires_in",
        "refresh_expires_in",
        "refresh_token",
        "token_type",
        "not-before-policy",
        "scope",
    } <= set(body)
    assert (body["token_type"], body["expires_in"], body["refresh_expires_in"], body["not-before-policy"]) == (
        "Bearer",
        120,
        600,
        0,
    )


def test_access_tokens_are_jwts_signed_with_the_published_key(print_simulator: Simulator) -> None:
    token = httpx.post(print_simulator.token_url, data=password_form(print_simulator, "custom", "operator")).json()
    discovery = httpx.get(f"{print_simulator.auth_url}/realms/SEAL/.well-known/openid-configuration").json()
    assert discovery["issuer"] == f"{print_simulator.base_url}/realms/SEAL"
    assert discovery["token_endpoint"] == print_simulator.token_url
    keys = KeySet.import_key_set(httpx.get(discovery["jwks_uri"]).json())
    claims = jwt.decode(token["access_token"], keys, algorithms=["RS256"]).claims
    assert claims["iss"] == discovery["issuer"]
    assert claims["azp"] == "seal-opcli"
    assert claims["typ"] == "Bearer"
    assert claims["preferred_username"] == "seal-custom"
    assert "custom" in claims["realm_access"]["roles"]
    assert claims["exp"] - claims["iat"] in (120, 121)
    assert claims["exp"] >= time.time() + 119


def test_client_credentials_may_come_as_http_basic(print_simulator: Simulator) -> None:
    form = password_form(print_simulator)
    client_id, secret = form.pop("client_id"), form.pop("client_secret")
    basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    response = httpx.post(print_simulator.token_url, data=form, headers={"Authorization": f"Basic {basic}"})
    assert response.status_code == 200


def test_refresh_tokens_rotate(print_simulator: Simulator) -> None:
    first = httpx.post(print_simulator.token_url, data=password_form(print_simulator)).json()
    client = print_simulator.client_credentials("cli")
    refresh = {
        "grant_type": "refresh_token",
        "refresh_token": first["refresh_token"],
        "client_id": client.client_id,
        "client_secret": client.secret,
    }
    second = httpx.post(print_simulator.token_url, data=refresh)
    assert second.status_code == 200
    assert second.json()["refresh_token"] != first["refresh_token"]
    reused = httpx.post(print_simulator.token_url, data=refresh)
    assert reused.status_code == 400
    assert reused.json() == {"error": "invalid_grant", "error_description": "Invalid refresh token"}
    # a refresh token only works for the client it was issued to
    other = print_simulator.client_credentials("graphical")
    stolen = {
        **refresh,
        "refresh_token": second.json()["refresh_token"],
        "client_id": other.client_id,
        "client_secret": other.secret,
    }
    assert httpx.post(print_simulator.token_url, data=stolen).json()["error"] == "invalid_grant"


@pytest.mark.parametrize(
    ("changes", "status", "error", "description"),
    [
        ({"password": "wrong"}, 401, "invalid_grant", "Invalid user credentials"),
        ({"username": "nobody"}, 401, "invalid_grant", "Invalid user credentials"),
        ({"client_secret": "wrong"}, 401, "unauthorized_client", "Invalid client or Invalid client credentials"),
        ({"client_id": "seal-unknown"}, 401, "invalid_client", "Invalid client or Invalid client credentials"),
        (
            {"grant_type": "client_credentials"},
            400,
            "unauthorized_client",
            "Client not enabled to retrieve service account",
        ),
        ({"grant_type": "authorization_code"}, 400, "unsupported_grant_type", "Unsupported grant_type"),
        ({"grant_type": ""}, 400, "invalid_request", "Missing form parameter: grant_type"),
        ({"password": ""}, 400, "invalid_request", "Missing form parameter: password"),
    ],
)
def test_refusals_are_keycloak_errors(
    print_simulator: Simulator, changes: dict[str, str], status: int, error: str, description: str
) -> None:
    response = httpx.post(print_simulator.token_url, data=password_form(print_simulator, **changes))
    assert response.status_code == status
    assert response.json() == {"error": error, "error_description": description}


def test_unknown_realm(print_simulator: Simulator) -> None:
    response = httpx.post(f"{print_simulator.auth_url}/realms/OTHER/protocol/openid-connect/token", data={})
    assert response.status_code == 404
    assert response.json()["error"] == "Realm does not exist"


@pytest.mark.print_server(jobs=10, auth_prefix="/auth", realm="Test Realm")
def test_legacy_prefix_and_realm_names_are_kept(print_simulator: Simulator) -> None:
    url = f"{print_simulator.base_url}/auth/realms/Test%20Realm/protocol/openid-connect/token"
    assert print_simulator.token_url == url
    assert httpx.post(url, data=password_form(print_simulator)).status_code == 200


async def test_a_client_kind_without_its_own_secret_is_told_whose_secret_it_needs(print_simulator: Simulator) -> None:
    """The graphical client's id with the cli client's secret (a kind switched, the secret kept): the SDK's
    refusal names the client whose secret is needed."""
    from printmgmt import PasswordAuth, PrintClient
    from printmgmt.errors import AuthenticationError

    sim = print_simulator
    user, graphical = sim.user("admin"), sim.client_credentials("graphical")
    auth = PasswordAuth(
        auth_url=sim.auth_url,
        realm=sim.realm,
        client_id=graphical.client_id,
        client_secret=sim.client_credentials("cli").secret,
        username=user.username,
        password=user.password,
    )
    with pytest.raises(AuthenticationError) as caught:
        async with PrintClient(sim.base_url, auth=auth) as client:
            await client.jobs.list(top=1)
    assert caught.value.error == "unauthorized_client"
    assert f"client_secret must be the secret of the client '{graphical.client_id}'" in str(caught.value)
