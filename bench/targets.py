# ruff: noqa: RUF001  # the report is Markdown for people: times signs and en dashes on purpose
"""The benchmark targets, judged from one run's results: met or missed, and why."""

from __future__ import annotations

from typing import Any, TypedDict

from .scenarios.parsing import SDK_LIST, SDK_LIST_READ

__all__ = ["Verdict", "judge"]


class Verdict(TypedDict):
    """One target: what it asks, what was measured, whether it holds (None: no target, figures only)."""

    scenario: str
    target: str
    measured: str
    met: bool | None
    reason: str


def _r(summary: dict[str, float], digits: int = 2) -> str:
    return f"{summary['median']:.{digits}f}× ({summary['min']:.{digits}f}–{summary['max']:.{digits}f})"


def _top_packages(results: dict[str, Any], kind: str, limit: int = 4) -> str:
    shares = results.get("profile", {}).get(kind, {}).get("self_time_by_package", {})
    return ", ".join(f"{name} {share:.0%}" for name, share in list(shares.items())[:limit]) or "not profiled"


def _percall(results: dict[str, Any]) -> list[Verdict]:
    percall = results.get("percall")
    if not percall:
        return []
    ratios, figures = percall["ratios"], percall["figures"]
    verdicts: list[Verdict] = []

    def per_concurrency(key: str, limit: float, only: int | None = None) -> tuple[str, bool, list[str]]:
        parts, failing = [], []
        for c, r in ratios.get(key, {}).items():
            if only is not None and int(c) != only:
                continue
            parts.append(f"c={c}: {_r(r['cpu_us'])}")
            if r["cpu_us"]["median"] > limit:
                failing.append(c)
        return "; ".join(parts), not failing, failing

    def cpu(kind: str, c: str) -> str:
        return f"{figures[kind][c]['cpu_us']['median']:.0f} µs"

    if "sdk/httpx" in ratios:
        measured, met, failing = per_concurrency("sdk/httpx", 1.1)
        reason = (
            "SDK CPU per call within 1.1× of raw httpx at every concurrency"
            if met
            else "; ".join(f"c={c}: SDK {cpu('sdk', c)} vs raw httpx {cpu('httpx', c)}" for c in failing)
            + f". SDK self time by package: {_top_packages(results, 'sdk')}"
        )
        verdicts.append(
            {
                "scenario": "1 per-call",
                "target": "default transport: SDK CPU/call ≤ 1.1× raw httpx",
                "measured": measured,
                "met": met,
                "reason": reason,
            }
        )
    if "sdk/httpx_pool" in ratios:
        measured, _, _ = per_concurrency("sdk/httpx_pool", float("inf"))
        verdicts.append(
            {
                "scenario": "1 per-call",
                "target": "report: SDK vs raw httpx on the same transport (the SDK's pool)",
                "measured": measured,
                "met": None,
                "reason": "no target; raw httpx on its stock pool is slower than the SDK, this is the floor now",
            }
        )
    verdicts += _default_against_aiohttp(ratios)
    return verdicts


#: The default path's limits against raw aiohttp, per concurrency: (CPU per call, p99 latency).
DEFAULT_VS_AIOHTTP = {"16": (3.0, 2.5), "64": (3.5, 4.0)}


def _default_against_aiohttp(ratios: dict[str, Any]) -> list[Verdict]:
    verdicts: list[Verdict] = []
    for c, (cpu_limit, p99_limit) in DEFAULT_VS_AIOHTTP.items():
        r = ratios.get("sdk/aiohttp", {}).get(c)
        if r is None or "p99_ms" not in r:
            continue
        met = r["cpu_us"]["median"] <= cpu_limit and r["p99_ms"]["median"] <= p99_limit
        stock = ratios.get("sdk_stock/aiohttp", {}).get(c)
        before = (
            f"; on httpx's stock pool: CPU {_r(stock['cpu_us'])}, p99 {_r(stock['p99_ms'])}"
            if stock and "p99_ms" in stock
            else ""
        )
        verdicts.append(
            {
                "scenario": "1 per-call",
                "target": f"default transport, c={c}: CPU/call ≤ {cpu_limit:g}×, p99 ≤ {p99_limit:g}× raw aiohttp",
                "measured": f"CPU {_r(r['cpu_us'])}; p99 {_r(r['p99_ms'])}",
                "met": met,
                "reason": ("both within" if met else "over the limit") + before,
            }
        )
    return verdicts


