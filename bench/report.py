# ruff: noqa: RUF001, RUF002  # the report is Markdown for people: times signs and en dashes on purpose
"""Renders ``BENCHMARKS.md`` from ``results.json``: every figure as measured, ratios to same-run baselines."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .targets import judge

__all__ = ["render"]


def _s(summary: dict[str, float], digits: int = 1, scale: float = 1.0) -> str:
    """``median (min–max)``."""
    med, low, high = (summary[k] * scale for k in ("median", "min", "max"))
    return f"{med:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def _x(summary: dict[str, float], digits: int = 2) -> str:
    return f"{summary['median']:.{digits}f}× ({summary['min']:.{digits}f}–{summary['max']:.{digits}f})"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return [*lines, ""]


def _environment(env: dict[str, Any], results: dict[str, Any]) -> list[str]:
    machine, python, git = env["machine"], env["python"], env["git"]
    packages = ", ".join(f"{name} {version}" for name, version in env["packages"].items() if version)
    pinning = (
        f"client on CPU {machine['client_cpus']}, servers on CPU {machine['server_cpus']}"
        if machine["client_cpus"]
        else "no CPU pinning"
    )
    rows = [
        ["date (UTC)", env["date"]],
        ["mode", "quick smoke run (figures are indicative only)" if results["quick"] else "full run"],
        ["machine", f"{machine['cpu']}, {machine['cpus']} CPUs, {machine['memory_gb']} GB; {machine['platform']}"],
        ["placement", pinning],
        ["load average at start / end", f"{env['load_average_start']} / {results.get('load_average_end')}"],
        ["Python", f"{python['implementation']} {python['version']}"],
        ["packages", packages],
        ["git", f"{git['commit']}" + (" with uncommitted SDK changes" if git["sdk_sources_modified"] else "")],
        ["repeats", f"{results['repeats']} rounds per scenario unless stated; figures are median (min–max)"],
    ]
    return ["## Environment", "", *_table(["", ""], rows)]


def _targets(results: dict[str, Any]) -> list[str]:
    rows = []
    for verdict in judge(results):
        mark = {True: "**met**", False: "**missed**", None: "info"}[verdict["met"]]
        rows.append([verdict["scenario"], verdict["target"], verdict["measured"], mark, verdict["reason"]])
    return ["## Targets", "", *_table(["scenario", "target", "measured, median (min–max)", "verdict", "why"], rows)]


def _percall(data: dict[str, Any]) -> list[str]:
    figures, ratios, labels = data["figures"], data["ratios"], data["labels"]
    share = data["server_cpu_share_max"]
    lines = [
        "## 1. Per-call cost: `client.jobs.get(id)` vs raw httpx and raw aiohttp",
        "",
        f"Canned server in its own process answering a {data['job_body_bytes']:,}-byte job "
        f"(per round, all clients open and warmed up, then taking turns in {data['slices_per_round']} slices of "
        f"{data['seconds_per_slice']} s each). "
        f"SDK default transport: `{data['sdk_default_transport']}`. Busiest server CPU share during any point: "
        + (f"{share:.0%} of one core (not the bottleneck)." if share is not None else "not measured.")
        + " CPU µs per call is the client process's `time.process_time()` divided by the calls.",
        "",
    ]
    for c in (str(c) for c in data["concurrency"]):
        rows = []
        for kind, label in labels.items():
            f = figures[kind][c]
            vs_httpx = ratios.get(f"{kind}/httpx", {}).get(c, {}).get("cpu_us") if kind != "httpx" else None
            vs_aiohttp = ratios.get(f"{kind}/aiohttp", {}).get(c, {}).get("cpu_us") if kind != "aiohttp" else None
            rows.append(
                [
                    label,
                    _s(f["cpu_us"], 0),
                    _x(vs_httpx) if vs_httpx else "1 (baseline)" if kind == "httpx" else "",
                    _x(vs_aiohttp) if vs_aiohttp else "1 (floor)" if kind == "aiohttp" else "",
                    _s(f["p50_ms"], 2),
                    _s(f["p99_ms"], 2),
                    _s(f["calls_per_s"], 0),
                ]
            )
        lines += [f"**Concurrency {c}**", ""]
        lines += _table(
            ["client", "CPU µs/call", "CPU vs raw httpx", "CPU vs raw aiohttp", "p50 ms", "p99 ms", "calls/s"], rows
        )
    paths = [kind for kind in ("sdk", "sdk_stock", "httpx", "httpx_pool") if f"{kind}/aiohttp" in ratios]
    levels = [c for c in ("16", "64") if any(c in ratios[f"{kind}/aiohttp"] for kind in paths)]
    if paths and levels:
        rows = [
            [
                labels[kind],
                *(
                    _x(ratios[f"{kind}/aiohttp"][c][figure]) if "p99_ms" in ratios[f"{kind}/aiohttp"].get(c, {}) else ""
                    for c in levels
                    for figure in ("cpu_us", "p99_ms")
                ),
            ]
            for kind in paths
        ]
        header = [f"{title} c={c}" for c in levels for title in ("CPU", "p99")]
        lines += ["**Each path against raw aiohttp (ratios per round)**", ""]
        lines += _table(["path", *header], rows)
    return lines


def _paging(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 3. Paging: `jobs.iterate()`",
        "",
        f"{data['total_jobs']:,} jobs from the {data['server']}, {data['delay_s'] * 1e3:.0f} ms added per request, "
        f"{data['rounds']} rounds. "
        + (
            f"Prefetch measured at `prefetch={data['prefetch']}` (the SDK's default is {data['prefetch_default']})."
            if data["prefetch_supported"]
            else "`iterate()` has no `prefetch=` in this build: sequential only."
        ),
        "",
    ]
    rows = [
        [key, _s(f["wall_s"], 2), _s(f["client_cpu_s"], 2), _s(f["jobs_per_s"], 0)]
        for key, f in data["figures"].items()
    ]
    lines += _table(["iteration", "wall s", "client CPU s", "jobs/s"], rows)
    if data["speedup_sequential_over_prefetch"]:
        rows = [[size, _x(r)] for size, r in data["speedup_sequential_over_prefetch"].items()]
        lines += _table(["page size", "speed-up of prefetch (sequential wall / prefetch wall)"], rows)
    if data.get("sync_speedup_sequential_over_prefetch"):
        rows = [[size, _x(r)] for size, r in data["sync_speedup_sequential_over_prefetch"].items()]
        lines += _table(["page size", "sync client: speed-up of prefetch on threads"], rows)
    memory = data["memory"]
    rows = []
    for mode, m in memory["modes"].items():
        cells = (
            [mode]
            + [f"{m['peaks'][str(n)]['peak_bytes'] / 1e6:.1f} MB" for n in memory["totals"]]
            + [f"{m['ratio']:.2f}×"]
        )
        rows.append(cells)
    lines += [f"Peak memory ({memory['method']}; page size {memory['page_size']:,}):", ""]
    lines += _table(["mode", *(f"{n:,} jobs" for n in memory["totals"]), "ratio"], rows)
    return lines


def _calls(calls: float) -> str:
    """Calls per run: whole numbers in full, small fractions to three digits."""
    return f"{calls:,.0f}" if calls >= 100 else f"{calls:.3g}"


def _profile_rows(rows: list[dict[str, Any]], limit: int = 15) -> list[list[str]]:
    return [
        [
            f"`{row['function']}`",
            _calls(row["calls"]),
            f"{row['self_ms'] * 1e3:.1f}",
            f"{row['cumulative_ms'] * 1e3:.1f}",
        ]
        for row in rows[:limit]
    ]


def _parsing(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 4. Parsing a 1,000-job page",
        "",
        f"A simulator answer of {data['jobs']:,} jobs ({data['page_bytes']:,} bytes), "
        f"{data['runs']} runs each, interleaved.",
        "",
    ]
    rows = [
        [name, _s(f, 1), _x(data["ratio_to_json_loads"][name]), _x(data["ratio_to_orjson_loads"][name])]
        for name, f in data["figures_ms"].items()
    ]
    lines += _table(["way", "ms per page", "vs json.loads", "vs orjson.loads"], rows)
    profile = data["from_dict_profile"]
    shares = ", ".join(f"{name} {share:.0%}" for name, share in list(profile["self_time_by_package"].items())[:6])
    lines += [
        f"Where `JobCollection.from_dict` spends its time ({profile['note']}); self time by package: {shares}.",
        "",
        "Top functions by self time (µs per page; cProfile inflates small calls):",
        "",
    ]
    lines += _table(["function", "calls", "self µs", "cumulative µs"], _profile_rows(profile["top_self"], 10))
    return lines


def _token(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 5. Token under concurrency",
        "",
        f"{data['calls']:,} concurrent `client.jobs.get` on the {data['server']}; {data['method']}.",
        "",
    ]
    rows = [
        ["valid token", _s(data["valid_wall_s"], 2), str(data["token_requests_valid_server"]), "1 (baseline)"],
        [
            "expired token",
            _s(data["expired_wall_s"], 2),
            str(data["token_requests_expired_server"]),
            _x(data["ratio_expired_to_valid"]),
        ],
    ]
    return lines + _table(["case", "wall s", "token requests per round (server)", "vs valid"], rows)


def _imports(data: dict[str, Any]) -> list[str]:
    walls = data["wall_s"]
    lines = [
        "## 6. Import time",
        "",
        f"Fresh interpreters, {data['runs']} runs each, interleaved, bytecode cached (as installed). "
        "`pass` is interpreter start-up alone; `from printmgmt import PrintClient` shows what lazy imports defer.",
        "",
    ]
    rows = [[f'`python -c "{statement}"`', _s(w, 0, 1e3)] for statement, w in walls.items()]
    rows += [
        ["`import printmgmt` / `import httpx, attrs`", _x(data["ratio_with_startup"])],
        ["the same without start-up", _x(data["ratio_imports_only"])],
        ["`from printmgmt import PrintClient` / `import httpx, attrs`", _x(data["client_ratio_with_startup"])],
        ["the same without start-up", _x(data["client_ratio_imports_only"])],
    ]
    lines += _table(["command", "wall ms"], rows)
    for title, key, packages in (
        ("`import printmgmt`", "importtime_top_self", "importtime_self_ms_by_package"),
        ("`from printmgmt import PrintClient`", "client_importtime_top_self", "client_importtime_self_ms_by_package"),
    ):
        by_package = ", ".join(f"{name} {ms:.0f} ms" for name, ms in data[packages].items())
        lines += [f"Top 10 modules by self import time under {title} ({data['importtime_note']}):", ""]
        lines += _table(["module", "self ms", "cumulative ms"], _import_rows(data[key]))
        lines += [f"Self time by top-level package: {by_package}.", ""]
    extra = ", ".join(f"{name} {ms:.0f} ms" for name, ms in data["not_in_baseline_self_ms_by_package"].items())
    lines += [
        f"Loaded by `from printmgmt import PrintClient` but not by `import httpx, attrs`: "
        f"{data['not_in_baseline_self_ms']:.0f} ms of self time; by package: {extra}. "
        "The top 10 of those (the candidates for lazy imports):",
        "",
    ]
    lines += _table(["module", "self ms", "cumulative ms"], _import_rows(data["not_in_baseline_top_self"]))
    lines += ["`printmgmt`'s direct submodules under `from printmgmt import PrintClient`, by cumulative time:", ""]
    lines += _table(["module", "self ms", "cumulative ms"], _import_rows(data["printmgmt_submodules_cumulative"]))
    return lines


def _import_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    return [[f"`{r['module']}`", f"{r['self_us'] / 1e3:.1f}", f"{r['cumulative_us'] / 1e3:.1f}"] for r in rows]


def _profile(data: dict[str, Any]) -> list[str]:
    lines = [
        "## Where the SDK's per-call CPU goes",
        "",
        f"cProfile of {data['calls']:,} sequential `client.jobs.get` calls on the canned server, and of as many "
        "raw httpx calls on the same transport; calls and µs are per call. The profiler inflates absolute "
        "figures; the shares and differences are what matter. The event loop's cumulative time includes its "
        "wait for the server (`select.epoll.poll`), which the package shares leave out.",
        "",
    ]
    header = ["function", "calls", "self µs", "cumulative µs"]
    p = data["sdk"]
    shares = ", ".join(f"{name} {share:.0%}" for name, share in list(p["self_time_by_package"].items())[:8])
    extra = p.get("extra_over_baseline", [])
    lines += [
        "**httpx default transport**: "
        f"{p['cpu_us_per_call_under_profiler']:.0f} µs/call under the profiler"
        + (f", raw httpx on the same transport {p['baseline_cpu_us_per_call_under_profiler']:.0f}" if extra else "")
        + f". Self time by package: {shares}.",
        "",
    ]
    if extra:
        rows = [
            [
                f"`{row['function']}`",
                _calls(row["calls"]),
                _calls(row["baseline_calls"]),
                f"{row['extra_self_us']:.1f}",
            ]
            for row in extra
        ]
        lines += [
            "What the SDK adds: the functions it calls more often than raw httpx on the same transport, by the "
            f"self time per call that adds. Functions raw httpx never calls: {p['only_in_sdk_self_us']:.0f} µs "
            "of self time per call in all.",
            "",
        ]
        lines += _table(["function", "calls (SDK)", "calls (raw)", "extra self µs"], rows)
    lines += ["Top 15 by cumulative time:", ""]
    lines += _table(header, _profile_rows(p["top_cumulative"]))
    lines += ["Top 15 by self time:", ""]
    lines += _table(header, _profile_rows(p["top_self"]))
    return lines


def _tracing(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 7. Tracing",
        "",
        f"`client.jobs.get(id)` on an in-memory transport, {data['calls']:,} calls per run, {data['runs']} runs, "
        "each setup in a fresh interpreter.",
        "",
    ]
    rows = [
        [name, _s(data["cpu_us_per_call"][name], 1), _x(data["ratio_to_absent"][name])]
        for name in data["cpu_us_per_call"]
    ]
    lines += _table(["OpenTelemetry", "CPU µs per call", "vs absent"], rows)
    return lines


def _simlist(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 8. Simulator lists",
        "",
        f"The simulator's answer (options read, jobs found and sorted, the page as JSON) over {data['jobs']:,} "
        f"seeded jobs, cold (no cached match list), {data['calls']} answers per round, {data['rounds']} rounds: "
        "MongoDB's rules (`printmgmt_sim.engine`) against the former SQLite path (`bench/sqlite_baseline.py`).",
        "",
    ]
    if "load_average_start" in data:
        lines += [
            f"Measured in a run of its own (git {data.get('git')}), load average {data['load_average_start']} "
            f"at start and {data['load_average_end']} at end: both sides share the load, so the ratios hold.",
            "",
        ]
    rows = [
        [
            name,
            _s(figures["engine"], 1),
            _s(figures["sqlite"], 1),
            _x(data["ratio_engine_to_sqlite"][name]),
        ]
        for name, figures in data["cpu_ms_per_answer"].items()
    ]
    lines += _table(["list", "engine CPU ms", "former SQLite CPU ms", "engine / SQLite"], rows)
    return lines


def _querycheck(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 9. Query check",
        "",
        f"`client.jobs.list(filter=<raw string>, top={data['page_jobs']})` on an in-memory transport answering "
        f"{data['page_jobs']} captured jobs ({data['page_bytes']:,} B), {data['calls']:,} calls per mode and run, "
        f"{data['runs']} runs, modes "
        "interleaved; filters cycled: " + ", ".join(f"`{text}`" for text in data["filters"]) + "; with a new "
        "quoted text each call: " + ", ".join(f"`{text}`" for text in data.get("worded_filters", [])) + ".",
        "",
    ]
    rows = [
        [label, _s(data["cpu_us_per_call"][label], 1), _x(data["ratio_to_off"][label])]
        for label in data["cpu_us_per_call"]
    ]
    lines += _table(["check_query", "CPU µs per call", "vs off"], rows)
    return lines


def _send(data: dict[str, Any]) -> list[str]:
    lines = [
        "## 10. `AsyncClient.send` on the SDK's path",
        "",
        "The SDK's own `httpx.AsyncClient` over a transport that answers at once from memory: a built request "
        "through `AsyncClient.send` (auth flow, cookies, event hooks) against the same request handed straight "
        f"to the transport, {data['calls_per_round']:,} calls per round, the two alternating.",
        "",
    ]
    rows = [[name, _s(summary, 1)] for name, summary in data["cpu_us_per_call"].items()]
    rows.append(["saved by skipping `AsyncClient.send`", _s(data["saved_us_per_call"], 1)])
    lines += _table(["path", "CPU µs per call"], rows)
    return lines


def _default_c16(results: dict[str, Any]) -> str:
    """The default transport's CPU per call and p99 against raw aiohttp's at c=16, in this run."""
    ratio = results["scenarios"]["percall"]["ratios"]["sdk/aiohttp"]["16"]
    cpu, p99 = ratio["cpu_us"]["median"], ratio["p99_ms"]["median"]
    return f"{cpu:.2f}x raw aiohttp's CPU per call and {p99:.2f}x its p99 at c=16"


def _provenance(results: dict[str, Any]) -> str:
    """Which run each scenario's figures come from (a ``--scenarios`` run keeps the others' figures)."""
    stamps = {name: datetime.fromisoformat(figures["measured_at"]) for name, figures in results["scenarios"].items()}
    last = max(stamps.values())
    in_last = [name for name, stamp in stamps.items() if (last - stamp).total_seconds() <= results["duration_s"]]
    if len(in_last) == len(stamps):
        return f"- **Every scenario comes from one run**, which ended {last:%Y-%m-%d %H:%M} UTC."
    earlier = ", ".join(f"{name} ({stamp:%Y-%m-%d %H:%M})" for name, stamp in stamps.items() if name not in in_last)
    return (
        f"- **Scenarios {', '.join(in_last)} come from the last run** (ended {last:%Y-%m-%d %H:%M} UTC); the "
        f"others keep the figures of earlier runs: {earlier}. Each scenario's ratios compare figures of one run."
    )


def _decisions(results: dict[str, Any]) -> list[str]:
    """What the figures decided, and what they did not (kept by hand here; the figures above are measured)."""
    return [
        "## Decisions",
        "",
        "- **Default transport: httpx's, over the SDK's own pool and HTTP/1.1 connections.** httpcore 1.0.9's "
        "pool hands one idle connection to several waiting requests; all but one retry "
        "(`ConnectionNotAvailable`), each retry rerunning its assignment pass and waiting a loop round, and it "
        "counts busy connections against `max_keepalive_connections` (rows `sdk_stock`: 12-16x raw aiohttp's "
        "CPU per call at c=16 and c=64). `printmgmt._pool` keeps `httpx.AsyncHTTPTransport` (so `httpx.Auth`, "
        "event hooks, `respx.mock()` in both modes and pytest-httpx see every call) and replaces only the pool "
        "under it. Its connections (`printmgmt._http11`) implement httpcore's public connection interface and "
        "read each answer as h11 reads it (h11 is their referee in `make test`), as the event loop delivers it, "
        "without anyio's locks, streams and cancel scopes: on httpcore's own "
        "connection, h11's parsing, anyio's locks and cancel scopes and the connection itself were about a "
        "third of the default path's self time at c=16 (h11 17%, httpcore 13%, anyio 4%). The SDK itself adds "
        "little over raw httpx on that transport (rows `httpx_pool`, the floor now); raw httpx on its stock "
        "pool is slower than the SDK.",
        "- **The connection reads answers itself, in Python, as h11 reads them: not llhttp, not httpcore's "
        "connection.** llhttp (httptools) cannot say where inside one arrival an answer ends and skips line ends "
        "after it, so bytes after a complete answer (a second, smuggled answer in the same packet) could not be "
        "kept out of the answer or off the next request through its callbacks. The connection's own reader is one "
        "state machine (`printmgmt._http11.Phase`) held to h11 by a generated differential test (over 20,000 "
        "answers split at random byte boundaries). It costs about 10 us more per exchange than the llhttp reader "
        f"(41 against 31 us, in-process) and keeps the targets: {_default_c16(results)}. The fallback the targets "
        "allowed, httpcore's own connection under the SDK's pool, was measured at about 4.5x raw aiohttp's CPU "
        "at c=16, and was not needed.",
        '- **The aiohttp transport (`transport="aiohttp"`) was removed: the default is faster than it.** '
        "Measured beside the default in the same rounds (run of 2026-11-28), it cost 3.16x raw aiohttp's CPU "
        "per call at c=16 against the default's 2.54x (3.54x against 2.73x at c=64), with no lower p99. It cost "
        "about 400 hand-written SDK lines, a second run of the simulator suite in `make test` and an extra, and "
        'the SDK was not released yet, so no user loses it; `transport="aiohttp"` now raises a '
        "`ConfigurationError` that points to the default. Raw aiohttp stays here as the floor.",
        "- **Lazy models for list pages.** `jobs.list()`/`iterate()` items are the generated "
        "model classes (a lazy subclass, `printmgmt._lazy`) over the decoded dicts: a field is decoded the first "
        "time it is read, nested models are lazy too, `to_dict()` is a copy of the wire value. Chosen from the "
        "measured options (architecture notes, section 3): it keeps the public model API (attribute "
        "access, `isinstance`, `to_dict`, reprs, `to_pandas`, mypy types), unknown fields and the tolerance "
        "rules (nulls and wrong types read as absent, the wire value kept), and costs 1.1x `orjson.loads` "
        "per page (scenario 4), about 1.5x when a listing reads three fields of every job. msgspec Structs "
        "were faster (0.75x) but drop unknown fields, and the msgspec-to-attrs hybrid falls back to the slow "
        "path on any unknown field, which real job documents carry (`TRAY_<n>`, per-page arrays). "
        "`tests/test_lazy_models.py` proves lazy and eager decoding give equal models for every model in the "
        "spec (hypothesis-generated documents with unknown fields, nulls and wrong types).",
        "- **Paging targets missed (scenario 3), and why they cannot be met here.** Prefetch overlaps the "
        "server's latency, not the client's CPU. At page size 1,000 decoding the JSON alone, with orjson and "
        "nothing else, takes about 17-22 ms per 1.4 MB page on this machine against about 23 ms of waiting "
        "(20 ms added latency), so even a client with no cost but `orjson.loads` could not overlap more than "
        "(17 + 23) / 17 = 2.35x; the SDK's whole CPU per page is now 20-40 ms with the machine's load (it was "
        "about 100 ms), and prefetch gives 1.7-2.3x. At "
        "page size 100 a page costs 5.5-7.5 ms of CPU (orjson 1.9 ms, the HTTP stack most of the rest) against "
        "about 25-29 ms sequential: measured 3.5-3.7x (runs differ with the machine's load), "
        "where 4 pages ahead would need at most 7 ms. What would meet them: a faster CPU or a longer latency "
        "(the gain grows with it), smaller pages "
        "(`page_size=100` already gives 3.5x), or fewer fields per job (`select=`).",
        "- **The SDK keeps httpx's client machinery (`AsyncClient.send`: the auth and redirect flows, event "
        "hooks), which users' `httpx.Auth`, event hooks and `respx` mocks rely on.** Skipping it saves only "
        "tens of microseconds per call on the SDK's path (scenario 10), and it would bypass the seam respx "
        "patches (`AsyncClient._transport_for_url`): not done. On the default transport the SDK stays within "
        "1.1x of raw httpx (scenario 1).",
        "- **Import time (scenario 6): at the target, within this machine's noise.** `from printmgmt import "
        "PrintClient` measured 1.08x and 1.11x `import httpx, attrs` in two runs of the scenario (the table shows "
        "the second), and 0.98-0.99x `import asyncio, httpx, attrs`. A namespace of the client (`client.jobs`...) "
        "loads its module, with the endpoint modules and models it sends, on its first use (bulk actions, pages "
        "and pagers with it), and asyncio with the first async call, not with `import printmgmt` (so the sync "
        "client never loads it; `tests/test_imports.py` checks both). What is left beyond the baseline is "
        "the SDK's own modules that every client needs (about 11 ms of self time here).",
        "- **Sync client: prefetch on threads.** Measured in scenario 3 (rows `sync`): fetching the "
        "next pages on threads makes the sync client as fast as the async one (about 3.8x at page size 100, "
        "2x at 1,000, over sequential), so `printmgmt.sync` prefetches on threads with the async client's "
        "default (`prefetch=4`) rather than not at all.",
        "- **Tracing (scenario 7).** With opentelemetry-api installed but no SDK configured, a call "
        "costs about 1% more than without OpenTelemetry (the check is one `isinstance` on the global provider; "
        "no span is started). Recording spans with the SDK costs about 40% of an in-memory call, which is "
        "small against a network round trip.",
        "- **Simulator lists on mongomock (scenario 8).** The simulator runs list queries with "
        "MongoDB's rules (mongomock's matcher, with `$where`, null bounds, array sorting and the driver's "
        "skip/limit done in `printmgmt_sim.engine`) over in-memory documents instead of SQL over their JSON "
        "text: cold answers take 0.5-0.75x the former path's CPU, and 1.3x for a filter through an array of "
        "documents (`any()`, mongomock's `$elemMatch` runs the matcher once per element). montydb was 8x "
        "slower than mongomock (simulator/README.md).",
        "- **The SDK's own work per call, cut.** A call's URL is parsed once (httpx parses the relative path "
        "and then the joined URL), a keyed read (`jobs.get`) decodes its model on access as list items do, and "
        "a read response drops httpx's stream-to-response reference cycle, so a call's objects are freed when "
        "it ends instead of by the garbage collector (which ran about once every 20 calls and took up to a "
        "tenth of the client's CPU).",
        "- **Kept:** orjson when installed (`printmgmt[fast]`), the first attempt outside the retry loop, "
        "no cookie-jar pass for answers without `Set-Cookie`, lazy imports, admission without a timer when "
        "a place is free: each measured here or in the profile below.",
        _provenance(results),
        "",
    ]


def render(results: dict[str, Any]) -> str:
    """The whole ``BENCHMARKS.md``."""
    scenarios = results["scenarios"]
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`.venv/bin/python -m bench`) from `bench/results.json`; do not edit by hand. "
        "Every ratio compares two figures measured in the same run, round by round; each figure is the median "
        "over the rounds, with the minimum and maximum in brackets. `python -m bench --quick` is a smoke run "
        "(written to `bench/quick/`); "
        "`--scenarios percall,paging,parsing,token,imports,tracing,simlist,querycheck,send,profile` "
        "picks scenarios; `--repeats N` sets the rounds.",
        "",
        *_environment(results["env"], results),
        *_targets(scenarios),
        *_decisions(results),
    ]
    sections = (
        ("percall", _percall),
        ("paging", _paging),
        ("parsing", _parsing),
        ("token", _token),
        ("imports", _imports),
        ("tracing", _tracing),
        ("simlist", _simlist),
        ("querycheck", _querycheck),
        ("send", _send),
        ("profile", _profile),
    )
    for name, section in sections:
        if name in scenarios:
            lines += section(scenarios[name])
    return "\n".join(lines).rstrip() + "\n"
