"""The documentation's type check can fail: a snippet reading a nested optional field without an ``if`` is
reported, the same snippet with one ``if`` is not (tests/typecheck_docs.py, run by make typecheck)."""

from __future__ import annotations

from pathlib import Path

from typecheck_docs import DOCUMENTS, as_module, check, readme_blocks, snippets

UNNARROWED = """\
async for job in client.jobs.iterate():
    print(job.current.printer_name.upper())
"""
NARROWED = """\
async for job in client.jobs.iterate():
    if job.current and job.current.printer_name:
        print(job.current.printer_name.upper())
"""


def test_an_unnarrowed_optional_field_fails_and_one_if_passes() -> None:
    findings = check([("unnarrowed", as_module(UNNARROWED)), ("narrowed", as_module(NARROWED))])
    assert findings, "mypy found nothing"
    assert all(finding.startswith("unnarrowed") for finding in findings)
    assert any("Unset" in finding for finding in findings)


def test_every_python_block_of_the_readme_and_the_guides_is_covered() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert len(readme_blocks(readme)) == readme.count("```python") >= 5
    origins = [origin for origin, _ in snippets()]
    guides = [path for path in DOCUMENTS if path.name != "README.md"]
    blocks = sum(path.read_text().count("```python") for path in guides)
    assert blocks >= 5 and len([o for o in origins if o.startswith("docs/")]) == blocks
    assert "examples/demo.py" in origins and "examples/quickstart.ipynb" in origins