def _paging(results: dict[str, Any]) -> list[Verdict]:
    paging = results.get("paging")
    if not paging:
        return []
    verdicts: list[Verdict] = []
    speedups = paging["speedup_sequential_over_prefetch"]
    prefetch = paging["prefetch"]
    for size, limit in (("1000", 2.5), ("100", 4.0)):
        speedup = speedups.get(size)
        if speedup is None:
            continue
        sequential = paging["figures"][f"page_size={size} sequential"]
        pages = paging["total_jobs"] / int(size)
        cpu_ms = sequential["client_cpu_s"]["median"] / pages * 1e3
        # what a sequential page spends not computing: the server's delay, transfer, the event loop waiting
        wait_ms = (sequential["wall_s"]["median"] - sequential["client_cpu_s"]["median"]) / pages * 1e3
        # prefetch overlaps the waits (up to `prefetch` at once) but not the client's own CPU time
        ceiling = (wait_ms + cpu_ms) / max(cpu_ms, wait_ms / prefetch)
        met = speedup["median"] >= limit
        verdicts.append(
            {
                "scenario": "3 paging",
                "target": f"prefetch={prefetch} ≥ {limit:g}× faster than sequential, page size {int(size):,}",
                "measured": _r(speedup),
                "met": met,
                "reason": f"a sequential page takes {cpu_ms:.1f} ms of client CPU and {wait_ms:.1f} ms of waiting; "
                f"prefetch overlaps the waiting, not the CPU: ≈{ceiling:.1f}× is the ceiling at this CPU cost",
            }
        )
    if sync := paging.get("sync_speedup_sequential_over_prefetch"):
        verdicts.append(
            {
                "scenario": "3 paging",
                "target": "report: the sync client's prefetch on threads vs sequential",
                "measured": "; ".join(f"page size {int(size):,}: {_r(r)}" for size, r in sync.items()),
                "met": None,
                "reason": "what decides whether the sync client prefetches with threads or not at all",
            }
        )
    memory = paging["memory"]
    small, large = memory["totals"]
    parts, met_all = [], True
    for mode, data in memory["modes"].items():
        peaks = data["peaks"]
        parts.append(
            f"{mode}: {peaks[str(large)]['peak_bytes'] / 1e6:.1f} MB vs {peaks[str(small)]['peak_bytes'] / 1e6:.1f} MB "
            f"({data['ratio']:.2f}×)"
        )
        met_all = met_all and data["ratio"] <= 1.10
    verdicts.append(
        {
            "scenario": "3 paging",
            "target": f"peak memory of iterate() for {large:,} jobs within 10% of {small:,}",
            "measured": "; ".join(parts),
            "met": met_all,
            "reason": "peak is set by the pages held at once, not by the number of jobs"
            if met_all
            else "peak grows with the number of jobs",
        }
    )
    return verdicts


def _parsing(results: dict[str, Any]) -> list[Verdict]:
    parsing = results.get("parsing")
    if not parsing:
        return []
    ratios = parsing["ratio_to_orjson_loads"]
    sdk, read = ratios[SDK_LIST], ratios.get(SDK_LIST_READ)
    met = sdk["median"] <= 1.5
    reference = ratios["orjson.loads + JobCollection.from_dict"]
    return [
        {
            "scenario": "4 parsing",
            "target": "`jobs.list(top=1000)` client CPU ≤ 1.5× `orjson.loads` of the same page",
            "measured": _r(sdk),
            "met": met,
            "reason": "items decode field by field when read (printmgmt._lazy); "
            + (f"reading id, status and printer of every job: {_r(read)}; " if read else "")
            + f"the reference path (orjson + generated from_dict, every field at once): {_r(reference)}",
        }
    ]


def _token(results: dict[str, Any]) -> list[Verdict]:
    token = results.get("token")
    if not token:
        return []
    counts = token["token_requests_expired_server"]
    exact = all(n == 1 for n in counts)
    ratio = token["ratio_expired_to_valid"]
    return [
        {
            "scenario": "5 token",
            "target": f"{token['calls']:,} concurrent calls on an expired token: exactly one token request",
            "measured": f"token requests per round (identity provider): {counts}",
            "met": exact,
            "reason": "concurrent callers wait on one renewal" if exact else "more than one renewal in a round",
        },
        {
            "scenario": "5 token",
            "target": "wall time ≤ 2× the same calls on a valid token",
            "measured": _r(ratio),
            "met": ratio["median"] <= 2,
            "reason": f"one refresh grant before the burst; valid {token['valid_wall_s']['median']:.2f} s, "
            f"expired {token['expired_wall_s']['median']:.2f} s (the simulator bounds both)",
        },
    ]


