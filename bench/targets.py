# ruff: noqa: RUF001  # the report is Markdown for people: times signs and en dashes on purpose
"""Issue 5's targets, judged from one run's results: met or missed, and the measured reason."""

from __future__ import annotations

from typing import Any, TypedDict

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

    def per_concurrency(key: str, limit: float, only_from: int = 0, below: bool = False) -> tuple[str, bool, list[str]]:
        parts, failing = [], []
        for c, r in ratios.get(key, {}).items():
            if int(c) < only_from:
                continue
            median = r["cpu_us"]["median"]
            parts.append(f"c={c}: {_r(r['cpu_us'])}")
            if (median >= limit) if below else (median > limit):
                failing.append(c)
        return "; ".join(parts), not failing, failing

    if "sdk/httpx" in ratios:
        measured, met, failing = per_concurrency("sdk/httpx", 1.25)
        extra = [
            f"c={c}: SDK {figures['sdk'][c]['cpu_us']['median']:.0f} µs vs raw httpx "
            f"{figures['httpx'][c]['cpu_us']['median']:.0f} µs"
            for c in failing
        ]
        reason = (
            "SDK CPU per call within 1.25× of raw httpx at every concurrency"
            if met
            else "; ".join(extra) + f". SDK self time by package: {_top_packages(results, 'sdk')}"
        )
        verdicts.append(
            {
                "scenario": "1 per-call",
                "target": "SDK CPU/call ≤ 1.25× raw httpx",
                "measured": measured,
                "met": met,
                "reason": reason,
            }
        )
    if "sdk_aiohttp/httpx_aiohttp" in ratios:
        measured, met, failing = per_concurrency("sdk_aiohttp/httpx_aiohttp", 1.25)
        reason = (
            "within 1.25× of raw httpx on the same aiohttp transport"
            if met
            else f"over at c={', '.join(failing)}; SDK (aiohttp) self time by package: "
            + _top_packages(results, "sdk_aiohttp")
        )
        verdicts.append(
            {
                "scenario": "2 transport",
                "target": "SDK on aiohttp ≤ 1.25× raw httpx on the same transport (CPU/call)",
                "measured": measured,
                "met": met,
                "reason": reason,
            }
        )
    if "sdk_aiohttp/httpx" in ratios:
        measured, met, failing = per_concurrency("sdk_aiohttp/httpx", 1 / 3, only_from=16, below=True)
        reason = (
            "below a third of raw httpx on its default transport at c ≥ 16"
            if met
            else f"not below ⅓ at c={', '.join(failing)}"
        )
        verdicts.append(
            {
                "scenario": "2 transport",
                "target": "SDK on aiohttp < ⅓ raw httpx default transport, c ≥ 16 (CPU/call)",
                "measured": measured,
                "met": met,
                "reason": reason,
            }
        )
    if "sdk_aiohttp/aiohttp" in ratios:
        measured, _, _ = per_concurrency("sdk_aiohttp/aiohttp", float("inf"))
        verdicts.append(
            {
                "scenario": "2 transport",
                "target": "report: SDK on aiohttp vs raw aiohttp (the floor)",
                "measured": measured,
                "met": None,
                "reason": "no target; the distance to the floor is httpx's request/response model plus the SDK",
            }
        )
    return verdicts


def _paging(results: dict[str, Any]) -> list[Verdict]:
    paging = results.get("paging")
    if not paging:
        return []
    verdicts: list[Verdict] = []
    speedup = paging["speedup_sequential_over_prefetch"].get("1000")
    if speedup is None:
        verdicts.append(
            {
                "scenario": "3 paging",
                "target": "prefetch ≥ 4× faster than sequential, page size 1,000",
                "measured": "sequential only",
                "met": False,
                "reason": "jobs.iterate() has no prefetch= parameter in this build",
            }
        )
    else:
        sequential = paging["figures"]["page_size=1000 sequential"]
        pages = paging["total_jobs"] / 1000
        cpu_ms = sequential["client_cpu_s"]["median"] / pages * 1e3
        # what a sequential page spends not computing: the server's delay, transfer, the event loop waiting
        wait_ms = (sequential["wall_s"]["median"] - sequential["client_cpu_s"]["median"]) / pages * 1e3
        prefetch = paging["prefetch"]
        # prefetch can overlap the waits (up to `prefetch` at once) but not the client's own CPU time
        ceiling = (wait_ms + cpu_ms) / max(cpu_ms, wait_ms / prefetch)
        met = speedup["median"] >= 4
        reason = (
            f"a sequential 1,000-job page takes {cpu_ms:.0f} ms of client CPU and {wait_ms:.0f} ms of waiting; "
            f"prefetch overlaps the waiting but not the CPU, so ≈{ceiling:.1f}× is the ceiling at this CPU cost. "
            f"4× needs ≤ {wait_ms / 3:.0f} ms of client CPU per page (≈{wait_ms / 3:.0f} µs per job; now "
            f"{cpu_ms:.0f} µs, mostly parsing, see scenario 4). At page size 100, where waiting dominates, prefetch "
            f"gives {_r(paging['speedup_sequential_over_prefetch']['100'])}"
        )
        verdicts.append(
            {
                "scenario": "3 paging",
                "target": f"prefetch ≥ 4× faster than sequential, page size 1,000 (prefetch={prefetch})",
                "measured": _r(speedup),
                "met": met,
                "reason": reason,
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
    ratios = parsing["ratio_to_json_loads"]
    key = "json.loads + JobCollection.from_dict"
    sdk_key = "SDK jobs.list(top=1000) on an in-memory transport"
    shares = parsing["from_dict_profile"]["self_time_by_package"]
    return [
        {
            "scenario": "4 parsing",
            "target": "report: 1,000-job page to models vs json.loads alone",
            "measured": f"json + from_dict {_r(ratios[key])}; SDK list() {_r(ratios[sdk_key])}; "
            f"orjson {_r(ratios['orjson.loads'])}",
            "met": None,
            "reason": "no numeric target; from_dict self time by package: "
            + ", ".join(f"{name} {share:.0%}" for name, share in list(shares.items())[:4]),
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
    ratio = imports["ratio_with_startup"]
    walls = imports["wall_s"]
    top = ", ".join(f"{name} {ms:.0f} ms" for name, ms in list(imports["importtime_self_ms_by_package"].items())[:5])
    met = ratio["median"] <= 1.5
    client = imports["client_ratio_with_startup"]
    return [
        {
            "scenario": "6 import",
            "target": '`python -c "import printmgmt"` ≤ 1.5× `python -c "import httpx, attrs"`',
            "measured": f"{_r(ratio)} ({walls['import printmgmt']['median'] * 1e3:.0f} ms vs "
            f"{walls['import httpx, attrs']['median'] * 1e3:.0f} ms); "
            f"imports alone {_r(imports['ratio_imports_only'])}",
            "met": met,
            "reason": ("" if met else "over: ")
            + f"self time by package under `import printmgmt`: {top}. "
            + f"`from printmgmt import PrintClient` is {_r(client)} of the baseline "
            + f"({walls['from printmgmt import PrintClient']['median'] * 1e3:.0f} ms)",
        }
    ]


def judge(results: dict[str, Any]) -> list[Verdict]:
    """Every target with a verdict, in the issue's order."""
    return [*_percall(results), *_paging(results), *_parsing(results), *_token(results), *_imports(results)]
