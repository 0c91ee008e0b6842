"""``python -m bench``: run the benchmark scenarios and write ``bench/results.json`` and ``BENCHMARKS.md``.

``--quick`` is a smoke run (under two minutes: one round, smaller sizes) written to ``bench/quick/`` so that it
never replaces the figures of a full run. ``--scenarios`` picks some; results of the others are kept from
the previous file, each scenario stamped with when it was measured.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import env, report
from .context import Context, split_cpus
from .fixtures import capture
from .scenarios import imports, paging, parsing, percall, profile, querycheck, send, simlist, token, tracing

ROOT = Path(__file__).resolve().parent.parent
RUNNERS: dict[str, Callable[[Context], dict[str, Any]]] = {
    "percall": percall.run,
    "paging": paging.run,
    "parsing": parsing.run,
    "token": token.run,
    "imports": imports.run,
    "tracing": tracing.run,
    "simlist": simlist.run,
    "querycheck": querycheck.run,
    "send": send.run,
    "profile": profile.run,
}
SCENARIOS = tuple(RUNNERS)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="fast smoke run (one round, small sizes)")
    parser.add_argument(
        "--scenarios",
        default=",".join(SCENARIOS),
        help=f"comma-separated, from: {', '.join(SCENARIOS)} (default: all)",
    )
    parser.add_argument("--repeats", type=int, default=None, help="rounds per scenario (default 5; quick 1)")
    parser.add_argument("--results", type=Path, default=None, help="JSON output (default bench/results.json)")
    parser.add_argument("--markdown", type=Path, default=None, help="report (default BENCHMARKS.md)")
    parser.add_argument("--render-only", action="store_true", help="rewrite the report from the results file")
    args = parser.parse_args(argv)
    unknown = set(args.scenarios.split(",")) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
    out = ROOT / "bench" / "quick" if args.quick else None
    args.results = args.results or (out / "results.json" if out else ROOT / "bench" / "results.json")
    args.markdown = args.markdown or (out / "BENCHMARKS.md" if out else ROOT / "BENCHMARKS.md")
    args.repeats = args.repeats or (1 if args.quick else 5)
    return args


def _previous(path: Path, quick: bool) -> dict[str, Any]:
    try:
        previous: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return previous.get("scenarios", {}) if previous.get("quick") == quick else {}


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.render_only:
        args.markdown.write_text(report.render(json.loads(args.results.read_text())))
        print(f"wrote {args.markdown} from {args.results}", file=sys.stderr)
        return 0
    selected = set(args.scenarios.split(","))
    server_cpus, client_cpus = split_cpus()
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    results: dict[str, Any] = {
        "quick": args.quick,
        "repeats": args.repeats,
        "env": env.describe(client_cpus, server_cpus),
        "scenarios": _previous(args.results, args.quick),
    }
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="printmgmt-bench-") as tmp:
        context = Context(args.quick, args.repeats, capture(Path(tmp)), server_cpus, client_cpus)
        context.log(f"fixtures: job {context.fixtures.job_bytes:,} B, page {context.fixtures.page_bytes:,} B")
        runners = {name: run for name, run in RUNNERS.items() if name in selected}
        for name, run in runners.items():
            scenario_started = time.perf_counter()
            context.log(f"{name}: start")
            figures = run(context)
            figures["measured_at"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
            figures["duration_s"] = round(time.perf_counter() - scenario_started, 1)
            results["scenarios"][name] = figures
            context.log(f"{name}: {figures['duration_s']} s")
    results["load_average_end"] = env.load_average()
    results["duration_s"] = round(time.perf_counter() - started, 1)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1) + "\n")
    args.markdown.parent.mkdir(parents=True, exist_ok=True)
    args.markdown.write_text(report.render(results))
    print(f"wrote {args.results} and {args.markdown} in {results['duration_s']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