def _imports(results: dict[str, Any]) -> list[Verdict]:
    imports = results.get("imports")
    if not imports:
        return []
    walls = imports["wall_s"]
    shares = imports["not_in_baseline_self_ms_by_package"]
    top = ", ".join(f"{name} {ms:.0f} ms" for name, ms in list(shares.items())[:5])
    client = imports["client_ratio_with_startup"]
    met = client["median"] <= 1.1
    with_asyncio = imports.get("client_ratio_to_asyncio_baseline")
    return [
        {
            "scenario": "6 import",
            "target": "`from printmgmt import PrintClient` ≤ 1.1× `import httpx, attrs`",
            "measured": f"{_r(client)} ({walls['from printmgmt import PrintClient']['median'] * 1e3:.0f} ms vs "
            f"{walls['import httpx, attrs']['median'] * 1e3:.0f} ms); "
            f"`import printmgmt` {_r(imports['ratio_with_startup'])}",
            "met": met,
            "reason": "what `from printmgmt import PrintClient` loads beyond `import httpx, attrs`, self time by "
            f"package: {top}"
            + (
                f". Against `import asyncio, httpx, attrs` (what any asyncio program has loaded): {_r(with_asyncio)}"
                if with_asyncio
                else ""
            ),
        }
    ]


def _tracing(results: dict[str, Any]) -> list[Verdict]:
    tracing = results.get("tracing")
    if not tracing:
        return []
    idle = tracing["ratio_to_absent"]["installed, no SDK configured"]
    recording = tracing["ratio_to_absent"]["SDK recording (in-memory exporter)"]
    return [
        {
            "scenario": "7 tracing",
            "target": "no measurable cost when OpenTelemetry is absent or not recording",
            "measured": f"installed, not configured: {_r(idle)} of absent; recording: {_r(recording)}",
            "met": idle["median"] <= 1.05,
            "reason": "while no SDK is configured no span is started (one isinstance check on the global provider); "
            "within 5% of the run without OpenTelemetry counts as not measurable on this machine",
        }
    ]


def _simlist(results: dict[str, Any]) -> list[Verdict]:
    simlist = results.get("simlist")
    if not simlist:
        return []
    ratios = simlist["ratio_engine_to_sqlite"]
    worst = max(ratios, key=lambda name: ratios[name]["median"])
    return [
        {
            "scenario": "8 simulator lists",
            "target": f"the simulator's answer to a filtered list of {simlist['jobs']:,} jobs ≤ 1.5× its former "
            "SQLite path",
            "measured": "; ".join(f"{name}: {_r(ratio)}" for name, ratio in ratios.items()),
            "met": ratios[worst]["median"] <= 1.5,
            "reason": f"slowest against its baseline: {worst} (MongoDB's rules in Python over the documents, "
            "against SQL over their JSON text)",
        }
    ]


def _querycheck(results: dict[str, Any]) -> list[Verdict]:
    checked = results.get("querycheck")
    if not checked:
        return []
    ratios = checked["ratio_to_off"]
    afresh = ratios["strict, a new string each call"]
    formless = ratios["strict, a new string each call, no form shared"]
    again = ratios["strict, the same string again"]
    worded = ratios.get("strict, a new quoted text each call")
    quoted = f"a new quoted text: {_r(worded)}; " if worded else ""
    return [
        {
            "scenario": "9 query check",
            "target": "reading a raw filter adds at most 5% to the client CPU of jobs.list",
            "measured": f"a new string each call: {_r(afresh)} of unchecked ({quoted}no form shared with an "
            f"earlier string: {_r(formless)}); the same string again: {_r(again)}",
            "met": afresh["median"] <= 1.05,
            "reason": "judged on a string read for the first time whose form (its literal shape) was read "
            "before, as a loop sends (one that differs from a string read before only in the nonzero digits of its "
            "numbers and the letters and digits of its plain quoted texts finds its shape by one lookup, others "
            "work it out); a filter of a new "
            "form is read in full once (printmgmt.server.read_option: the server's grammar in pure Python, the "
            "translation, members and groupings); a string read "
            "before costs one cache lookup",
        }
    ]


def judge(results: dict[str, Any]) -> list[Verdict]:
    """Every target with a verdict, in scenario order."""
    return [
        *_percall(results),
        *_paging(results),
        *_parsing(results),
        *_token(results),
        *_imports(results),
        *_tracing(results),
        *_simlist(results),
        *_querycheck(results),
    ]
