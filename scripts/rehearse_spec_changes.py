"""Rehearse the three kinds of spec change ``docs/maintaining.md`` describes, each in a copy of the repository,
and check that the files its table names are the only ones that need a hand edit.

- new field (``priority`` on a job's attributes): ``openapi.yaml`` only. After ``make generate`` the simulator
  serves the field in every job and lists it in its column catalogue, the SDK types it, and every other seeded
  value is what the unchanged repository serves (the notebook's committed outputs still match).
- new read (``GET /v3/printers/{printerName}/statistics``): ``openapi.yaml``, the facade method and the twin's
  handler. After ``make generate`` and ``make generate-sync`` the tests that call every operation pass.
- changed body (``move`` takes ``{printerName, position}``): ``openapi.yaml``, the facade and the call sites.
  The twin refuses the old body, its body test fails until the twin honours the new field or declares it
  ignored, and one type-check run lists the stale call sites.

Tools may write ``generated/``, the sync twins and the README's operations table; any other file that changes
is a hand edit, and only the expected ones may change. Each copy is checked with targeted tests, not
``make test``. ``make rehearsal`` runs it (part of ``make test``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Written by make generate / make generate-sync, never by hand.
TOOL_WRITTEN = ("generated/", "overlay/printmgmt/_sync/", "simulator/tests/_sync/")
TABLE = re.compile(r"<!-- operations table:.*?<!-- end of operations table -->", re.S)
#: Where the packages live (the copy's, not the installed ones, are imported from there).
PACKAGES = ("generated", "overlay", "simulator", "cli")
SKIPPED = {".venv", "node_modules", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}

#: Seeded documents and the job columns, as the simulator serves them over HTTP.
SERVED = """
import json, httpx
from printmgmt_sim import Simulator
with Simulator(jobs=300, printers=12, seed=3, speed=0) as sim:
    headers = {"Authorization": f"Bearer {sim.token()}"}
    def get(path, **params):
        return httpx.get(sim.base_url + path, params=params, headers=headers, timeout=30).json()
    jobs = get("/v3/jobs/", **{"$top": 1000, "$orderby": "_id"})
    printers = get("/v3/printers/", **{"$top": 1000, "$orderby": "_id"})
    columns = [field["name"] for field in get("/v3/jobs/metadata")["fields"]]
