"""One writer at a time for a file that several ``printmgmt`` processes change (the session store): an
exclusive ``flock`` on the file's directory, held across reading, changing and writing it back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["locked"]


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock of ``path``'s directory (made 0700 when missing) for the block.

    The directory, not the file, is locked: the file is replaced whole by each writer, so a lock on it would
    be held on a file that is no longer there, and a lock file of its own would stay behind. Where ``fcntl``
    is missing (Windows), the block runs unlocked.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - POSIX only
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
