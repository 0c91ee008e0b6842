"""The code users copy, checked like the SDK: the ```python blocks of README.md and of the guides in ``docs/``,
``examples/*.py`` and the notebook's code cells pass ``mypy --strict`` (``make typecheck`` runs this).

How snippets become modules (the only rules):

- Every Markdown block and the notebook start with :data:`PRELUDE`: the names the README's fragments assume
  (``client``, ``ids``...), declared with their types, never given values.
- A snippet that uses ``await``, ``async for`` or ``async with`` and defines no coroutine (a notebook, or a
  fragment from inside one) becomes the body of ``async def _snippet() -> None``. The notebook's code cells are one
  snippet, in order, as a kernel runs them.
- REPL transcripts are fenced ```pycon, shell sessions ```console: they are not Python modules and are not
  checked; nothing else is skipped.

``python tests/typecheck_docs.py`` prints mypy's findings with the snippet's origin and exits 1 on any.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRELUDE = """\
from printmgmt import PrintClient
from printmgmt.errors import PreconditionFailed

client: PrintClient
ids: list[str]
job_id: str
"""

#: The same names for a block written for the sync client (it imports ``printmgmt.sync``).
SYNC_PRELUDE = PRELUDE.replace("from printmgmt import PrintClient", "from printmgmt.sync import PrintClient")

_ASYNC = re.compile(r"\bawait\b|\basync (?:for|with)\b")


#: The Markdown users read: the README and the guides (the API reference's pages hold no code of their own).
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def readme_blocks(text: str, name: str = "README.md") -> list[tuple[str, str]]:
    """(origin, code) of every ```python block of a Markdown text."""
    blocks = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, re.M | re.S):
        line = text.count("\n", 0, match.start()) + 1
        blocks.append((f"{name}:{line}", match.group(1)))
    return blocks


def notebook_code(path: Path) -> str:
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


def as_module(code: str, *, prelude: bool = True) -> str:
    """``code`` as a module mypy can check (see the module's rules)."""
    if _ASYNC.search(code) and "async def" not in code:
        code = "async def _snippet() -> None:\n" + textwrap.indent(code, "    ")
    header = SYNC_PRELUDE if "printmgmt.sync" in code else PRELUDE
    return (header + "\n\n" if prelude else "") + code


def snippets() -> list[tuple[str, str]]:
    """(origin, module source) of everything this check covers."""
    found = [
        (origin, as_module(code))
        for document in DOCUMENTS
        for origin, code in readme_blocks(document.read_text(), str(document.relative_to(ROOT)))
    ]
    for example in sorted((ROOT / "examples").glob("*.py")):
        found.append((str(example.relative_to(ROOT)), example.read_text()))
    for notebook in sorted((ROOT / "examples").glob("*.ipynb")):
        found.append((str(notebook.relative_to(ROOT)), as_module(notebook_code(notebook))))
    return found


def check(sources: list[tuple[str, str]]) -> list[str]:
    """mypy --strict's findings on ``sources``, each line starting with the snippet's origin."""
    from mypy import api

    with tempfile.TemporaryDirectory() as folder:
        names = {}
        for number, (origin, source) in enumerate(sources):
            path = Path(folder) / f"snippet_{number}.py"
            path.write_text(source)
            names[str(path)] = origin
        search_path = os.pathsep.join(str(ROOT / part) for part in ("overlay", "generated", "simulator", "cli"))
        environ = {**os.environ, "MYPYPATH": search_path}
        old = os.environ.copy()
        os.environ.update(environ)
        try:
            stdout, _, status = api.run(["--strict", "--no-incremental", "--hide-error-context", *names])
        finally:
            os.environ.clear()
            os.environ.update(old)
    findings = []
    for line in stdout.splitlines():
        file, _, rest = line.partition(":")
        if file in names:
            findings.append(f"{names[file]} (as checked: line {rest}")
    if status and not findings:
        findings.append(stdout.strip())
    return findings


def main() -> int:
    sources = snippets()
    findings = check(sources)
    for finding in findings:
        print(finding)
    verdict = "failed" if findings else "typed (mypy --strict)"
    print(f"{len(sources)} snippets from README.md, docs/ and examples/: {verdict}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
