"""Settings of one simulator instance, and the credentials of its demo deployment.

The defaults describe a SEAL-like deployment: realm ``SEAL``; the confidential clients
``seal-plossysadmin`` (graphical), ``seal-opcli`` (operator CLI) and ``seal-plossyscli`` (general CLI);
the test users ``seal-admin``, ``seal-custom`` and ``seal-readonly`` with the realm roles ``admin``,
``custom`` and ``readonly`` and the password ``test`` (as SEAL's documented test users). The client
secrets are the simulator's own (``<client id>-secret``); none of these values is ever logged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from printmgmt_cli.profile import LIMITS, MAX_DEPTH, MAX_HEADER_SIZE

from .faults import Faults
from .variants import Variants

__all__ = [
    "DEFAULT_ALLOWED_CLIENTS",
    "DEFAULT_CLIENTS",
    "DEFAULT_START_MS",
    "DEFAULT_USERS",
    "ROLES",
    "AllowedClients",
    "ClientCredentials",
    "Settings",
    "UserCredentials",
]

#: The realm roles the API knows, most powerful first.
ROLES: Final = ("admin", "custom", "readonly")

#: The simulated clock starts here (2025-01-06T08:00:00Z) so that seeded data are the same on every run.
DEFAULT_START_MS: Final = 1_736_150_400_000


@dataclass(frozen=True, slots=True)
class UserCredentials:
    """A user of the realm."""

    username: str
    password: str = field(repr=False)
    roles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ClientCredentials:
    """A confidential client of the realm; ``kind`` is the SDK's client kind."""

    client_id: str
    secret: str = field(repr=False)
    kind: str = "cli"


#: ``ALLOWED_OIDC_CLIENTS``: client -> {"roles": role -> area -> set name -> {"views": [...], "permissions": [...]}}.
AllowedClients = Mapping[str, Mapping[str, Any]]

_ALL: Final = {"set-all": {"views": ["ALL"], "permissions": ["ALL"]}}
_OPERATIONS: Final = {"jobs": _ALL, "printers": _ALL}
_ROLES_ALL: Final = ("admin", "custom", "readonly")
DEFAULT_ALLOWED_CLIENTS: Final[AllowedClients] = {
    "seal-plossysadmin": {"roles": {role: {**_OPERATIONS, "dashboard": _ALL} for role in _ROLES_ALL}},
    "seal-opcli": {"roles": {role: _OPERATIONS for role in _ROLES_ALL}},
    "seal-plossyscli": {"roles": {role: _OPERATIONS for role in _ROLES_ALL}},
}


DEFAULT_USERS: Final = (
    UserCredentials("seal-admin", "test", ("admin",)),
    UserCredentials("seal-custom", "test", ("custom",)),
    UserCredentials("seal-readonly", "test", ("readonly",)),
)
DEFAULT_CLIENTS: Final = (
    ClientCredentials("seal-plossysadmin", "seal-plossysadmin-secret", "graphical"),
    ClientCredentials("seal-opcli", "seal-opcli-secret", "operator"),
    ClientCredentials("seal-plossyscli", "seal-plossyscli-secret", "cli"),
)


@dataclass(slots=True)
class Settings:
    """Everything that makes two simulator runs differ.

    ``speed`` is simulated seconds per real second (0 freezes the clock; jobs then only change through
    actions or :meth:`~printmgmt_sim.Simulator.advance`). ``access_ttl``/``refresh_ttl`` are token
    lifetimes in seconds; ``access_ttl_announced`` is the ``expires_in`` sent with access tokens (default:
    ``access_ttl``; a longer one makes tokens expire before the client expects). ``max_top`` caps list
    pages like a server-side limit (None: no cap, as the real middleware). ``max_depth`` is how deep the
    documents of a query may nest before MongoDB refuses it (500), ``max_header_size`` how long a request
    line and headers may be before Node answers ``431`` (``printmgmt_cli.profile.LIMITS`` has the defaults).
    ``auth_prefix`` is put before ``/realms/...`` (``/auth`` for legacy Keycloak URLs). ``tls_cert`` (a PEM
    certificate chain, with the key unless ``tls_key`` names the key file) serves HTTPS instead of HTTP.
    ``variants`` answers where the interface document shows no body otherwise than the spec guesses (the
    table is in ``printmgmt_sim.variants``).
    ``allowed_clients`` is the server's ``ALLOWED_OIDC_CLIENTS`` (read as in ``printmgmt_sim.access``).
    ``arrivals_per_hour`` is how many new jobs check in per simulated hour on average, more in office hours
    (``printmgmt_sim.arrivals``; 0: none, only the seeded jobs).
    """

    host: str = "127.0.0.1"
    port: int = 0
    seed: int = 1
    speed: float = 1.0
    printers: int = 36
    jobs: int = 5000
    start_ms: int = DEFAULT_START_MS
    realm: str = "SEAL"
    auth_prefix: str = ""
    access_ttl: int = 300
    refresh_ttl: int = 1800
    access_ttl_announced: int | None = None
    users: tuple[UserCredentials, ...] = DEFAULT_USERS
    clients: tuple[ClientCredentials, ...] = DEFAULT_CLIENTS
    max_top: int | None = None
    max_depth: int = LIMITS[MAX_DEPTH]
    max_header_size: int = LIMITS[MAX_HEADER_SIZE]
    faults: Faults = field(default_factory=Faults)
    variants: Variants = field(default_factory=Variants)
    allowed_clients: AllowedClients = field(default_factory=lambda: DEFAULT_ALLOWED_CLIENTS)
    access_log: bool = False
    tls_cert: str | None = None
    tls_key: str | None = None
    arrivals_per_hour: float = 360.0

    def __post_init__(self) -> None:
        if self.speed < 0:
            raise ValueError("speed must not be negative")
        if self.printers < 2:
            raise ValueError("the simulator needs at least 2 printers")
        if self.jobs < 0:
            raise ValueError("jobs must not be negative")
        if self.max_depth < 1 or self.max_header_size < 1:
            raise ValueError("max_depth and max_header_size must be positive")
        if self.arrivals_per_hour < 0:
            raise ValueError("arrivals_per_hour must not be negative")
        if self.access_ttl < 1 or self.refresh_ttl < 1:
            raise ValueError("token lifetimes must be at least 1 second")
        if self.access_ttl_announced is not None and self.access_ttl_announced < 1:
            raise ValueError("access_ttl_announced must be at least 1 second")
        if self.tls_key is not None and self.tls_cert is None:
            raise ValueError("tls_key needs tls_cert")
        if self.auth_prefix and not self.auth_prefix.startswith("/"):
            raise ValueError("auth_prefix must start with '/'")
        self.auth_prefix = self.auth_prefix.rstrip("/")
