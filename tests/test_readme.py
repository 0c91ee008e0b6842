"""The README and the guides as a newcomer reads them, on GitHub as on the site: the README's first screen
lists jobs against the simulator with a script that runs as written and prints what the README shows; the
README stays short, names no private module, and its table of contents is its sections, in order; every
relative link reaches a file that exists; the simulator's credentials are written out, as its settings have
them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from printmgmt_sim.settings import DEFAULT_ALLOWED_CLIENTS, DEFAULT_CLIENTS, DEFAULT_USERS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\]\((?P<target>(?!https?://|#)[^)#]+)(?:#[^)]*)?\)")
#: A first screen: what a terminal or a browser shows before the reader scrolls.
FIRST_SCREEN = 60
MOST_LINES = 400
#: ``printmgmt._display``, ``printmgmt_sim._x``: modules a user must not be pointed at (the maintainers' guide
#: names them on purpose).
PRIVATE = re.compile(r"\bprintmgmt(?:_sim|_api)?(?:\.\w+)*\._\w+")


def contents(text: str) -> list[str]:
    """The titles the ``## Contents`` list links to."""
    block = text.split("## Contents\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- \[(.+?)\]\(#[\w-]+\)$", block, re.M)


def first_block(text: str) -> tuple[int, str, str]:
    """The line on which the first ```python block ends, its code, and the ```console block after it."""
    code = re.search(r"^```python\n(.*?)^```\n", text, re.M | re.S)
    assert code, "no python block"
    shown = re.compile(r"^```console\n(.*?)^```", re.M | re.S).search(text, code.end())
    assert shown, "no output shown after the first python block"
    return text.count("\n", 0, code.end()), code[1], shown[1]


def test_the_first_screen_lists_jobs_against_the_simulator() -> None:
    end, code, _ = first_block(README.read_text())
    assert end <= FIRST_SCREEN
    assert "Simulator(" in code and "client.jobs." in code


def test_the_first_block_runs_as_a_script_and_prints_what_the_readme_shows(tmp_path: Path) -> None:
    """Real HTTP: the script starts the simulator on 127.0.0.1, signs in and lists, as a user's file would."""
    _, code, shown = first_block(README.read_text())
    script = tmp_path / "first.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


def test_the_readme_is_short_and_names_no_private_module() -> None:
    text = README.read_text()
    assert text.count("\n") <= MOST_LINES
    for document in [README, *GUIDES]:
        if document.name != "maintaining.md":
            assert not PRIVATE.findall(document.read_text()), document.name


def test_the_private_name_check_sees_one() -> None:
    assert PRIVATE.findall("the summary (`printmgmt._display.SUMMARY`)")
    assert not PRIVATE.findall("`printmgmt.models.to_datetime`, `printmgmt_sim.pytest_plugin.DEFAULTS`")


def test_the_contents_list_every_section_in_order() -> None:
    text = README.read_text()
    headings = [title for title in re.findall(r"^## (.+)$", text, re.M) if title != "Contents"]
    assert contents(text) == headings
    for title, anchor in re.findall(r"^- \[(.+?)\]\(#([\w-]+)\)$", text, re.M):
        assert anchor == re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")  # GitHub's anchors


@pytest.mark.parametrize("document", [README, *GUIDES], ids=lambda path: path.name)
def test_relative_links_reach_existing_files(document: Path) -> None:
    targets = LINK.findall(document.read_text())
    missing = [target for target in targets if not (document.parent / target).exists()]
    assert not missing


def credentials() -> str:
    """The simulator's users and clients as the Markdown tables of its getting-started page."""
    users = ["| User | Password | Realm role |", "|---|---|---|"]
    users += [f"| `{u.username}` | `{u.password}` | `{', '.join(u.roles)}` |" for u in DEFAULT_USERS]
    clients = ["| Client id | Client secret | `client_kind` | Areas |", "|---|---|---|---|"]
    for client in DEFAULT_CLIENTS:
        areas = sorted({area for role in DEFAULT_ALLOWED_CLIENTS[client.client_id]["roles"].values() for area in role})
        clients.append(f"| `{client.client_id}` | `{client.secret}` | `{client.kind}` | {', '.join(areas)} |")
    return "\n".join([*users, "", *clients])


def test_the_simulator_page_writes_out_its_settings_credentials() -> None:
    page = (ROOT / "docs" / "simulator-start.md").read_text()
    assert credentials() in page
    assert "<!--" not in page  # nothing left for a build to fill in: GitHub shows the file as it is


@pytest.mark.parametrize("document", [README, ROOT / "docs" / "simulator-start.md"], ids=lambda path: path.name)
def test_a_virtual_environment_comes_before_the_first_pip_install(document: Path) -> None:
    """On a PEP 668 system ``pip install`` outside a virtual environment is refused: the first command a
    reader copies makes one, and the README says what the refusal is and what to do."""
    commands = [
        line.lstrip("$ ").strip()
        for block in re.findall(r"^```(?:sh|console)\n(.*?)^```", document.read_text(), re.M | re.S)
        for line in block.splitlines()
    ]
    first_pip = next(index for index, command in enumerate(commands) if command.startswith("pip install"))
    assert any(
        command.startswith("python3 -m venv ") and "/bin/activate" in command for command in commands[:first_pip]
    )
    if document == README:
        text = " ".join(README.read_text().split())
        assert "PEP 668" in text and "externally-managed-environment" in text and "pipx install" in text
