"""``printmgmt printers``: list, get and every action."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from cli_helpers import Invoke, error_line
from printmgmt_sim import Simulator


def runtime(sim: Simulator, name: str) -> dict[str, Any]:
    printer = sim.store.printer(name)
    assert printer is not None
    return dict(printer.get("runtime", {}))


def paused_printer(sim: Simulator) -> str:
    name: str = next(p["_id"] for p in sim.store.printers() if p["runtime"]["status"] == "paused")
    return name


def test_list_json_csv_and_table(cli: Invoke, sim: Simulator) -> None:
    names = sorted(p["_id"] for p in sim.store.printers())
    listed = json.loads(cli("printers", "list", "--all", "-o", "json").stdout)
    assert sorted(p["_id"] for p in listed) == names
    rows = list(
        csv.DictReader(io.StringIO(cli("printers", "list", "-f", "runtime/status eq 'paused'", "-o", "csv").stdout))
    )
    assert {row["_id"] for row in rows} == {
        p["_id"] for p in sim.store.printers() if p["runtime"]["status"] == "paused"
    }
    assert {row["runtime/status"] for row in rows} == {"paused"}
    table = cli("printers", "list", "-n", "40").stdout
    assert "Lobby Color 1" in table and "Toner low: order a new cartridge" in table and "printers 1-36 of 36" in table


def test_get(cli: Invoke) -> None:
    printer = json.loads(cli("printers", "get", "Lobby Color 1", "-o", "json").stdout)
    assert printer["_id"] == "Lobby Color 1"
    assert cli("printers", "get", "nope").exit_code == 1


def test_pause_resume_and_their_refusals(cli: Invoke, sim: Simulator) -> None:
    assert cli("printers", "pause", "printer1").exit_code == 0
    assert runtime(sim, "printer1")["status"] == "paused"
    again = cli("printers", "pause", "printer1")
    assert again.exit_code == 1 and "Printer is already paused." in error_line(again)
    assert cli("printers", "resume", "printer1").exit_code == 0
    assert runtime(sim, "printer1")["status"] != "paused"
    assert "not paused" in error_line(cli("printers", "resume", "printer1"))


def test_redirect_and_a_loop_refused(cli: Invoke, sim: Simulator) -> None:
    assert cli("printers", "redirect", "printer1", "--to", "Lobby Color 1").exit_code == 0
    assert runtime(sim, "printer1")["redirectedTo"] == "Lobby Color 1"
    loop = cli("printers", "redirect", "Lobby Color 1", "--to", "printer1")
    assert loop.exit_code == 1 and "412" in error_line(loop)


def test_message_set_and_clear(cli: Invoke, sim: Simulator) -> None:
    assert cli("printers", "message", "printer1", "Paper jam, tray 2").exit_code == 0
    assert runtime(sim, "printer1")["message"] == "Paper jam, tray 2"
    assert cli("printers", "message", "printer1", "--clear").exit_code == 0
    assert not runtime(sim, "printer1").get("message")
    assert cli("printers", "message", "printer1").exit_code == 2  # neither TEXT nor --clear
    assert cli("printers", "message", "printer1", "x", "--clear").exit_code == 2


def test_check(cli: Invoke, sim: Simulator) -> None:
    result = cli("printers", "check", "printer1", "-o", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)[0]["message"] == "Printer printer1 checked."
    printer = sim.store.printer("printer1")
    assert printer is not None and printer["physical"]


def test_bulk_resume_of_printers_partly_refused(cli: Invoke, sim: Simulator) -> None:
    paused = paused_printer(sim)
    result = cli("printers", "resume", paused, "printer1", "-o", "csv")
    assert result.exit_code == 4
    rows = {row["key"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    assert (rows[paused]["status"], rows["printer1"]["status"]) == ("done", "refused")
    assert "not paused" in rows["printer1"]["message"]
