"""Hints that finish the thought, as a user meets them in an 80-column terminal: a bare word compared with a
field is a string without its quotes; an order by a field the spec does not know is the server's default
order, and the table says so."""

from __future__ import annotations

import warnings
from pathlib import Path

from cli_helpers import in_terminal, table_rows, terminal_env
from printmgmt_sim import Simulator

from printmgmt.errors import UnknownFieldWarning
from printmgmt.server import check_query


def words(text: str) -> str:
    return " ".join(text.split())


def test_an_unquoted_string_gets_its_quotes_offered(sim: Simulator, profiles: Path, ca_bundle: str) -> None:
    env = terminal_env(sim, profiles, ca_bundle)
    code, screen = in_terminal(["jobs", "list", "--filter", "status eq Error"], env)
    assert code == 0, screen
    said = words(screen)
    assert "--filter: Error is not a field of jobs in the spec (did you mean status eq 'Error'?)" in said
    code, screen = in_terminal(["jobs", "list", "--filter", "status eq 'Error'", "-n", "3"], env)
    assert code == 0 and "warning" not in screen  # the hint, as written, is the query that works


def test_the_sdk_offers_the_quotes_too() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_query("jobs", "strict", filter="current/printerName ne PRT1 and status eq 'Error'")
        check_query("jobs", "strict", filter="stauts eq 'Error'")  # a misspelt field: its nearest names
    said = [warning.message for warning in caught]
    assert isinstance(said[0], UnknownFieldWarning) and said[0].suggestions == ["current/printerName ne 'PRT1'"]
    assert isinstance(said[1], UnknownFieldWarning) and "status" in said[1].suggestions


def test_an_order_by_an_unknown_field_is_called_the_servers_default(
    sim: Simulator, profiles: Path, ca_bundle: str
) -> None:
    env = terminal_env(sim, profiles, ca_bundle)
    code, screen = in_terminal(["jobs", "list", "--orderby", "current/checkintime desc", "-n", "5"], env)
    assert code == 0, screen
    _, rows, after = table_rows(screen)
    assert len(rows) == 5
    assert "jobs 1-5 of 300, in the server's default order (current/checkintime: not a field in the spec)" in after
    code, screen = in_terminal(["jobs", "list", "--orderby", "current/checkinTime desc", "-n", "5"], env)
    assert code == 0 and "default order" not in screen
