"""mkdocs hook: the site's guides are the README's sections, said once (README.md stays the source).

A page holding ``<!-- readme: Title -->`` gets the README's ``## Title`` section there (down to the next
``## ``), its headings moved up one level. Links to files of the repository (not pages of the site) become
their path in code, so that ``mkdocs build --strict`` only fails on what is really broken.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parents[1] / "README.md"
_MARKER = re.compile(r"<!-- readme: (?P<title>.+?) -->")
_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>(?!https?://|#)[^)]+)\)")


def sections() -> dict[str, str]:
    """The README's ``## `` sections by title; ``""`` is the text before the first."""
    text = README.read_text()
    found: dict[str, str] = {}
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    found[""] = parts[0]
    for title, body in zip(parts[1::2], parts[2::2], strict=True):
        found[title.strip()] = body
    return found


def _repo_links(markdown: str) -> str:
    return _LINK.sub(lambda m: f"{m['text']} (`{m['target']}` in the repository)", markdown)


def _promote(markdown: str) -> str:
    """``### x`` becomes ``## x`` (the page's title is the section's)."""
    return re.sub(r"^###(#*) ", r"##\1 ", markdown, flags=re.M)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    found = sections()

    def section(match: re.Match[str]) -> str:
        title = match["title"]
        if title not in found:
            raise KeyError(f"{page.file.src_path}: the README has no section {title!r}")
        return _repo_links(_promote(found[title].strip("\n")))

    intro = re.sub(r"^# .*\n", "", found[""], count=1).strip("\n")
    markdown = markdown.replace("<!-- readme-intro -->", _repo_links(intro))
    return _MARKER.sub(section, markdown)
