"""examples/quickstart.ipynb runs top to bottom against the simulator, and its committed outputs are current.

The notebook is executed in memory by nbclient in a python3 kernel of this interpreter (the kernel spec
is ipykernel's own, so a ``python3`` kernel installed elsewhere on the machine is never picked up); the
file is never written. A kernel that does not start fails the test.

Refresh the committed outputs after changing the notebook (or what it shows)::

    .venv/bin/python tests/test_notebook.py
"""

from __future__ import annotations

import copy
import hashlib
import re
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from traitlets import default

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "quickstart.ipynb"
CELL_TIMEOUT = 60  # seconds per cell; the whole notebook takes a few seconds
PROBE = "import sys; print(sys.prefix)"


class ThisInterpreterKernel(AsyncKernelManager):
    """Kernels from ipykernel's built-in ``python3`` spec, ``[sys.executable, "-m", "ipykernel_launcher", ...]``,
    whatever other kernel specs the machine has."""

    @default("kernel_spec_manager")
    def _builtin_specs_only(self) -> KernelSpecManager:
        return KernelSpecManager(kernel_dirs=[])


def execute(nb: Any, *, probe: bool = False) -> Any:
    """Run every cell of ``nb`` in a fresh kernel of this interpreter, in ``examples/``; return ``nb``.

    With ``probe``, a last cell printing the kernel's ``sys.prefix`` is appended first.
    """
    if probe:
        nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        nb,
        kernel_name="python3",
        kernel_manager_class=ThisInterpreterKernel,  # the client owns the kernel: shut down when done
        timeout=CELL_TIMEOUT,
        startup_timeout=60,
        record_timing=False,
        store_widget_state=False,  # the bars leave text when they close: no widget needs its state saved
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # raises CellExecutionError on the first cell that fails
    return nb


def shown(stream: str) -> str:
    """A stream (or a progress bar's final text) as a front end shows it: a line rewritten with ``\\r`` shows its
    last state, without the timings that differ from run to run."""
    lines = [line.rsplit("\r", 1)[-1].rstrip(" ") for line in stream.split("\n")]
    return re.sub(r" \[\d\d:\d\d<[^\]]*\]", " [...]", "\n".join(lines))


