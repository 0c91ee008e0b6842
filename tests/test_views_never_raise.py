"""Whatever the server sent, the views of it render: ``repr``, IPython's pretty text, the notebook's HTML (of a
model and of a page), ``to_pandas()`` and the command line's table cells. Times that cannot be dates (beyond
the years 1 to 9999, NaN, infinities, text, objects) show as sent; a time of 0, the server's "never", as
absent. Documents come from the spec's schemas (``tests/test_lazy_models.py``'s strategy), every time field
replaced by an odd value."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from IPython.lib.pretty import pretty
from printmgmt_cli.output import Column, cell, table_of
from rich.console import Console
from test_lazy_models import JSON, MODELS, document

import printmgmt_api.models as models
from printmgmt import Page
from printmgmt.fields import EPOCH_MS_FIELDS, epoch_ms_text
from printmgmt.tables import to_pandas

#: What a time field may hold on the wire (decoded JSON: numbers of any size the decoder gives, NaN and
#: infinities as Python's decoder reads ``NaN`` and ``Infinity``, and any other value).
ODD_TIMES = st.one_of(
    st.sampled_from([0, -0.0, -62135596800001, 253402300800000, 10**20, -(10**20), 1608280547459]),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    JSON,
)


def _with_times(document: Any, draw: st.DrawFn) -> Any:
    """``document`` with each time field (at any depth) holding an odd value, and one added where a job or a
    printer keeps its time."""
    if isinstance(document, list):
        return [_with_times(item, draw) for item in document]
    if not isinstance(document, dict):
        return document
    found = {
        key: draw(ODD_TIMES) if key in EPOCH_MS_FIELDS else _with_times(value, draw) for key, value in document.items()
    }
    for holder, field in (("current", "checkinTime"), ("runtime", "lastPrintedJobTime")):
        if isinstance(found.get(holder), dict):
            found[holder][field] = draw(ODD_TIMES)
    return found


@st.composite
def odd_document(draw: st.DrawFn, name: str) -> dict[str, Any]:
    return _with_times(draw(document(name)), draw)  # type: ignore[no-any-return]


def _all_views(model: Any, document: dict[str, Any]) -> None:
    assert repr(model) and str(model)
    assert pretty(model)
    html = model._repr_html_()
    assert html is None or html.startswith("<div>")
    page = Page(items=[model, model], total=2)
    assert repr(page) and page._repr_html_()
    frame = to_pandas([model])
    assert len(frame) == 1 and frame.to_string()
    paths = [path for path, _ in _leaves(document)]
    rows = [{path: cell(path, value, human=True) for path, value in _leaves(document)}]
    Console(file=io.StringIO(), width=80).print(table_of([Column(path) for path in paths], rows, 80))


def _leaves(document: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    found = []
    for key, value in document.items():
        path = f"{prefix}{key}"
        found += _leaves(value, f"{path}/") if isinstance(value, dict) and value else [(path, value)]
    return found


@pytest.mark.parametrize("name", MODELS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_view_of_every_model_renders_whatever_was_sent(name: str, data: st.DataObject) -> None:
    doc = data.draw(odd_document(name))
    _all_views(getattr(models, name).from_dict(doc), doc)


@given(time=ODD_TIMES)
@example(time=-62135596800001)
@example(time=math.nan)
def test_a_job_with_an_odd_check_in_time_renders(time: Any) -> None:
    doc = {"_id": "0", "status": "Error", "current": {"checkinTime": time, "printerName": "PRT-1"}}
    _all_views(models.Job.from_dict(doc), doc)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1608280547459, "2020-12-18 08:35:47Z"),
        (0, ""),
        (None, ""),
        (-62135596800001, "-62135596800001"),
        (253402300800000, "253402300800000"),
        (math.nan, "nan"),
        (math.inf, "inf"),
        ("yesterday", "yesterday"),
        (True, "True"),
    ],
)
def test_a_time_shows_as_a_date_as_absent_or_as_sent(value: object, shown: str) -> None:
    assert epoch_ms_text(value) == shown


def test_the_job_of_the_report_shows_its_raw_time() -> None:
    job = models.Job.from_dict({"_id": "0", "current": {"checkinTime": -62135596800001}})
    assert repr(job) == "Job(id='0', checkin_time=-62135596800001)"
    assert "<td>-62135596800001</td>" in (job._repr_html_() or "")


def test_a_time_of_zero_is_absent_everywhere() -> None:
    printer = models.Printer.from_dict({"_id": "p1", "runtime": {"status": "idle", "lastPrintedJobTime": 0}})
    assert "1970" not in repr(printer) and "1970" not in (printer._repr_html_() or "")
    assert to_pandas([printer])["runtime.lastPrintedJobTime"].isna().all()
    assert cell("runtime/lastPrintedJobTime", 0, human=True) == ""
