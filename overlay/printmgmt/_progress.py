"""Progress bars for ``progress=True``: tqdm (extra ``printmgmt[progress]``), imported only when asked for; in a
Jupyter kernel with ipywidgets its widget, left as text when it closes (a widget shows nothing where its script
cannot load)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

__all__ = ["progress_bar", "set_status", "set_total"]


class _Off:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(enabled: bool, *, total: int | None, desc: str, unit: str) -> Any:
    """A tqdm bar when ``enabled`` (``ImportError`` naming the extra without tqdm), else one that shows nothing."""
    if not enabled:
        return _Off()
    try:
        # the optional extra, imported on use only (tqdm ships no type hints)
        text = importlib.import_module("tqdm.std")
    except ImportError as exc:
        raise ImportError("progress=True needs tqdm: pip install 'printmgmt[progress]'", name="tqdm") from exc
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    # a Jupyter kernel (not a terminal IPython) with ipywidgets: tqdm's widget
    if shell is not None and "IPKernelApp" in shell.config and importlib.util.find_spec("ipywidgets") is not None:
        return _widget_bar()(total=total, desc=desc, unit=unit, leave=True)
    return text.tqdm(total=total, desc=desc, unit=unit, leave=True)


def _widget_bar() -> type[Any]:
    """tqdm's notebook widget, shown under a display id so that closing it can leave its final state as text."""
    from IPython.display import display

    notebook = importlib.import_module("tqdm.notebook")

    class WidgetThenText(notebook.tqdm):  # type: ignore[misc,name-defined]
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(display=False, **kwargs)
            self._shown = display(self.container, display_id=True)
            self.displayed = True

        def close(self) -> None:
            closing = not self.disable
            super().close()
            if closing and self._shown is not None:
                self._shown.update({"text/plain": self.format_meter(**self.format_dict)}, raw=True)

    return WidgetThenText


def set_total(bar: Any, total: int) -> None:
    """Tell a bar its total once known (the first page of an iteration says it)."""
    if not isinstance(bar, _Off) and bar.total != total:
        bar.total = total
        bar.refresh()


def set_status(bar: Any, status: object) -> None:
    """Show what a wait last saw (the job's status) beside its bar."""
    if not isinstance(bar, _Off):
        bar.set_postfix_str(str(status), refresh=True)
