"""``python -m printmgmt_sim``: run the simulator in the foreground until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import shlex
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from printmgmt_cli.profile import LIMITS

from .faults import Faults
from .profile import load_profile
from .server import Simulator
from .settings import DEFAULT_CLIENTS, DEFAULT_USERS, Settings
from .variants import Variants, parse_variant

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m printmgmt_sim",
        description="A local print server (seal-rest v3) with a Keycloak-compatible realm, for the printmgmt SDK.",
    )
    add = parser.add_argument
    add("--host", default=defaults.host, help="address to bind (default %(default)s)")
    add("--port", type=int, default=8080, help="port to bind, 0 for a free one (default %(default)s)")
    add("--seed", type=int, default=defaults.seed, help="seed of the demo data (default %(default)s)")
    add(
        "--speed",
        type=float,
        default=defaults.speed,
        help="simulated seconds per second, 0 freezes (default %(default)s)",
    )
    add("--printers", type=int, default=defaults.printers, help="number of printers (default %(default)s)")
    add("--jobs", type=int, default=defaults.jobs, help="number of seeded jobs (default %(default)s)")
    add(
        "--arrivals",
        type=float,
        default=defaults.arrivals_per_hour,
        help="new jobs per simulated hour, on average over an office day; 0 for none (default %(default)s)",
    )
    add("--realm", default=defaults.realm, help="Keycloak realm (default %(default)s)")
    add("--auth-prefix", default="", help="path before /realms, e.g. /auth for legacy Keycloak URLs")
    add("--access-ttl", type=int, default=defaults.access_ttl, help="access token lifetime, s (default %(default)s)")
    add("--refresh-ttl", type=int, default=defaults.refresh_ttl, help="refresh token lifetime, s (default %(default)s)")
    add("--max-top", type=int, default=None, help="cap list pages at this many items (default: no cap)")
    add("--latency", type=float, default=0.0, help="fault: seconds added to every API request")
    add("--error-rate", type=float, default=0.0, help="fault: share of API requests answered 500/503")
    add("--drop-rate", type=float, default=0.0, help="fault: share of API connections dropped")
    add("--truncate-rate", type=float, default=0.0, help="fault: share of API answers cut short")
    add("--malform-rate", type=float, default=0.0, help="fault: share of JSON answers made unparsable")
    add("--tls-cert", help="serve HTTPS with this PEM certificate chain (and key, unless --tls-key)")
    add("--tls-key", help="PEM private key of --tls-cert")
    add("--env-file", help="write PRINTMGMT_* variables (with secrets, mode 0600) here once running")
    add("--stats-file", help="on shutdown, write request, connection and token counts here (JSON)")
    add(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="answer otherwise than the spec guesses, e.g. write_answer=empty (repeatable; see printmgmt_sim.variants)",
    )
    add(
        "--profile",
        metavar="FILE",
        help="answer as the server printmgmt doctor --write-profile FILE probed (TOML or JSON); --variant and "
        "--max-top still override it",
    )
    add("--access-log", action="store_true", help="log every request (paths and statuses, never credentials)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    faults = Faults(
        latency=args.latency,
        error_rate=args.error_rate,
        drop_rate=args.drop_rate,
        truncate_rate=args.truncate_rate,
        malform_rate=args.malform_rate,
        seed=args.seed,
    )
    try:
        profile = load_profile(args.profile) if args.profile else {}
        variants = profile.get("variants", Variants())
        for text in args.variant:
            variants = parse_variant(text, variants)
        settings = Settings(
            host=args.host,
            port=args.port,
            seed=args.seed,
            speed=args.speed,
            printers=args.printers,
            jobs=args.jobs,
            realm=args.realm,
            auth_prefix=args.auth_prefix,
            access_ttl=args.access_ttl,
            refresh_ttl=args.refresh_ttl,
            max_top=args.max_top if args.max_top is not None else profile.get("max_top"),
            **{name: profile[name] for name in LIMITS if name in profile},
            faults=faults,
            variants=variants,
            access_log=args.access_log,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            arrivals_per_hour=args.arrivals,
        )
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    with Simulator(settings) as sim, _env_file(args.env_file, sim):
        print(banner(sim, args.env_file), flush=True)
        if variants != Variants():
            print(f"  variants: {variants}", flush=True)
        if faults != Faults(seed=faults.seed):
            print(f"  faults: {faults.snapshot()}", flush=True)
        stop.wait()
        if args.stats_file:  # before stopping: connections still open are part of the picture
            _write_stats(args.stats_file, sim)
    return 0


def banner(sim: Simulator, env_file: str | None) -> str:
    """What the simulator says when it starts: where it is, how to sign in (the demo deployment's users,
    password and client secrets, published in :mod:`printmgmt_sim.settings`; credentials configured
    otherwise are not shown) and how to hand them to the SDK and the command line."""
    settings = sim.settings
    lines = [f"printmgmt simulator: API {sim.base_url}  token endpoint {sim.token_url}", "  sign in as:"]
    for user in settings.users:
        password = repr(user.password) if user in DEFAULT_USERS else "(as configured)"
        lines.append(f"    {user.username:<16} password {password:<10} roles {', '.join(user.roles)}")
    lines.append("  through a client (each has its own secret; statistics need the graphical one):")
    for client in settings.clients:
        secret = repr(client.secret) if client in DEFAULT_CLIENTS else "(as configured)"
        lines.append(f"    --client-kind {client.kind:<10} {client.client_id:<20} secret {secret}")
    if env_file:
        lines.append(f"  PRINTMGMT_* variables (admin, graphical client) written to {env_file}; in a shell:")
        lines.append(f"    set -a; . {shlex.quote(env_file)}; set +a; printmgmt whoami")
    else:
        lines.append("  --env-file FILE writes the PRINTMGMT_* variables for the SDK and the command line")
    arrivals = f"{settings.arrivals_per_hour:g} new jobs an hour" if settings.arrivals_per_hour else "no new jobs"
    size = f"{settings.printers} printers, {settings.jobs} jobs"
    lines.append(f"  seed {settings.seed}, {size}, speed {settings.speed}, {arrivals}")
    return "\n".join(lines)


def _write_stats(path: str, sim: Simulator) -> None:
    """What the server saw: :meth:`Traffic.snapshot` plus token grants (``idp_counts``, ``token_grants`` as
    ``[monotonic seconds, grant type]``)."""
    idp = sim.backend.idp
    stats = {**sim.traffic.snapshot(), "idp_counts": dict(idp.counts), "token_grants": list(idp.grants)}
    with open(path, "w") as out:
        json.dump(stats, out)


@contextlib.contextmanager
def _env_file(path: str | None, sim: Simulator) -> Iterator[None]:
    """Write the ``PRINTMGMT_*`` variables (readable by the owner only) while the simulator runs."""
    if path is None:
        yield
        return
    # written aside and renamed: a reader waiting for the file never sees it half-written
    partial = f"{path}.part"
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.writelines(f"{key}={shlex.quote(value)}\n" for key, value in sim.env().items())
    os.replace(partial, path)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.remove(path)


if __name__ == "__main__":
    sys.exit(main())
