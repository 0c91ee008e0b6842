"""PasswordAuth and BearerToken against a mocked identity provider and API (respx).

The fake identity provider issues numbered tokens (``acc3ss-TOKEN-<n>-k4`` / ``r3fresh-TOKEN-<n>-m5``) and
records every form it receives; the fake API accepts exactly the access tokens the provider considers valid.
Time is a :class:`FakeClock` injected into ``PasswordAuth``, so nothing here sleeps to let tokens expire.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest
import respx
from fake_clock import FakeClock

from printmgmt import CLIENT_IDS, BearerToken, PasswordAuth, PrintClient, SessionAuth
from printmgmt.auth import BACKOFF_INITIAL
from printmgmt.errors import AuthenticationError, PrintMgmtError, TransportError, Unauthorized

BASE_URL = "https://print.test:8080"
IDP_URL = "https://idp.test:32769"
TOKEN_URL = f"{IDP_URL}/realms/SEAL/protocol/openid-connect/token"
USER_ROLES_URL = f"{BASE_URL}/v3/auth/userroles"

USERNAME = "alice"
PASSWORD = "s3cr3t-PASSWORD-x9"
CLIENT_SECRET = "s3cr3t-CLIENT-SECRET-q7"
ROLES = {"user": USERNAME, "roles": ["admin"]}

#: Bound of every wait that only expires when the behaviour under test is broken (so a failure cannot hang).
BARRIER_TIMEOUT = 1.0


def access_token(n: int) -> str:
    return f"acc3ss-TOKEN-{n}-k4"


def refresh_token(n: int) -> str:
    return f"r3fresh-TOKEN-{n}-m5"


def bearer(n: int) -> str:
    return f"Bearer {access_token(n)}"


def form_of(request: httpx.Request) -> dict[str, str]:
    """The form-encoded body of ``request``; fails on a malformed body or a repeated field."""
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    parsed = parse_qs(request.content.decode("ascii"), keep_blank_values=True, strict_parsing=True)
    assert all(len(values) == 1 for values in parsed.values()), parsed
    return {name: values[0] for name, values in parsed.items()}


def password_form(*, client_id: str = "seal-plossyscli", password: str = PASSWORD) -> dict[str, str]:
    return {
        "client_id": client_id,
        "client_secret": CLIENT_SECRET,
        "username": USERNAME,
        "password": password,
        "grant_type": "password",
    }


def refresh_form(n: int) -> dict[str, str]:
    return {
        "client_id": "seal-plossyscli",
        "client_secret": CLIENT_SECRET,
        "grant_type": "refresh_token",
        "refresh_token": refresh_token(n),
    }


class FakeIdP:
    """Keycloak-like token endpoint (an async respx side effect)."""

    def __init__(self) -> None:
        self.expires_in: Any = 300
        self.refresh_expires_in: Any = 1800
        self.password = PASSWORD
        self.refuse_passwords = False
        #: When False, refresh answers carry no new refresh token (allowed by RFC 6749, section 6).
        self.rotate_refresh = True
        #: Answers for the next refresh grants, instead of the normal behaviour.
        self.refresh_answers: list[httpx.Response] = []
        #: Seconds each answer takes; even 0 suspends, so concurrent callers run meanwhile.
        self.delay = 0.0
        self.requests: list[httpx.Request] = []
        self.forms: list[dict[str, str]] = []
        self.issued_access: list[str] = []
        self.issued_refresh: list[str] = []
        self.valid_access: set[str] = set()
        self.valid_refresh: set[str] = set()

    @property
    def grants(self) -> list[str]:
        return [form["grant_type"] for form in self.forms]

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        form = form_of(request)
        self.requests.append(request)
        self.forms.append(form)
        await asyncio.sleep(self.delay)
        if form.get("client_secret") != CLIENT_SECRET:
            return httpx.Response(401, json={"error": "unauthorized_client", "error_description": "bad secret"})
        grant = form.get("grant_type")
        if grant == "refresh_token":
            if self.refresh_answers:
                return self.refresh_answers.pop(0)
            if form.get("refresh_token") not in self.valid_refresh:
                return httpx.Response(400, json={"error": "invalid_grant", "error_description": "Token is not active"})
        elif grant == "password":
            if self.refuse_passwords or form.get("username") != USERNAME or form.get("password") != self.password:
                return httpx.Response(
                    401, json={"error": "invalid_grant", "error_description": "Invalid user credentials"}
                )
        else:
            return httpx.Response(400, json={"error": "unsupported_grant_type"})
        n = len(self.issued_access) + 1
        body: dict[str, Any] = {
            "access_token": access_token(n),
            "expires_in": self.expires_in,
            "refresh_expires_in": self.refresh_expires_in,
            "token_type": "Bearer",
            "scope": "profile email",
        }
        self.issued_access.append(access_token(n))
        self.valid_access.add(access_token(n))
        if grant == "password" or self.rotate_refresh:
            body["refresh_token"] = refresh_token(n)
            self.issued_refresh.append(refresh_token(n))
            self.valid_refresh.add(refresh_token(n))
        return httpx.Response(200, json=body)


class FakeAPI:
    """``GET /v3/auth/userroles``: 200 for an access token the IdP holds valid, 401 otherwise."""

    def __init__(self, idp: FakeIdP) -> None:
        self.idp = idp
        self.reject_all = False
        self.authorizations: list[str | None] = []

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        header = request.headers.get("Authorization")
        self.authorizations.append(header)
        await asyncio.sleep(0)
        token = header.removeprefix("Bearer ") if header and header.startswith("Bearer ") else None
        if self.reject_all or token not in self.idp.valid_access:
            return httpx.Response(401, json={"code": "401", "message": "Unauthorized"})
        return httpx.Response(200, json=ROLES)


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    # assert_all_mocked: a request no route expects fails the test instead of reaching the network
    with respx.mock(assert_all_called=False, assert_all_mocked=True) as mock:
        yield mock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def idp(router: respx.MockRouter) -> FakeIdP:
    fake = FakeIdP()
    router.post(TOKEN_URL).mock(side_effect=fake)
    return fake


@pytest.fixture
def api(router: respx.MockRouter, idp: FakeIdP) -> FakeAPI:
    fake = FakeAPI(idp)
    router.get(USER_ROLES_URL).mock(side_effect=fake)
    return fake


def make_auth(**overrides: Any) -> PasswordAuth:
    kwargs: dict[str, Any] = {
        "auth_url": IDP_URL,
        "realm": "SEAL",
        "username": USERNAME,
        "password": PASSWORD,
        "client_secret": CLIENT_SECRET,
    }
    kwargs.update(overrides)
    return PasswordAuth(**kwargs)


# -- construction ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("auth_url", "realm", "expected"),
    [
        ("https://idp:32769", "SEAL", "https://idp:32769/realms/SEAL/protocol/openid-connect/token"),
        ("https://idp:32769/", "SEAL", "https://idp:32769/realms/SEAL/protocol/openid-connect/token"),
        ("https://idp:32769/auth/", "SEAL", "https://idp:32769/auth/realms/SEAL/protocol/openid-connect/token"),
        ("https://idp:32769/auth", "other", "https://idp:32769/auth/realms/other/protocol/openid-connect/token"),
        ("http://idp", "my realm/x", "http://idp/realms/my%20realm%2Fx/protocol/openid-connect/token"),
    ],
)
def test_token_url_is_built_from_auth_url_and_realm(auth_url: str, realm: str, expected: str) -> None:
    assert make_auth(auth_url=auth_url, realm=realm).token_url == expected


async def test_legacy_auth_prefix_is_where_the_token_request_goes(router: respx.MockRouter) -> None:
    idp = FakeIdP()
    legacy = router.post(f"{IDP_URL}/auth/realms/SEAL/protocol/openid-connect/token").mock(side_effect=idp)
    api = router.get(USER_ROLES_URL).mock(side_effect=FakeAPI(idp))
    async with PrintClient(BASE_URL, auth=make_auth(auth_url=f"{IDP_URL}/auth/")) as client:
        await client.auth.user_roles()
    assert legacy.call_count == 1
    assert api.call_count == 1


@pytest.mark.parametrize("auth_url", [None, IDP_URL])
async def test_token_url_overrides_auth_url(router: respx.MockRouter, auth_url: str | None) -> None:
    token_url = "https://sso.test/o/token/"
    idp = FakeIdP()
    route = router.post(token_url).mock(side_effect=idp)
    router.get(USER_ROLES_URL).mock(side_effect=FakeAPI(idp))
    auth = make_auth(auth_url=auth_url, token_url=token_url)
    assert auth.token_url == token_url
    async with PrintClient(BASE_URL, auth=auth) as client:
        await client.auth.user_roles()
    assert route.call_count == 1
    assert idp.forms == [password_form()]


@pytest.mark.parametrize(
    ("kind", "client_id"),
    [("graphical", "seal-plossysadmin"), ("operator", "seal-opcli"), ("cli", "seal-plossyscli")],
)
def test_client_kind_selects_the_default_client_id(kind: str, client_id: str) -> None:
    assert CLIENT_IDS[kind] == client_id
    assert make_auth(client_kind=kind).client_id == client_id


def test_client_id_defaults_to_the_cli_client_and_an_explicit_one_wins() -> None:
    assert make_auth().client_id == "seal-plossyscli"
    assert make_auth(client_id="my-client", client_kind="graphical").client_id == "my-client"


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({"auth_url": None}, id="neither-auth_url-nor-token_url"),
        pytest.param({"auth_url": ""}, id="empty-auth_url"),
        pytest.param({"auth_url": "idp.test:32769"}, id="auth_url-without-scheme"),
        pytest.param({"auth_url": "ftp://idp.test"}, id="auth_url-not-http"),
        pytest.param({"auth_url": None, "token_url": "/realms/SEAL/token"}, id="relative-token_url"),
        pytest.param({"realm": ""}, id="empty-realm"),
        pytest.param({"client_kind": "admin"}, id="unknown-client_kind"),
        pytest.param({"username": ""}, id="empty-username"),
        pytest.param({"password": ""}, id="empty-password"),
        pytest.param({"password": None}, id="no-password"),
        pytest.param({"client_secret": ""}, id="empty-client_secret"),
        pytest.param({"leeway": -1.0}, id="negative-leeway"),
    ],
)
def test_bad_constructor_arguments_raise_value_error(overrides: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as excinfo:
        make_auth(**overrides)
    assert PASSWORD not in str(excinfo.value)
    assert CLIENT_SECRET not in str(excinfo.value)


# -- the password grant ----------------------------------------------------------------------------


async def test_password_grant_form_and_bearer_header(router: respx.MockRouter, idp: FakeIdP, api: FakeAPI) -> None:
    password = "s3cr3t-PASSWORD-x9 &=+%?#"  # must survive form encoding
    idp.password = password
    auth = make_auth(password=password, client_kind="operator")
    async with PrintClient(BASE_URL, auth=auth) as client:
        roles = await client.auth.user_roles()
    assert roles.user == USERNAME
    [token_request] = idp.requests
    assert token_request.method == "POST"
    assert str(token_request.url) == TOKEN_URL
    assert "Authorization" not in token_request.headers
    assert parse_qs(token_request.content.decode("ascii"), strict_parsing=True) == {
        "client_id": ["seal-opcli"],
        "client_secret": [CLIENT_SECRET],
        "username": [USERNAME],
        "password": [password],
        "grant_type": ["password"],
    }
    assert api.authorizations == [bearer(1)]
    assert auth.token_requests == 1


async def test_token_request_uses_the_client_timeout_and_user_agent(idp: FakeIdP, api: FakeAPI) -> None:
    timeout = httpx.Timeout(7.5, connect=2.5)
    async with PrintClient(BASE_URL, auth=make_auth(), timeout=timeout) as client:
        await client.auth.user_roles()
    [token_request] = idp.requests
    # without it a silent identity provider would block every caller queued on the token forever
    assert token_request.extensions["timeout"] == timeout.as_dict()
    assert token_request.headers["User-Agent"].startswith("printmgmt/")


async def test_token_is_reused_across_sequential_calls(idp: FakeIdP, api: FakeAPI, clock: FakeClock) -> None:
    auth = make_auth(clock=clock)
    async with PrintClient(BASE_URL, auth=auth) as client:
        for _ in range(25):
            await client.auth.user_roles()
            clock.advance(10)  # the last call is at +240 s, inside expires_in=300 minus the 30 s leeway
    assert idp.grants == ["password"]
    assert api.authorizations == [bearer(1)] * 25
    assert auth.token_requests == 1


# -- expiry and renewal ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expires_in", "leeway", "renew_at"),
    [
        pytest.param(300, 30.0, 270.0, id="leeway"),
        pytest.param(60, 30.0, 54.0, id="tenth-of-a-short-lifetime"),
        pytest.param(300, 5.0, 295.0, id="small-leeway"),
    ],
)
async def test_stale_token_is_renewed_with_the_refresh_grant(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock, expires_in: int, leeway: float, renew_at: float
) -> None:
    idp.expires_in = expires_in
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock, leeway=leeway)) as client:
        await client.auth.user_roles()
        clock.advance(renew_at - 0.5)
        await client.auth.user_roles()
        assert idp.grants == ["password"]  # still fresh half a second before renew_at
        clock.advance(0.5)
        await client.auth.user_roles()
        await client.auth.user_roles()
    assert idp.grants == ["password", "refresh_token"]
    assert idp.forms[1] == refresh_form(1)
    assert api.authorizations == [bearer(1), bearer(1), bearer(2), bearer(2)]


async def test_refused_refresh_falls_back_to_the_password_grant(idp: FakeIdP, api: FakeAPI, clock: FakeClock) -> None:
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        await client.auth.user_roles()
        idp.valid_refresh.clear()  # the IdP answers the refresh with 400 invalid_grant
        clock.advance(300)
        await client.auth.user_roles()
        await client.auth.user_roles()
    assert idp.grants == ["password", "refresh_token", "password"]
    assert idp.forms[1] == refresh_form(1)
    assert idp.forms[2] == password_form()
    assert api.authorizations == [bearer(1), bearer(2), bearer(2)]


@pytest.mark.parametrize(
    ("status", "kwargs"),
    [
        pytest.param(500, {"text": "Internal Server Error"}, id="500"),
        pytest.param(200, {"json": {"token_type": "Bearer"}}, id="200-without-access_token"),
    ],
)
async def test_unusable_refresh_answer_falls_back_to_the_password_grant(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock, status: int, kwargs: dict[str, Any]
) -> None:
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        await client.auth.user_roles()
        idp.refresh_answers.append(httpx.Response(status, **kwargs))
        clock.advance(300)
        await client.auth.user_roles()
    assert idp.grants == ["password", "refresh_token", "password"]
    assert api.authorizations == [bearer(1), bearer(2)]


async def test_renewal_is_bounded_to_one_refresh_and_one_password_grant(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock
) -> None:
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        await client.auth.user_roles()
        idp.valid_refresh.clear()
        idp.refuse_passwords = True
        clock.advance(300)
        with pytest.raises(AuthenticationError) as excinfo:
            await client.auth.user_roles()
    assert idp.grants == ["password", "refresh_token", "password"]
    assert (excinfo.value.status_code, excinfo.value.error) == (401, "invalid_grant")
    assert api.authorizations == [bearer(1)]  # the stale token was not sent


@pytest.mark.parametrize(
    ("elapsed", "grant"),
    [
        # refresh_expires_in=600 minus min(30, 600/10) leeway: usable until +570 s
        pytest.param(569.5, "refresh_token", id="refresh-token-still-valid"),
        pytest.param(570.0, "password", id="refresh-token-expired"),
        pytest.param(5000.0, "password", id="long-expired"),
    ],
)
async def test_expired_refresh_token_goes_straight_to_the_password_grant(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock, elapsed: float, grant: str
) -> None:
    idp.refresh_expires_in = 600
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        await client.auth.user_roles()
        clock.advance(elapsed)
        await client.auth.user_roles()
    assert idp.grants == ["password", grant]
    assert api.authorizations == [bearer(1), bearer(2)]


async def test_refresh_expires_in_zero_means_the_refresh_token_does_not_expire(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock
) -> None:
    idp.refresh_expires_in = 0  # Keycloak's "offline" tokens
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        await client.auth.user_roles()
        clock.advance(1_000_000)
        await client.auth.user_roles()
    assert idp.grants == ["password", "refresh_token"]


async def test_refresh_answer_without_a_new_refresh_token_keeps_the_old_one(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock
) -> None:
    idp.rotate_refresh = False
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        await client.auth.user_roles()
        clock.advance(300)
        await client.auth.user_roles()
        clock.advance(300)
        await client.auth.user_roles()
    assert idp.forms[1:] == [refresh_form(1), refresh_form(1)]
    assert api.authorizations == [bearer(1), bearer(2), bearer(3)]


# -- single flight ---------------------------------------------------------------------------------


async def test_concurrent_calls_share_one_token_request_and_run_concurrently(
    router: respx.MockRouter, idp: FakeIdP, clock: FakeClock
) -> None:
    calls = 100
    in_flight = max_in_flight = 0
    timed_out = False
    all_in_flight = asyncio.Event()
    authorizations: list[str | None] = []

    async def api(request: httpx.Request) -> httpx.Response:
        # holds every API call until all of them are in flight at once: only possible when no lock
        # serialises the API requests themselves
        nonlocal in_flight, max_in_flight, timed_out
        authorizations.append(request.headers.get("Authorization"))
        in_flight += 1
        max_in_flight = max(max_in_flight, in_flight)
        if in_flight >= calls:
            all_in_flight.set()
        try:
            await asyncio.wait_for(all_in_flight.wait(), timeout=BARRIER_TIMEOUT)
        except TimeoutError:
            timed_out = True
            all_in_flight.set()  # the failure is recorded; let the rest finish at once
        finally:
            in_flight -= 1
        return httpx.Response(200, json=ROLES)

    router.get(USER_ROLES_URL).mock(side_effect=api)
    idp.delay = 0.01
    auth = make_auth(clock=clock)
    async with PrintClient(BASE_URL, auth=auth) as client:
        results = await asyncio.gather(*(client.auth.user_roles() for _ in range(calls)))
    assert [r.user for r in results] == [USERNAME] * calls
    assert idp.grants == ["password"]
    assert auth.token_requests == 1
    assert authorizations == [bearer(1)] * calls
    assert max_in_flight == calls, "the API requests did not all run at once: something serialises them"
    assert not timed_out


# -- 401 from the API ------------------------------------------------------------------------------


async def test_401_drops_the_token_renews_it_and_retries_once(idp: FakeIdP, api: FakeAPI, clock: FakeClock) -> None:
    auth = make_auth(clock=clock)
    async with PrintClient(BASE_URL, auth=auth) as client:
        await client.auth.user_roles()
        idp.valid_access.clear()  # revoked on the server: fresh by the clock, refused by the API
        roles = await client.auth.user_roles()
        await client.auth.user_roles()  # the renewed token is kept
    assert roles.user == USERNAME
    assert api.authorizations == [bearer(1), bearer(1), bearer(2), bearer(2)]
    assert len(idp.grants) == 2
    assert auth.token_requests == 2


async def test_a_second_401_is_not_retried_again(router: respx.MockRouter, idp: FakeIdP, clock: FakeClock) -> None:
    api = FakeAPI(idp)
    api.reject_all = True
    router.get(USER_ROLES_URL).mock(side_effect=api)
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        with pytest.raises(Unauthorized) as excinfo:
            await client.auth.user_roles()
    assert excinfo.value.status_code == 401
    assert api.authorizations == [bearer(1), bearer(2)]
    assert len(idp.grants) == 2


async def test_concurrent_401s_for_the_same_token_trigger_one_renewal(
    router: respx.MockRouter, idp: FakeIdP, clock: FakeClock
) -> None:
    calls = 20
    rejected = 0
    timed_out = False
    all_rejected = asyncio.Event()
    authorizations: list[str | None] = []

    async def api(request: httpx.Request) -> httpx.Response:
        # every call with a revoked token waits until all of them hold their 401, then gets it
        nonlocal rejected, timed_out
        header = request.headers.get("Authorization")
        authorizations.append(header)
        await asyncio.sleep(0)
        if header is not None and header.removeprefix("Bearer ") in idp.valid_access:
            return httpx.Response(200, json=ROLES)
        rejected += 1
        if rejected >= calls:
            all_rejected.set()
        try:
            await asyncio.wait_for(all_rejected.wait(), timeout=BARRIER_TIMEOUT)
        except TimeoutError:
            timed_out = True
            all_rejected.set()
        return httpx.Response(401, json={"code": "401", "message": "Unauthorized"})

    router.get(USER_ROLES_URL).mock(side_effect=api)
    idp.delay = 0.01
    auth = make_auth(clock=clock)
    async with PrintClient(BASE_URL, auth=auth) as client:
        await client.auth.user_roles()
        idp.valid_access.clear()
        results = await asyncio.gather(*(client.auth.user_roles() for _ in range(calls)))
    assert [r.user for r in results] == [USERNAME] * calls
    assert not timed_out, "the 401 answers never were all pending at once: something serialises the API requests"
    assert len(idp.grants) == 2  # the login and ONE renewal
    assert auth.token_requests == 2
    assert sorted(map(str, authorizations)) == sorted([bearer(1)] * (calls + 1) + [bearer(2)] * calls)


# -- the token endpoint refuses or answers nonsense ------------------------------------------------


@pytest.mark.parametrize(
    ("token_url", "status", "body"),
    [
        pytest.param(
            TOKEN_URL,
            401,
            {"error": "invalid_grant", "error_description": "Invalid user credentials"},
            id="keycloak",
        ),
        pytest.param(
            "https://sso.test/o/token/",
            400,
            {"error": "invalid_grant", "error_description": "Invalid credentials given."},
            id="django-oauth-toolkit",
        ),
    ],
)
async def test_refused_login_raises_authentication_error(
    router: respx.MockRouter, token_url: str, status: int, body: dict[str, str]
) -> None:
    token_route = router.post(token_url).respond(status, json=body)
    api_route = router.get(USER_ROLES_URL).respond(200, json=ROLES)
    auth = make_auth(auth_url=None, token_url=token_url)
    async with PrintClient(BASE_URL, auth=auth) as client:
        with pytest.raises(AuthenticationError) as excinfo:
            await client.auth.user_roles()
    exc = excinfo.value
    assert type(exc) is AuthenticationError
    assert exc.status_code == status
    assert exc.error == "invalid_grant"
    assert exc.error_description == body["error_description"]
    assert body["error_description"] in str(exc)
    assert token_route.call_count == 1
    assert not api_route.called


@pytest.mark.parametrize(
    ("status", "kwargs", "error"),
    [
        pytest.param(200, {"json": {"token_type": "Bearer", "expires_in": 300}}, None, id="200-without-access_token"),
        pytest.param(200, {"json": {"access_token": ""}}, None, id="200-empty-access_token"),
        pytest.param(200, {"json": {"access_token": 12345}}, None, id="200-numeric-access_token"),
        pytest.param(200, {"json": [access_token(1)]}, None, id="200-json-list"),
        pytest.param(200, {"html": "<html><body>Sign in</body></html>"}, None, id="200-html"),
        pytest.param(200, {"content": b"\xff\xfe\x00{not json"}, None, id="200-garbage-bytes"),
        pytest.param(500, {"text": "Internal Server Error"}, None, id="500-text"),
        pytest.param(503, {"json": {"error": "temporarily_unavailable"}}, "temporarily_unavailable", id="503-json"),
    ],
)
async def test_unusable_token_answer_raises_authentication_error(
    router: respx.MockRouter, status: int, kwargs: dict[str, Any], error: str | None
) -> None:
    router.post(TOKEN_URL).respond(status, **kwargs)
    api_route = router.get(USER_ROLES_URL).respond(200, json=ROLES)
    async with PrintClient(BASE_URL, auth=make_auth()) as client:
        with pytest.raises(PrintMgmtError) as excinfo:
            await client.auth.user_roles()
    assert type(excinfo.value) is AuthenticationError
    assert excinfo.value.status_code == status
    assert excinfo.value.error == error
    assert not api_route.called


async def test_failed_login_is_not_cached_but_retried_after_a_back_off(
    router: respx.MockRouter, idp: FakeIdP, api: FakeAPI, clock: FakeClock
) -> None:
    answers: list[Any] = [httpx.ConnectError("connection refused"), httpx.Response(500, text="starting up")]

    async def flaky_idp(request: httpx.Request) -> httpx.Response:
        if answers:
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            assert isinstance(answer, httpx.Response)
            return answer
        return await idp(request)

    token_route = router.post(TOKEN_URL).mock(side_effect=flaky_idp)
    # retries=0: a connect error would otherwise be retried (nothing was sent), see test_retry.py
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock), retries=0) as client:
        with pytest.raises(TransportError):
            await client.auth.user_roles()
        # the provider could not be reached: the next call tries at once (its retries pace themselves)
        with pytest.raises(AuthenticationError, match="500"):
            await asyncio.wait_for(client.auth.user_roles(), timeout=BARRIER_TIMEOUT)
        assert token_route.call_count == 2
        # the provider refused: within the back-off the refusal is remembered, no token request
        with pytest.raises(AuthenticationError, match="no new token request"):
            await client.auth.user_roles()
        assert token_route.call_count == 2
        clock.advance(BACKOFF_INITIAL)
        roles = await asyncio.wait_for(client.auth.user_roles(), timeout=BARRIER_TIMEOUT)
    assert roles.user == USERNAME
    assert token_route.call_count == 3
    assert api.authorizations == [bearer(1)]


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(httpx.Response(401, json={"error": "invalid_grant"}), id="wrong-password"),
        pytest.param(httpx.Response(503, json={"error": "temporarily_unavailable"}), id="503"),
        pytest.param(httpx.ConnectError("connection refused"), id="connect-error"),
    ],
)
async def test_waiting_callers_share_a_failed_acquisition(
    router: respx.MockRouter, api: FakeAPI, clock: FakeClock, answer: httpx.Response | Exception
) -> None:
    async def failing_idp(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.01)  # long enough for every caller to be waiting on this request
        if isinstance(answer, Exception):
            raise answer
        return answer

    token_route = router.post(TOKEN_URL).mock(side_effect=failing_idp)
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock), retries=0) as client:
        results = await asyncio.gather(*(client.auth.user_roles() for _ in range(50)), return_exceptions=True)
        assert token_route.call_count == 1
        assert all(isinstance(r, AuthenticationError | TransportError) for r in results), results
        if isinstance(answer, httpx.Response):
            # a refusal: a loop of later callers does not hammer the identity provider either
            for _ in range(20):
                with pytest.raises(AuthenticationError, match="no new token request"):
                    await client.auth.user_roles()
            assert token_route.call_count == 1
    assert not api.authorizations


async def test_back_off_after_refusals_doubles_up_to_its_cap_and_resets_on_success(
    router: respx.MockRouter, idp: FakeIdP, api: FakeAPI, clock: FakeClock
) -> None:
    answers = iter(["refuse"] * 7 + ["grant"] + ["refuse"] * 2)

    async def token_endpoint(request: httpx.Request) -> httpx.Response:
        if next(answers) == "refuse":
            return httpx.Response(401, json={"error": "invalid_grant"})
        return await idp(request)

    token_route = router.post(TOKEN_URL).mock(side_effect=token_endpoint)
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock), retries=0) as client:
        with pytest.raises(AuthenticationError, match="invalid_grant"):
            await client.auth.user_roles()
        for expected_wait in [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]:
            requests = token_route.call_count
            clock.advance(expected_wait - 0.1)
            with pytest.raises(AuthenticationError, match="no new token request"):
                await client.auth.user_roles()
            assert token_route.call_count == requests, f"a token request within the {expected_wait} s back-off"
            clock.advance(0.1)
            with contextlib.suppress(AuthenticationError):
                await client.auth.user_roles()
            assert token_route.call_count == requests + 1
        # the last of those succeeded: a refusal after a success backs off 1 s again
        clock.advance(3600)  # the token expired
        with pytest.raises(AuthenticationError, match="invalid_grant"):
            await client.auth.user_roles()
        requests = token_route.call_count
        clock.advance(1.0)
        with pytest.raises(AuthenticationError, match="invalid_grant"):
            await client.auth.user_roles()
        assert token_route.call_count == requests + 1


async def test_waiters_fetch_the_token_when_the_fetching_caller_is_cancelled(
    router: respx.MockRouter, idp: FakeIdP, api: FakeAPI, clock: FakeClock
) -> None:
    idp.delay = 0.05
    async with PrintClient(BASE_URL, auth=make_auth(clock=clock)) as client:
        first = asyncio.create_task(client.auth.user_roles())
        await asyncio.sleep(0.01)  # the first caller is now fetching the token
        others = [asyncio.create_task(client.auth.user_roles()) for _ in range(5)]
        await asyncio.sleep(0)
        first.cancel()
        results = await asyncio.wait_for(asyncio.gather(*others), timeout=BARRIER_TIMEOUT)
    assert [r.user for r in results] == [USERNAME] * 5
    assert first.cancelled()
    assert idp.grants == ["password", "password"]


# -- secrets ---------------------------------------------------------------------------------------


def _exception_texts(exc: BaseException) -> list[str]:
    """str, repr, args and attributes of ``exc`` and of every exception chained to it."""
    texts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        texts += [str(current), repr(current), repr(current.args), repr(vars(current))]
        current = current.__cause__ or current.__context__
    return texts


async def test_secrets_never_appear_in_logs_reprs_or_exceptions(
    idp: FakeIdP, api: FakeAPI, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # the root logger: printmgmt, httpx, httpcore, everything
    auth = make_auth(clock=clock)
    raised: list[BaseException] = []
    async with PrintClient(BASE_URL, auth=auth) as client:
        await client.auth.user_roles()  # login
        clock.advance(300)
        await client.auth.user_roles()  # refresh grant
        idp.valid_access.clear()
        await client.auth.user_roles()  # 401, renewal, retry
        api.reject_all = True
        with pytest.raises(Unauthorized) as unauthorized:
            await client.auth.user_roles()  # 401 after the retry too
        raised.append(unauthorized.value)
        api.reject_all = False
        idp.valid_refresh.clear()
        idp.refuse_passwords = True
        clock.advance(300)
        with pytest.raises(AuthenticationError) as refused:
            await client.auth.user_roles()  # refused refresh, then refused login
        raised.append(refused.value)
        client_texts = [repr(client), str(client)]
    assert idp.grants == ["password", "refresh_token", "refresh_token", "refresh_token", "refresh_token", "password"]

    secrets = [PASSWORD, CLIENT_SECRET, *idp.issued_access, *idp.issued_refresh]
    assert len(idp.issued_access) == 4
    assert len(idp.issued_refresh) == 4
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    texts = [repr(auth), str(auth), *client_texts, caplog.text]
    for exc in raised:
        texts += _exception_texts(exc)
    for record in caplog.records:
        texts += [record.getMessage(), repr(record.args), repr(record.msg), formatter.format(record)]
    leaks = [(secret, text) for secret in secrets for text in texts if secret in text]
    assert not leaks

    # the check saw real traffic: these records exist (and were searched above)
    messages = [record.getMessage() for record in caplog.records]
    assert any(m.startswith("token acquired for alice") for m in messages)
    assert any(m.startswith("refresh token refused (400)") for m in messages)
    assert any(m.startswith("401 from GET /v3/auth/userroles") for m in messages)
    assert any(TOKEN_URL in m for m in messages)  # httpx's request log


# -- event loops -----------------------------------------------------------------------------------


def test_one_password_auth_serves_successive_event_loops(idp: FakeIdP, api: FakeAPI, clock: FakeClock) -> None:
    idp.delay = 0.01  # the burst queues on the lock in each loop
    auth = make_auth(clock=clock)

    async def burst() -> list[str]:
        async with PrintClient(BASE_URL, auth=auth) as client:
            results = await asyncio.gather(*(client.auth.user_roles() for _ in range(10)))
        return [str(r.user) for r in results]

    assert asyncio.run(burst()) == [USERNAME] * 10
    clock.advance(10_000)  # stale: the second loop needs the lock again
    assert asyncio.run(burst()) == [USERNAME] * 10
    assert idp.grants == ["password", "password"]


# -- BearerToken -----------------------------------------------------------------------------------


# -- stored sessions ---------------------------------------------------------------------------------


def make_session(refresh: str, **overrides: Any) -> SessionAuth:
    kwargs: dict[str, Any] = {"auth_url": IDP_URL, "username": USERNAME, "client_secret": CLIENT_SECRET}
    kwargs.update(overrides)
    return SessionAuth(refresh_token=refresh, **kwargs)


async def test_a_session_renews_with_its_refresh_token_and_reports_each_rotation(idp: FakeIdP, api: FakeAPI) -> None:
    idp.valid_refresh.add(refresh_token(0))
    rotated: list[str] = []
    async with PrintClient(BASE_URL, auth=make_session(refresh_token(0), on_refresh=rotated.append)) as client:
        await client.auth.user_roles()
    assert idp.forms == [refresh_form(0)]  # never a password grant
    assert rotated == [refresh_token(1)]


async def test_an_ended_session_without_a_password_says_to_sign_in_again(idp: FakeIdP, api: FakeAPI) -> None:
    auth = make_session("r3fresh-TOKEN-revoked")
    async with PrintClient(BASE_URL, auth=auth) as client:
        with pytest.raises(AuthenticationError, match=r"session of alice .* has ended.*printmgmt login"):
            await client.auth.user_roles()
    assert idp.grants == ["refresh_token"]
    assert "r3fresh-TOKEN-revoked" not in repr(auth)


async def test_an_ended_session_with_a_password_signs_in_with_it(idp: FakeIdP, api: FakeAPI) -> None:
    auth = make_session("r3fresh-TOKEN-revoked", password=PASSWORD)
    async with PrintClient(BASE_URL, auth=auth) as client:
        assert (await client.auth.user_roles()).user == USERNAME
    assert idp.grants == ["refresh_token", "password"]
    assert idp.forms[1] == password_form()
    assert auth.refresh_token == refresh_token(1)
    assert PASSWORD not in repr(auth)


async def test_bearer_token_sends_the_fixed_token_and_hides_it(router: respx.MockRouter) -> None:
    token = "fixed-B3ARER-token-z1"
    route = router.get(USER_ROLES_URL).respond(200, json=ROLES)
    auth = BearerToken(token)
    assert token not in repr(auth)
    assert token not in str(auth)
    async with PrintClient(BASE_URL, auth=auth) as client:
        assert token not in repr(client)
        await client.auth.user_roles()
        await client.auth.user_roles()
    assert [call.request.headers["Authorization"] for call in route.calls] == [f"Bearer {token}"] * 2


async def test_token_string_is_wrapped_into_bearer_token(router: respx.MockRouter) -> None:
    route = router.get(USER_ROLES_URL).respond(200, json=ROLES)
    async with PrintClient(BASE_URL, auth="a-token-string") as client:
        assert isinstance(client.http.auth, BearerToken)
        assert "a-token-string" not in repr(client)
        await client.auth.user_roles()
    assert route.calls.last.request.headers["Authorization"] == "Bearer a-token-string"


async def test_bearer_token_401_is_not_retried(router: respx.MockRouter) -> None:
    route = router.get(USER_ROLES_URL).respond(401, json={"code": "401", "message": "Unauthorized"})
    async with PrintClient(BASE_URL, auth=BearerToken("fixed-B3ARER-token-z1")) as client:
        with pytest.raises(Unauthorized):
            await client.auth.user_roles()
    assert route.call_count == 1


@pytest.mark.parametrize("token", ["", None])
def test_bearer_token_needs_a_token(token: Any) -> None:
    with pytest.raises(ValueError):
        BearerToken(token)
