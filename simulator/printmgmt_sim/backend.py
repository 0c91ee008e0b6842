"""One simulated deployment: its settings, state, clock and identity provider, independent of HTTP."""

from __future__ import annotations

from .arrivals import Arrivals
from .clock import SimClock
from .faults import Faults
from .idp import IdentityProvider
from .lifecycle import advance
from .rules import Env
from .seed import seed_store
from .settings import Settings
from .store import Store
from .traffic import Traffic

__all__ = ["Backend"]

#: Most rounds of automatic steps one request waits for (a clock that jumped far catches up over requests).
_ROUNDS = 200


class Backend:
    """The state behind the API; ``base_url`` is where it is served (the token issuer derives from it)."""

    def __init__(self, settings: Settings, base_url: str) -> None:
        self.settings = settings
        self.base_url = base_url.rstrip("/")
        self.store = self._seeded_store()
        self.clock = SimClock(settings.start_ms, settings.speed)
        #: New jobs checking in as the clock runs (see :mod:`~printmgmt_sim.arrivals`).
        self.arrivals = Arrivals(settings)
        self._faults = settings.faults.snapshot()
        #: Requests and connections seen by the server (see :class:`~printmgmt_sim.traffic.Traffic`).
        self.traffic = Traffic()
        #: ``(operationId, field)`` of declared body fields a handler dropped (see :mod:`~printmgmt_sim.api`).
        self.unhonoured: set[tuple[str, str]] = set()
        self.idp = IdentityProvider(
            realm=settings.realm,
            base_url=self.base_url,
            prefix=settings.auth_prefix,
            users=settings.users,
            clients=settings.clients,
            access_ttl=settings.access_ttl,
            refresh_ttl=settings.refresh_ttl,
            announced_ttl=settings.access_ttl_announced,
        )

    def _seeded_store(self) -> Store:
        store = Store()
        seed_store(store, self.settings)
        return store

    def reset(self) -> None:
        """Back to the state right after start: seeded data, the clock at its start, faults as configured,
        no live refresh tokens (access tokens stay valid), traffic counters and dropped body fields at zero."""
        fresh = self._seeded_store()
        old, self.store = self.store, fresh
        old.close()
        self.clock = SimClock(self.settings.start_ms, self.settings.speed)
        self.arrivals = Arrivals(self.settings)
        self.settings.faults.restore(self._faults)
        self.idp.reset()
        self.traffic.reset()
        self.unhonoured.clear()

    @property
    def faults(self) -> Faults:
        return self.settings.faults

    def advance(self) -> int:
        """Check in the jobs arrived by now and let jobs take every automatic step due (a job waiting for
        its printer prints once the one before it is done, however long since the last request); return how
        many arrived or changed."""
        now = self.clock.now_ms()
        changed = self.arrivals.advance(self.store, now)
        for _ in range(_ROUNDS):
            if not (step := advance(self.store, now, self.settings.seed)):
                break
            changed += step
        return changed

    def env(self, actor: str) -> Env:
        """The context of an action by ``actor`` at the current simulated time."""
        return Env(self.store, self.clock.now_ms(), self.settings.seed, actor)

    def close(self) -> None:
        self.store.close()
