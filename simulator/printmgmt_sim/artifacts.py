"""A job's files as the API hands them out: its log file, per-page data and support bundle (all inferred).

- ``logfile``: the job's log entries as text lines ``<ISO time> [<level>] <service>: <message>``.
- ``pageinfo``: ``{pages: [{page, PAGESIZE, ORIENTATION, COLOR_MODEL}]}`` for ``pagesFromFileContent``
  pages, derived from the job id (the same job always answers the same).
- ``collect``: a ZIP with ``job.json``, ``job.log`` and a placeholder per stored stage file; the bytes
  depend only on the job and its log.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Final

from .model import Doc

__all__ = ["collect", "logfile", "pageinfo"]

_PAGE_SIZES: Final = ("595 842", "595 842", "595 842", "612 792", "842 1191")
_ZIP_TIME: Final = (2025, 1, 1, 0, 0, 0)
#: Most pages described by ``pageinfo`` (a page count is a document field and can be anything).
_MAX_PAGES: Final = 1000


def logfile(entries: Iterable[Doc]) -> str:
    lines = []
    for entry in entries:
        time = entry.get("time")
        stamp = (
            datetime.fromtimestamp(time / 1000, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            if isinstance(time, int | float)
            else "-"
        )
        service = entry.get("service", "seal-rest")
        lines.append(f"{stamp} [{entry.get('level', 'info')}] {service}: {entry.get('message', '')}\n")
    return "".join(lines)


def pageinfo(job: Doc) -> Doc:
    count = job.get("current", {}).get("pagesFromFileContent", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        count = 1
    digest = hashlib.sha256(str(job.get("_id", "")).encode()).digest()
    color = "COLOR" if digest[0] % 3 == 0 else "GRAY"
    pages = []
    for page in range(1, min(count, _MAX_PAGES) + 1):
        byte = digest[page % len(digest)]
        size = _PAGE_SIZES[byte % len(_PAGE_SIZES)]
        landscape = byte % 7 == 0
        if landscape:
            size = " ".join(reversed(size.split()))
        pages.append(
            {
                "page": page,
                "PAGESIZE": size,
                "ORIENTATION": "Landscape" if landscape else "Portrait",
                "COLOR_MODEL": color,
            }
        )
    return {"pages": pages}


def collect(job: Doc, entries: Iterable[Doc]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as bundle:

        def add(name: str, data: str) -> None:
            bundle.writestr(zipfile.ZipInfo(name, date_time=_ZIP_TIME), data)

        add("job.json", json.dumps(job, indent=2, ensure_ascii=False))
        add("job.log", logfile(entries))
        for stage in job.get("stages", []):
            if isinstance(stage, dict) and isinstance(stage.get("fileName"), str):
                add(
                    f"files/{stage['fileName']}",
                    f"simulated content of {stage['fileName']} ({stage.get('mimeType', 'unknown')},"
                    f" created by {stage.get('createdBy', 'unknown')})\n",
                )
    return buffer.getvalue()
