"""The real server's query reader (``breeze_referee.cjs`` on Node) and our reader, in one comparable form.

:class:`BreezeReferee` keeps one ``node`` process for the whole session and answers batches of query
options; :func:`ours` encodes what ``printmgmt.querylang.read_query`` makes of the same options in the
referee's JSON form (RegExp, ObjectID, undefined, Date and NaN as markers), with documents as ordered pairs
so that key order counts.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

import pytest
from referee_servers import NODE_MODULES, node, require

from printmgmt.querylang import UNDEFINED, JsDate, ObjectId, QueryRefused, Regex, misreadings, read_query
from printmgmt.querylang._mongo import document_paths
from printmgmt.querylang._quick import common_filter

SCRIPT = Path(__file__).resolve().with_name("breeze_referee.cjs")
#: option sets compared per referee zone in this session (the summary line prints it)
CORPUS: Counter[str] = Counter()
#: filters of those that the quick reading (``common_filter``) read, per zone
QUICK: Counter[str] = Counter()
Options = Mapping[str, str | Sequence[str]]
#: how long one batch may take before the referee counts as hung (seconds)
BATCH_DEADLINE = 60.0


@dataclass
class BreezeReferee:
    """A running ``breeze_referee.cjs``; ``checked`` counts the options compared through it."""

    process: subprocess.Popen[str]
    zone: str
    checked: int = 0
    quick: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answers(self, batch: Sequence[Options]) -> list[Any]:
        """The referee's answers, one per options object (written by a thread so no pipe fills up)."""
        lines = [json.dumps(dict(options)) + "\n" for options in batch]
        assert self.process.stdin is not None and self.process.stdout is not None
        with self.lock:
            writer = threading.Thread(target=self._write, args=(lines,), daemon=True)
            writer.start()
            out = [self.process.stdout.readline() for _ in lines]
            writer.join(BATCH_DEADLINE)
        if any(not line for line in out):
            raise RuntimeError(f"the breeze referee stopped answering (exit code {self.process.poll()})")
        answers = [json.loads(line) for line in out]
        broken = [a["error"] for a in answers if "error" in a]
        if broken:
            raise RuntimeError(f"the breeze referee failed: {broken[0]}")
        return answers

    def _write(self, lines: list[str]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(lines))
        self.process.stdin.flush()

    def stop(self) -> None:
        """Close stdin (the referee ends) and wait; kill by PID if it does not."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        assert self.process.stdout is not None
        self.process.stdout.close()


#: the versions the real server's middleware pins (its lock file); package.json pins the same
PINNED = {"breeze-mongodb": "0.0.8", "breeze-odataparser": "0.0.1", "mongodb": "3.6.6"}


def start_referee(zone: str = "UTC") -> BreezeReferee:
    """Start the referee with the process's local time zone ``zone`` (``TZ``)."""
    for package, version in PINNED.items():
        manifest = require(NODE_MODULES / package / "package.json", package)
        installed = json.loads(manifest.read_text())["version"]
        if installed != version:
            pytest.fail(f"{package} {installed} is installed, the referee needs {version}: run `npm ci`", pytrace=False)
    env = {**os.environ, "TZ": zone}
    process = subprocess.Popen(
        [node(), str(SCRIPT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
    )
    return BreezeReferee(process, zone)


def js_iso(epoch_ms: int) -> str:
    """``Date.prototype.toISOString`` (years outside 0-9999 as ±YYYYYY)."""
    # shift by whole 400-year cycles (146097 days) into the span datetime holds; the calendar repeats
    cycles = 0
    day_ms = 86_400_000
    while epoch_ms < -62135596800000 + 366 * day_ms:
        epoch_ms += 146097 * day_ms
        cycles -= 1
    while epoch_ms >= 253402300799000 - 366 * day_ms:
        epoch_ms -= 146097 * day_ms
        cycles += 1
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=epoch_ms)
    year = moment.year + 400 * cycles
    year_text = f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"
    return f"{year_text}-{moment:%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def encode(value: Any) -> Any:
    """A query value in the referee's JSON form."""
    if value is UNDEFINED:
        return {"$undefined": True}
    if isinstance(value, ObjectId):
        return {"$oid": value.hex}
    if isinstance(value, Regex):
        return {"$regex": {"source": value.source, "flags": value.flags}}
    if isinstance(value, JsDate):
        return {"$date": None if value.epoch_ms is None else js_iso(value.epoch_ms)}
    if isinstance(value, float) and not math.isfinite(value):
        return {"$number": "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")}
    if isinstance(value, dict):
        return {key: encode(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    return value


def ordered(value: Any) -> Any:
    """Documents as lists of (key, value) pairs (equality then also compares key order), numbers as the
    doubles JavaScript has (JSON.stringify writes 2**60 as 1152921504606847000)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, dict):
        return [("{}", key, ordered(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [ordered(item) for item in value]
    return value


def ours(options: Options, tz: tzinfo = UTC) -> Any:
    """What our reader makes of ``options``, in the referee's form (``{"refused": reason}`` when refused)."""
    try:
        query = read_query(options, tz=tz)
    except QueryRefused as refused:
        return {"refused": str(refused)}
    return {
        "filter": encode(query.filter),
        "sort": None if query.sort is None else [list(item) for item in query.sort],
        "skip": encode(query.skip),
        "limit": encode(query.limit),
        "select": encode(query.projection),
        "inlineCount": query.count,
    }


@contextmanager
def deep_documents() -> Iterator[None]:
    """Room for the nesting of long chains (a $or of 400 ids is 800 levels) while comparing documents."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def differences(referee: BreezeReferee, batch: Sequence[Options], tz: tzinfo = UTC) -> list[str]:
    """Every options object on which the two readers differ (decision or result), described."""
    with deep_documents():
        return _differences(referee, batch, tz)


def _differences(referee: BreezeReferee, batch: Sequence[Options], tz: tzinfo) -> list[str]:
    theirs = referee.answers(batch)
    referee.checked += len(batch)
    out = []
    for options, answer in zip(batch, theirs, strict=True):
        mine = ours(options, tz)
        if ("refused" in mine) != ("refused" in answer):
            out.append(f"{dict(options)!r}: breeze {answer}, ours {mine}")
        elif "refused" not in mine and ordered(json.loads(json.dumps(mine))) != ordered(answer):
            out.append(f"{dict(options)!r}: breeze {json.dumps(answer)}, ours {json.dumps(mine)}")
        out += _quick_difference(referee, options, answer)
    return out


#: the referee's markers for values JSON has no form for (see :func:`encode`)
MARKERS = frozenset({"$undefined", "$oid", "$regex", "$date", "$number"})


def _unmarked(value: Any) -> Any:
    """A referee's document with each marked value (a RegExp, an ObjectID...) as a plain value."""
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in MARKERS:
            return None
        return {key: _unmarked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unmarked(item) for item in value]
    return value


def _quick_difference(referee: BreezeReferee, options: Options, answer: Any) -> list[str]:
    """Where the quick reading of a filter claims to know the answer: breeze accepts the filter, the paths of
    breeze's query document are the quick ones, and where it says and/or/not never meet, the server reads the
    filter as OData does."""
    text = options.get("$filter")
    if set(options) != {"$filter"} or not isinstance(text, str) or not text:
        return []
    common = common_filter(text)
    if common is None:
        return []
    quick = common.paths
    referee.quick += 1
    if "refused" in answer:
        return [f"{text!r}: breeze refused ({answer['refused']}), the quick reading accepted it"]
    paths = document_paths(_unmarked(answer["filter"]))
    if paths != quick:
        return [f"{text!r}: breeze's document has the paths {list(paths)}, the quick reading {list(quick)}"]
    if not common.mixed and misreadings(text):
        return [f"{text!r}: the quick reading says and/or/not never meet, but the server reads it otherwise"]
    return []
