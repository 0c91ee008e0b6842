"""printmgmt.tables.to_pandas and Page.to_pandas: flattened columns, id first, epoch ms as UTC datetimes,
input order kept; pandas stays optional."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

import pandas as pd
import pytest

from printmgmt import Page, Pager
from printmgmt.models import Job, LogEntry, Printer, to_datetime
from printmgmt.tables import EPOCH_MS_FIELDS, to_pandas

T0 = 1_736_150_400_000  # 2025-01-06T08:00:00Z


def job(job_id: str, status: str, printer: str, checkin: int, **extra: Any) -> Job:
    return Job.from_dict(
        {
            "_id": job_id,
            "status": status,
            "current": {"printerName": printer, "checkinTime": checkin, "arrivedTime": checkin - 50, "copies": 1},
            "stages": [{"fileName": "f", "createdBy": "checkin", "createdAt": checkin + 1}],
            **extra,
        }
    )


JOBS = [
    job("job-c", "Error", "printer1", T0),
    job("job-a", "Paused", "printer2", T0 - 60_000, priority=3),
    job("job-b", "Archived", "printer1", T0 - 120_000),
]


def assert_utc_datetimes(column: pd.Series) -> None:
    assert isinstance(column.dtype, pd.DatetimeTZDtype)
    assert str(column.dtype.tz) == "UTC"


def test_jobs_become_rows_in_input_order_with_dotted_columns() -> None:
    df = to_pandas(JOBS)
    assert list(df["id"]) == ["job-c", "job-a", "job-b"]
    assert list(df.index) == [0, 1, 2]
    assert df.columns[0] == "id"
    assert "_id" not in df.columns
    assert {
        "status",
        "current.printerName",
        "current.checkinTime",
        "current.arrivedTime",
        "current.copies",
        "stages",
        "priority",
    } <= set(df.columns)
    # statuses as the server sent them, unknown ones included; not enum members
    assert list(df["status"]) == ["Error", "Paused", "Archived"]
    assert all(type(value) is str for value in df["status"])
    assert list(df["current.printerName"]) == ["printer1", "printer2", "printer1"]
    # an unknown field missing from some jobs is NaN there
    assert df["priority"].isna().tolist() == [True, False, True]


def test_epoch_ms_fields_become_utc_datetimes() -> None:
    df = to_pandas(JOBS)
    for column in ("current.checkinTime", "current.arrivedTime"):
        assert_utc_datetimes(df[column])
    assert df["current.checkinTime"].iloc[0] == pd.Timestamp(datetime(2025, 1, 6, 8, tzinfo=UTC))
    assert df["current.checkinTime"].iloc[1].to_pydatetime() == to_datetime(T0 - 60_000)
    assert df["current.arrivedTime"].iloc[2] == pd.Timestamp(T0 - 120_050, unit="ms", tz="UTC")
    # other numbers stay numbers; lists stay lists (times inside them are left as sent)
    assert pd.api.types.is_integer_dtype(df["current.copies"])
    assert df["stages"].iloc[0] == [{"fileName": "f", "createdBy": "checkin", "createdAt": T0 + 1}]


def test_missing_times_are_nat() -> None:
    df = to_pandas([Job.from_dict({"_id": "a", "current": {"checkinTime": T0}}), Job(id="b")])
    assert_utc_datetimes(df["current.checkinTime"])
    assert df["current.checkinTime"].isna().tolist() == [False, True]
    only_null = to_pandas([{"_id": "a", "time": None}])
    assert_utc_datetimes(only_null["time"])


def test_time_columns_holding_text_are_left_alone() -> None:
    df = to_pandas([{"_id": "a", "time": "yesterday"}])
    assert df["time"].tolist() == ["yesterday"]


def test_page_to_pandas() -> None:
    page = Page(items=JOBS, total=10, skip=0, top=3)
    df = page.to_pandas()
    pd.testing.assert_frame_equal(df, to_pandas(JOBS))
    pd.testing.assert_frame_equal(to_pandas(page), df)


def test_empty_page_is_an_empty_frame() -> None:
    df = Page(items=[], total=0).to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert df.empty
    assert len(df) == 0
    assert to_pandas([]).empty


def test_printers_logs_and_plain_dicts() -> None:
    printers = [
        Printer.from_dict(
            {
                "_id": "printer1",
                "config": {"connection": "socket://printer1:9100", "nativeQueue": False, "type": {"model": "M751"}},
                "runtime": {"status": "idle", "lastPrintedJobTime": T0, "queuedJobs": 0},
            }
        )
    ]
    df = to_pandas(printers)
    assert list(df.columns[:1]) == ["id"]
    assert df.loc[0, "config.type.model"] == "M751"
    assert df.loc[0, "runtime.queuedJobs"] == 0
    assert_utc_datetimes(df["runtime.lastPrintedJobTime"])

    logs = to_pandas([LogEntry(time=T0, level="info", message="checked in")])
    assert list(logs.columns) == ["time", "level", "message"]
    assert_utc_datetimes(logs["time"])

    series = to_pandas({"time": T0 + n * 3_600_000, "count": n} for n in range(3))
    assert list(series.columns) == ["time", "count"]
    assert_utc_datetimes(series["time"])
    assert series["time"].diff().iloc[1] == pd.Timedelta(hours=1)


def test_an_id_field_next_to_id_keeps_both() -> None:
    df = to_pandas([{"_id": "a", "id": 7}])
    assert list(df.columns) == ["_id", "id"]


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (JOBS[0], "not one Job: wrap it in"),
        ({"_id": "a"}, "not one dict"),
        ("jobs", "not str"),
        (42, "not int"),
        ([object()], "got object"),
    ],
)
def test_wrong_input_is_a_type_error(items: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        to_pandas(items)


def test_a_pager_must_be_collected_first() -> None:
    async def fetch(skip: int, top: int) -> Page[Job]:
        return Page(items=[])

    with pytest.raises(TypeError, match=r"await pager.to_list\(\)"):
        to_pandas(Pager(fetch=fetch, page_size=10))  # type: ignore[arg-type]


def test_without_pandas_an_import_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails as if not installed
    with pytest.raises(ImportError, match=r"pip install 'printmgmt\[pandas\]'") as raised:
        Page(items=JOBS).to_pandas()
    assert raised.value.name == "pandas"
    with pytest.raises(ImportError, match=r"printmgmt\[pandas\]"):
        to_pandas(JOBS)


def test_importing_printmgmt_does_not_import_pandas() -> None:
    code = (
        "import sys, printmgmt, printmgmt.tables, printmgmt.models\n"
        "assert 'pandas' not in sys.modules, 'pandas was imported'\n"
        "printmgmt.Page(items=[]).to_pandas()\n"
        "assert 'pandas' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_epoch_ms_fields_match_the_spec(spec: dict[str, Any]) -> None:
    """Every int64 field the spec documents as epoch milliseconds, and nothing else, is converted."""
    documented = set()
    for schema in spec["components"]["schemas"].values():
        times_in_schema = "times are epoch milliseconds" in schema.get("description", "").lower()
        for name, prop in schema.get("properties", {}).items():
            if prop.get("format") != "int64":
                continue
            described = "epoch milliseconds" in prop.get("description", "").lower()
            if described or (times_in_schema and name.endswith(("Time", "At"))):
                documented.add(name)
    assert documented == EPOCH_MS_FIELDS
