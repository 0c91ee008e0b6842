"""The README as a newcomer reads it: its table of contents is its sections, in order, and its links (and
those of the maintainers' guide it points to) reach files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"\]\((?P<target>(?!https?://|#)[^)#]+)(?:#[^)]*)?\)")


def contents(text: str) -> list[str]:
    """The titles the ``## Contents`` list links to."""
    block = text.split("## Contents\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- \[(.+?)\]\(#[\w-]+\)$", block, re.M)


def test_the_contents_list_every_section_in_order() -> None:
    text = README.read_text()
    headings = [title for title in re.findall(r"^## (.+)$", text, re.M) if title != "Contents"]
    assert contents(text) == headings
    for title, anchor in re.findall(r"^- \[(.+?)\]\(#([\w-]+)\)$", text, re.M):
        assert anchor == re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")  # GitHub's anchors


@pytest.mark.parametrize("document", ["README.md", "docs/maintaining.md", "docs/simulator-start.md"])
def test_relative_links_reach_existing_files(document: str) -> None:
    path = ROOT / document
    targets = LINK.findall(path.read_text())
    assert targets
    missing = [target for target in targets if not (path.parent / target).exists()]
    assert not missing
