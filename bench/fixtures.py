"""Canned bodies of realistic size, taken from the simulator once per bench run."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import httpx

__all__ = ["Fixtures", "capture"]

#: Jobs seeded for the capture: enough for one 1,000-job page of varied jobs.
_SEEDED_JOBS = 1000


@dataclass(frozen=True, slots=True)
class Fixtures:
    """Files holding one job body and one 1,000-job page body (``{"results": [...], "totalCount": n}``)."""

    job_file: Path
    page_file: Path
    job_id: str

    @property
    def job_bytes(self) -> int:
        return self.job_file.stat().st_size

    @property
    def page_bytes(self) -> int:
        return self.page_file.stat().st_size


def capture(directory: Path) -> Fixtures:
    """Start a simulator in this process (only to copy bodies; nothing is timed here) and save its answers."""
    from printmgmt_sim import Simulator  # the simulator's dependencies are needed only here

    with Simulator(jobs=_SEEDED_JOBS, speed=0) as sim:
        headers = {"Authorization": f"Bearer {sim.token()}"}
        with httpx.Client(base_url=sim.base_url, headers=headers, timeout=60) as http:
            page = http.get("/v3/jobs/", params={"$top": "1000", "$inlinecount": "allpages", "$orderby": "_id"})
            page.raise_for_status()
            # a job with the median body size, so that the per-call figures use a typical job
            results = sorted(page.json()["results"], key=lambda job: len(json.dumps(job)))
            job_id = results[len(results) // 2]["_id"]
            job = http.get(f"/v3/jobs/{job_id}")
            job.raise_for_status()
    directory.mkdir(parents=True, exist_ok=True)
    fixtures = Fixtures(directory / "job.json", directory / "page-1000.json", job_id)
    fixtures.job_file.write_bytes(job.content)
    fixtures.page_file.write_bytes(page.content)
    return fixtures
