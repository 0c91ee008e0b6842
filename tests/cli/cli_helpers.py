"""Helpers of the command-line tests."""

from __future__ import annotations

from collections.abc import Callable

from printmgmt_sim import Simulator
from typer.testing import Result

#: The ``cli`` fixture: ``cli(*args, role="admin", env=None, input=None) -> Result``.
Invoke = Callable[..., Result]


def job_in(sim: Simulator, status: str, index: int = 0) -> str:
    """The id of a seeded job in ``status``."""
    return sim.store.jobs_in_status(status)[index][1]


def status_of(sim: Simulator, job_id: str) -> str:
    record = sim.store.job(job_id)
    assert record is not None
    return record.status


def error_line(result: Result) -> str:
    """The one line a failed command writes on stderr (and check that it is one line, no traceback)."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def in_terminal(
    args: list[str], env: dict[str, str], *, columns: int = 80, answer: tuple[str, bytes] | None = None
) -> tuple[int, str]:
    """Run ``printmgmt *args`` in a pseudo-terminal ``columns`` wide; return its exit code and what it showed
    (escape sequences removed). ``answer``: when the screen shows that text, type those bytes (``b"\\x03"``
    is Ctrl-C)."""
    import fcntl
    import os
    import pty
    import re
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time

    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    command = [sys.executable, "-m", "printmgmt_cli", *args]
    process = subprocess.Popen(
        command,
        stdin=side,
        stdout=side,
        stderr=side,
        env=env,
        close_fds=True,
        start_new_session=True,  # the terminal becomes its controlling one: Ctrl-C, and the prompt's /dev/tty
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(side)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the terminal closed: the process ended
                    break
                if not chunk:
                    break
                seen += chunk
                if answer and answer[0].encode() in seen:
                    os.write(main, answer[1])
                    answer = None
            elif process.poll() is not None:
                break
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", "", seen.decode(errors="replace"))
    # a line drawn again (a progress display) starts a line of its own
    text = re.sub(r"\r+(?!\n)", "\n", text).replace("\r", "")
    return code, text


def terminal_env(sim: Simulator, profiles: object, ca_bundle: str, role: str = "admin") -> dict[str, str]:
    """The environment of a ``printmgmt`` run in a pseudo-terminal against ``sim``, through the cli client as
    the ``cli`` fixture's (no ``COLUMNS``: the terminal's own size counts)."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("PRINTMGMT_") and k != "COLUMNS"}
    return (
        env
        | sim.env(role, "cli")
        | {"PRINTMGMT_CONFIG": str(profiles), "PRINTMGMT_CA_BUNDLE": ca_bundle, "TERM": "xterm"}
    )


def table_rows(screen: str) -> tuple[list[str], list[list[str]], str]:
    """A table as shown: its headers (a header wrapped over lines joined), its rows (each the cells of one
    line, stripped; a wrapped cell's further lines are rows whose first cell is empty) and the words of the
    caption and of any line after the table."""
    lines = screen.splitlines()
    rule = next(index for index, line in enumerate(lines) if line.strip() and set(line.strip()) <= {"━", "╇"})
    above = [line for line in lines[:rule] if "┃" in line] or lines[rule - 1 : rule]  # not a progress display
    heads = [[part.strip() for part in line.split("┃")] for line in above]
    headers = [" ".join(part for part in column if part) for column in zip(*heads, strict=True)]
    # a row's line has a border between cells, or, in a table of one column, the cell's padding first
    in_row = (lambda line: "│" in line) if len(headers) > 1 else (lambda line: line.startswith(" "))
    body = [line for line in lines[rule + 1 :] if in_row(line)]
    rows = [[part.strip() for part in line.split("│")] for line in body]
    after = " ".join(line for line in lines[rule + 1 :] if not in_row(line))
    return headers, rows, " ".join(after.split())


def shown_whole_or_cut(cell: str, text: str) -> bool:
    """Whether ``cell`` shows ``text`` whole, or its beginning followed by the mark "…"."""
    return cell == text or (cell.endswith("…") and text.startswith(cell[:-1].rstrip()) and len(cell) > 1)