print(json.dumps({"jobs": jobs, "printers": printers, "columns": columns}))
"""


class Copy:
    """A copy of the repository's files (the development environment linked, not copied)."""

    def __init__(self, base: Path, name: str) -> None:
        self.root = base / name
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout.decode()
        for rel in filter(None, listed.split("\0")):
            if (ROOT / rel).is_file():
                (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / rel, self.root / rel)
        (self.root / ".venv").symlink_to(ROOT / ".venv")
        self.before = self.fingerprint()
        self.by_hand: set[str] = set()
        paths = os.pathsep.join(str(self.root / part) for part in PACKAGES)
        self.env = {**os.environ, "PYTHONPATH": paths, "PYTHONDONTWRITEBYTECODE": "1"}

    def fingerprint(self) -> dict[str, str]:
        found = {}
        for path in self.root.rglob("*"):
            rel = path.relative_to(self.root)
            if path.is_file() and not SKIPPED.intersection(rel.parts):
                found[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
        return found

    def edit(self, rel: str, old: str, new: str) -> None:
        """A hand edit: replace the one occurrence of ``old`` in ``rel``."""
        path = self.root / rel
        text = path.read_text()
        assert text.count(old) == 1, f"{rel}: expected one {old!r}"
        path.write_text(text.replace(old, new))
        self.by_hand.add(rel)

    def run(self, *command: str, expect_failure: bool = False) -> str:
        result = subprocess.run(command, cwd=self.root, env=self.env, capture_output=True, text=True)
        output = result.stdout + result.stderr
        if (result.returncode != 0) != expect_failure:
            raise SystemExit(f"{self.root.name}: {' '.join(command)} exited {result.returncode}\n{output[-4000:]}")
        return output

    def make(self, *targets: str) -> None:
        self.run("make", "--no-print-directory", "-o", ".venv/.installed", *targets)

    def python(self, code: str) -> str:
        return self.run(str(self.root / ".venv/bin/python"), "-c", code)

    def pytest(self, *args: str, expect_failure: bool = False) -> str:
        return self.run(str(self.root / ".venv/bin/pytest"), "-q", "-p", "no:cacheprovider", *args,
                        expect_failure=expect_failure)  # fmt: skip

    def edited(self) -> set[str]:
        """The files that changed other than by the tools (the README's operations table is the tools')."""
        after = self.fingerprint()
        changed = {rel for rel in self.before.keys() | after.keys() if self.before.get(rel) != after.get(rel)}
        changed = {rel for rel in changed if not rel.startswith(TOOL_WRITTEN)}
        if "README.md" in changed:
            old, new = (TABLE.sub("", text) for text in ((ROOT / "README.md").read_text(), self.read("README.md")))
            if old == new:
                changed.discard("README.md")
        return changed

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text()


def new_field(copy: Copy) -> list[str]:
    copy.edit(
        "openapi.yaml",
        "        copies: {type: integer}\n",
        "        copies: {type: integer}\n        priority: {type: integer, minimum: 1, maximum: 9}\n",
    )
    copy.make("generate")
    unchanged = {**copy.env, "PYTHONPATH": os.pathsep.join(str(ROOT / part) for part in PACKAGES)}
    before = json.loads(subprocess.run([sys.executable, "-c", SERVED], cwd=ROOT, env=unchanged, check=True,
                                       capture_output=True, text=True).stdout)  # fmt: skip
    after = json.loads(copy.python(SERVED))
    for job in after["jobs"]:
        for part in ("orig", "current", "lcCurrent"):
            assert 1 <= job[part].pop("priority") <= 9, f"job {job['_id']}: no {part}.priority"
    assert after["jobs"] == before["jobs"], "a new field changed other seeded job values"
    assert after["printers"] == before["printers"], "a new job field changed seeded printers"
    assert {"orig/priority", "current/priority"} <= set(after["columns"]), "the column catalogue lacks the field"
    assert [name for name in after["columns"] if not name.endswith("/priority")] == before["columns"]
    typed = copy.python(
        "from printmgmt.models import Job, JobAttributes\n"
        "job = Job.from_dict({'_id': 'j', 'current': {'priority': 4}})\n"
        "assert isinstance(job.current, JobAttributes) and job.current.priority == 4\n"
        "from printmgmt import odata\nprint(odata.jobs.current.priority >= 5)"
    )
    # the notebook's committed outputs still match: the seeded values it shows are unchanged
    copy.pytest(
        "tests/test_models_export.py",
        "tests/test_operations_table.py",
        "tests/test_notebook.py",
        "simulator/tests/test_sim_bodies.py",
    )
    return [
        f"{len(after['jobs'])} jobs serve current.priority, every other value unchanged; {typed.strip()}; "
        "the notebook's committed outputs still match"
    ]


def new_read(copy: Copy) -> list[str]:
    copy.edit(
        "openapi.yaml",
        "  /v3/printers/{printerName}/createTestJob:\n",
        """  /v3/printers/{printerName}/statistics:
    parameters:
      - $ref: '#/components/parameters/PrinterName'
    get:
      operationId: getPrinterStatistics
      x-printmgmt: {name: printers.statistics, repeat: safe, target: printer}
      tags: [printers]
      summary: Counters of one printer.
      security: [{oauth2: []}, {bearerAuth: []}]
      responses:
        '200':
          description: Counters.
          content: {application/json: {schema: {$ref: '#/components/schemas/PrinterStatistics'}}}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '403': {$ref: '#/components/responses/Forbidden'}
        '404': {$ref: '#/components/responses/NotFound'}
        '500': {$ref: '#/components/responses/ServerError'}

  /v3/printers/{printerName}/createTestJob:
""",
    )
    copy.edit(
        "openapi.yaml",
        "    PrinterArray:\n",
        """    PrinterStatistics:
      type: object
      description: Counters of one printer.
      properties:
        printed: {type: integer}
        queued: {type: integer}
      additionalProperties: true

    PrinterArray:
""",
    )
    facade = "overlay/printmgmt/_async/resources/printers.py"
    copy.edit(facade, "    get_printer_logs,\n", "    get_printer_logs,\n    get_printer_statistics,\n")
    copy.edit(facade, "    PrinterRuntime,\n", "    PrinterRuntime,\n    PrinterStatistics,\n")
    copy.edit(
        facade,
        "    async def set_message(",
        '''    async def statistics(self, name: str, **options: Unpack[CallOptions]) -> PrinterStatistics:
        """The printer's counters."""
        return await self._read(get_printer_statistics.request, name, options)

    async def set_message(''',
    )
    copy.edit(
        "simulator/printmgmt_sim/api.py",
        '@operation("setPrinterMessage", P)',
        """@operation("getPrinterStatistics", R)
def printer_statistics(call: Call) -> Result:
    return {"printed": 0, "queued": call.doc.get("runtime", {}).get("queuedJobs", 0)}


@operation("setPrinterMessage", P)""",
    )
    copy.make("generate", "generate-sync")
    copy.pytest(
        "tests/test_coverage.py",
        "tests/test_operations_table.py",
        "tests/test_models_export.py",
        "tests/test_sync_surface.py",
        "simulator/tests/_async/test_sim_variants.py",
        "-k",
        "every_operation or default or table or export or surface",
    )
    assert "`statistics(name)`" in copy.read("README.md")
    return ["printers.statistics: called by the facade table's tests, served by the twin, in the README's table"]


def changed_body(copy: Copy) -> list[str]:
    copy.edit(
        "openapi.yaml",
        "      description: Inferred - the target printer of a job move.\n"
        "      required: [printerName]\n"
        "      properties:\n"
        "        printerName: {type: string, minLength: 1}\n",
        "      description: Inferred - the target printer of a job move.\n"
        "      required: [printerName, position]\n"
        "      properties:\n"
        "        printerName: {type: string, minLength: 1}\n"
        "        position: {type: integer, minimum: 0}\n",
    )
    facade = "overlay/printmgmt/_async/resources/jobs.py"
    copy.edit(
        facade,
        "async def move(self, id: str, *, printer: str, **options",
        "async def move(self, id: str, *, printer: str, position: int, **options",
    )
    copy.edit(facade, 'path_segment(printer, "printer"))', 'path_segment(printer, "printer"), position=position)')
    copy.make("generate", "generate-sync")
    refused = copy.python(
        "import httpx\nfrom printmgmt_sim import Simulator\n"
        "with Simulator(jobs=30, printers=4, speed=0) as sim:\n"
        "    h = {'Authorization': f'Bearer {sim.token()}'}\n"
        "    job = httpx.get(sim.base_url + '/v3/jobs/', params={'$top': 1}, headers=h).json()[0]['_id']\n"
        "    answer = httpx.put(f'{sim.base_url}/v3/jobs/{job}/move', json={'printerName': 'printer1'}, headers=h)\n"
        "print(answer.status_code, answer.json()['message'])"
    )
    assert refused.startswith("412 ") and "'position'" in refused, refused
    dropped = copy.pytest("simulator/tests/test_sim_bodies.py", expect_failure=True)
    assert "moveJob neither honours nor declares ignored the body fields ['position']" in dropped
    copy.edit(
        "simulator/printmgmt_sim/api.py",
        '@operation("moveJob", J, rejects_body_with=412)',
        '@operation("moveJob", J, rejects_body_with=412, ignores=frozenset({"position"}))',
    )
    copy.pytest("simulator/tests/test_sim_bodies.py")
    started = time.monotonic()
    # the copy's packages, not the installed ones; test bodies checked even where a test is not annotated
    copy.env["MYPYPATH"] = copy.env["PYTHONPATH"]
    mypy = str(copy.root / ".venv/bin/mypy")
    checked = copy.run(
        mypy, "--check-untyped-defs", "--exclude", r"(^|/)conftest\.py$", "overlay", "tests", "simulator/tests",
        expect_failure=True,
    )  # fmt: skip
    sites = sorted({line.split(": error")[0] for line in checked.splitlines() if 'argument "position"' in line})
    assert sites, f"the type check listed no stale call site:\n{checked[-3000:]}"
    files = sorted({site.split(":")[0] for site in sites})
    return [
        f"the twin refuses the old body ({refused.strip()})",
        f"its body test fails until the twin honours or ignores 'position'; one mypy run "
        f"({time.monotonic() - started:.0f} s) lists {len(sites)} stale call sites in {len(files)} files: "
        + ", ".join(files),
    ]


#: (kind of change, the rehearsal, the files a maintainer edits by hand)
CHANGES: list[tuple[str, Callable[[Copy], list[str]], set[str]]] = [
    ("new field", new_field, {"openapi.yaml"}),
    (
        "new read",
        new_read,
        {"openapi.yaml", "overlay/printmgmt/_async/resources/printers.py", "simulator/printmgmt_sim/api.py"},
    ),
    (
        "changed body",
        changed_body,
        {"openapi.yaml", "overlay/printmgmt/_async/resources/jobs.py", "simulator/printmgmt_sim/api.py"},
    ),
]


def main() -> int:
    failed = False
    with tempfile.TemporaryDirectory(prefix="printmgmt-rehearsal-") as base:
        for kind, rehearse, expected in CHANGES:
            started = time.monotonic()
            copy = Copy(Path(base), kind.replace(" ", "-"))
            notes = rehearse(copy)
            edited = copy.edited()
            seconds = time.monotonic() - started
            print(f"{kind}: hand-edited {sorted(edited)} ({seconds:.0f} s)")
            for note in notes:
                print(f"  {note}")
            if edited != expected or copy.by_hand != expected:
                print(f"  expected exactly {sorted(expected)}", file=sys.stderr)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