def visible(nb: Any) -> list[list[str]]:
    """Per code cell, the text the reader sees: its stdout, its stderr (each as one text: the kernel cuts a
    stream into chunks by timing, and interleaves the two as it flushes them), then its plain-text results
    and errors; no images or HTML."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        streams = {"stdout": "", "stderr": ""}
        texts: list[str] = []
        for output in cell.outputs:
            if output.output_type == "stream":
                streams[output.name] += output.text
            elif output.output_type in ("execute_result", "display_data"):
                # figures show as "<Figure size 700x400 with 1 Axes>"; the PNG itself varies with fonts
                texts.append(shown(re.sub(r"at 0x[0-9a-f]+", "at 0x...", output.data.get("text/plain", ""))))
            else:
                texts.append(f"{output.output_type}: {output.get('ename')}: {output.get('evalue')}")
        cells.append([f"{name}: {shown(text)}" for name, text in streams.items() if text] + texts)
    return cells


@pytest.fixture(scope="module")
def executed() -> Any:
    """The notebook executed once in a fresh kernel (with the probe cell last)."""
    before = hashlib.sha256(NOTEBOOK.read_bytes()).hexdigest()
    nb = execute(nbformat.read(NOTEBOOK, as_version=4), probe=True)
    assert hashlib.sha256(NOTEBOOK.read_bytes()).hexdigest() == before, "executing must not write the notebook"
    return nb


def test_notebook_runs_top_to_bottom_and_matches_its_committed_outputs(executed: Any) -> None:
    committed = nbformat.read(NOTEBOOK, as_version=4)
    executed = copy.deepcopy(executed)
    probe = executed.cells.pop()
    assert probe.source == PROBE
    assert [o.text.strip() for o in probe.outputs] == [sys.prefix], "the kernel is not this interpreter's"

    assert visible(executed) == visible(committed), (
        "the committed outputs are stale: refresh them with .venv/bin/python tests/test_notebook.py"
    )


def test_committed_notebook_keeps_its_rendered_outputs() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1)), "run top to bottom once"
    outputs = [output for cell in code for output in cell.outputs]
    failing = [cell for cell in code if any(o.output_type == "error" for o in cell.outputs)]
    assert all("raises-exception" in cell.metadata.get("tags", []) for cell in failing), "only the error shown"
    assert len(failing) == 1
    pngs = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.data]
    assert len(pngs) >= 2, "the two plots are saved as PNG"
    assert any("text/html" in o.get("data", {}) for o in outputs), "a DataFrame is shown as a table"
    assert nb.metadata.kernelspec.name == "python3"


def test_the_rendered_notebook_shows_tables_progress_and_a_short_error(executed: Any) -> None:
    """What a reader of the HTML export sees (nbconvert, as GitHub and Jupyter render outputs)."""
    from nbconvert import HTMLExporter

    page, _ = HTMLExporter().from_notebook_node(executed)
    # a page of jobs, one job and a bulk result as compact tables, times as dates, raw documents a click away
    assert re.search(r"<div>Page: items 1\u20138 of \d+<table class=\"printmgmt\">", page)
    assert re.search(r"<th>checkin time \(UTC\)</th>.*?<td>\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ</td>", page, re.S)
    assert '<div><strong>Job</strong><table class="printmgmt">' in page
    assert "<details><summary>raw document</summary><pre>{" in page
    assert re.search(r"<div>BulkResult: \d+ done, \d+ refused, \d+ failed<table", page)
    # the DataFrame starts with the summary
    assert re.search(r"<th>id</th>\s*<th>status</th>\s*<th>current.printerName</th>", page)
    # progress displays: the bulk action's and the iteration's, complete, as text in the page itself (the
    # kernel has ipywidgets: the widgets' script would come from a CDN, which an offline reader never loads)
    plain = " ".join(re.findall(r'data-mime-type="text/plain"[^>]*>\s*<pre>(.*?)</pre>', page, re.S))
    assert re.search(r"resume: 100%.*?\| 12/12", plain, re.S)
    assert re.search(r"<td>refused</td><td>Job [^<]*not paused[^<]*</td>", page)
    assert re.search(r"items: 100%.*?\| (\d+)/\1", plain, re.S)
    # the transport error: the SDK's message first, the cause in one line, no wall of httpx frames
    error = next(o for cell in executed.cells for o in cell.get("outputs", []) if o.output_type == "error")
    traceback = "\n".join(error.traceback)
    assert error.traceback[0].startswith("printmgmt.errors.RequestNotSent: jobs.get: GET http://127.0.0.1:9/")
    assert "caused by httpx.ConnectError" in traceback and "httpcore" not in traceback
    assert len(error.traceback) < 15
    assert "RequestNotSent: jobs.get" in page
    # a time as a time, its wire value beside it; a refusal names the job by its id, the kind beside it
    assert re.search(r"checked in \w+day \d\d \w+ \d{4}, \d\d:\d\d UTC \(\d{13} on the wire\)", page)
    assert re.search(r"412 job [0-9a-f]{24} refused: ", page)


def full_job(number: int) -> dict[str, Any]:
    """A job as the server sends it, with long names and a few stages."""
    stage = {
        "fileName": "0b6f5c1e-6f0e-4d6a-9a8e-3f1f3c2b1a00",
        "mimeType": "application/pdf",
        "createdAt": 1608280547460,
    }
    attributes = {"userName": "tol", "jobName": f"Quarterly report {number} " + "x" * 300, "printerName": "PRT-MUC-01"}
    return {
        "_id": f"{number:024x}",
        "status": "Processed",
        "fileName": ["0b6f5c1e-6f0e-4d6a-9a8e-3f1f3c2b1a00"] * 3,
        "orig": {**attributes, "checkinTime": 1608280547459, "copies": 1},
        "current": {**attributes, "checkinTime": 1608280547459 + number, "copies": 1, "TRAY_1": "A4" * 50},
        "stages": [stage] * 8,
    }


@pytest.mark.parametrize("size", [500, 5000])
def test_a_page_view_stays_small_at_any_size(size: int) -> None:
    from printmgmt import Page
    from printmgmt.models import Job

    page = Page(items=[Job.from_dict(full_job(number)) for number in range(size)], total=size * 3, top=size)
    view = page._repr_html_()
    assert len(view.encode()) < 100_000
    assert f"\u2026 {size - 50} more rows" in view and f"raw documents (3 of {size}" in view
    assert view.count("<tr>") == 1 + 50 + 1


def test_a_page_of_a_few_items_shows_every_raw_document() -> None:
    from printmgmt import Page
    from printmgmt.models import Job

    page = Page(items=[Job.from_dict(full_job(number)) for number in range(3)])
    view = page._repr_html_()
    assert "raw documents (3)</summary>" in view and "more rows" not in view
    assert all(f"&quot;_id&quot;: &quot;{number:024x}&quot;" in view for number in range(3))


if __name__ == "__main__":
    notebook = execute(nbformat.read(NOTEBOOK, as_version=4))
    nbformat.write(notebook, NOTEBOOK)
    print(f"executed and wrote {NOTEBOOK}")
