"""Optional progress displays for long work: ``iterate(progress=True)``, the bulk actions' ``progress=True`` and
the waits' (``wait_for``, ``watch``, ``wait_for_many``).

They use tqdm (the extra ``printmgmt[progress]``): ``tqdm.auto`` draws a widget in Jupyter (with ipywidgets) and
text on stderr elsewhere, the display notebook users already know; rich, the command line's, would tie notebooks
to the ``cli`` extra. Without ``progress=True`` nothing is imported.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Final, Protocol

__all__ = ["Bar", "progress_bar", "set_status", "set_total"]

INSTALL_HINT: Final = "progress=True needs tqdm: pip install 'printmgmt[progress]'"


class Bar(Protocol):
    """What the SDK asks of a progress display."""

    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


class _Off:
    """No display: ``progress`` was not asked for."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(enabled: bool, *, total: int | None, desc: str, unit: str) -> Any:
    """A tqdm bar when ``enabled`` (``ImportError`` naming the extra without tqdm), else one that shows nothing."""
    if not enabled:
        return _Off()
    try:
        # the optional extra, imported on use only (tqdm ships no type hints: the bar is used through Bar); in
        # a notebook without ipywidgets tqdm.auto warns and draws text, which is a display all the same
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="IProgress not found")
            auto = importlib.import_module("tqdm.auto")
    except ImportError as exc:
        raise ImportError(INSTALL_HINT, name="tqdm") from exc
    return auto.tqdm(total=total, desc=desc, unit=unit, leave=True)


def set_total(bar: Any, total: int) -> None:
    """Tell a bar its total once known (the first page of an iteration says it)."""
    if not isinstance(bar, _Off) and bar.total != total:
        bar.total = total
        bar.refresh()


def set_status(bar: Any, status: object) -> None:
    """Show what a wait last saw (the job's status) beside its bar."""
    if not isinstance(bar, _Off):
        bar.set_postfix_str(str(status), refresh=True)
