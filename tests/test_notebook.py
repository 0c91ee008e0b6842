"""examples/quickstart.ipynb runs top to bottom against the simulator, and its committed outputs are current.

The notebook is executed in memory by nbclient in a python3 kernel of this interpreter (the kernel spec
is ipykernel's own, so a ``python3`` kernel installed elsewhere on the machine is never picked up); the
file is never written. A kernel that does not start fails the test.

Refresh the committed outputs after changing the notebook (or what it shows)::

    .venv/bin/python tests/test_notebook.py
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from typing import Any

import nbformat
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
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # raises CellExecutionError on the first cell that fails
    return nb


def visible(nb: Any) -> list[list[str]]:
    """Per code cell, the text the reader sees (streams and plain-text results); no images or HTML.

    Consecutive chunks of one stream are one text: the kernel cuts a stream into chunks by timing.
    """
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        texts: list[str] = []
        stream: str | None = None  # the stream the last output belonged to
        for output in cell.outputs:
            if output.output_type == "stream":
                if output.name == stream:
                    texts[-1] += output.text
                else:
                    texts.append(f"{output.name}: {output.text}")
                stream = output.name
                continue
            stream = None
            if output.output_type in ("execute_result", "display_data"):
                # figures show as "<Figure size 700x400 with 1 Axes>"; the PNG itself varies with fonts
                texts.append(re.sub(r"at 0x[0-9a-f]+", "at 0x...", output.data.get("text/plain", "")))
            else:
                texts.append(f"{output.output_type}: {output.get('ename')}: {output.get('evalue')}")
        cells.append(texts)
    return cells


def test_notebook_runs_top_to_bottom_and_matches_its_committed_outputs() -> None:
    before = hashlib.sha256(NOTEBOOK.read_bytes()).hexdigest()
    committed = nbformat.read(NOTEBOOK, as_version=4)
    executed = execute(nbformat.read(NOTEBOOK, as_version=4), probe=True)

    probe = executed.cells.pop()
    assert probe.source == PROBE
    assert [o.text.strip() for o in probe.outputs] == [sys.prefix], "the kernel is not this interpreter's"

    assert hashlib.sha256(NOTEBOOK.read_bytes()).hexdigest() == before, "executing must not write the notebook"
    assert visible(executed) == visible(committed), (
        "the committed outputs are stale: refresh them with .venv/bin/python tests/test_notebook.py"
    )


def test_committed_notebook_keeps_its_rendered_outputs() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1)), "run top to bottom once"
    outputs = [output for cell in code for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pngs = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.data]
    assert len(pngs) >= 2, "the two plots are saved as PNG"
    assert any("text/html" in o.get("data", {}) for o in outputs), "a DataFrame is shown as a table"
    assert nb.metadata.kernelspec.name == "python3"


if __name__ == "__main__":
    notebook = execute(nbformat.read(NOTEBOOK, as_version=4))
    nbformat.write(notebook, NOTEBOOK)
    print(f"executed and wrote {NOTEBOOK}")
