"""``printmgmt doctor`` against every simulator variant: each alternative shows up as its expected difference and
nothing else; the probe changes nothing and reports no secret."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from printmgmt_cli.doctor import Report, probe
from printmgmt_cli.profile import LIMITS, MAX_DEPTH, MAX_HEADER_SIZE, MAX_TOP, NO_CAP, PROFILE_SETTINGS, UNKNOWN
from printmgmt_sim import ClientCredentials, Simulator, UserCredentials
from printmgmt_sim.variants import Variants, alternatives, parse_variant

from printmgmt import PrintClient
from printmgmt_api.operations import OPERATIONS

#: Settings the doctor cannot see: it changes nothing, so it never sees what a write answers.
NEVER_PROBED = {"write_answer"}
#: Alternatives that show, besides the findings that state their setting, these differences.
ALSO_SHOWN: dict[str, set[str]] = {"count_form=none": {"inlinecount"}}


@pytest.fixture(scope="module")
def sim() -> Iterator[Simulator]:
    with Simulator(jobs=30, printers=3, speed=0, seed=7) as simulator:
        yield simulator


async def _report(sim: Simulator, variants: Variants, kind: str = "graphical") -> Report:
    sim.settings.variants = variants
    sim.backend.reset()
    async with sim.client("admin", kind) as client:
        return await probe(client)


def test_the_settings_never_probed_are_settings() -> None:
    assert {name for name, _ in alternatives()} > NEVER_PROBED


async def test_the_spec_s_guesses_all_match_the_default_simulator(sim: Simulator) -> None:
    report = await _report(sim, Variants())
    assert report.differences == []
    # every setting decided, as the default: a setting no probe states would be unknown here
    default = {name: getattr(Variants(), name) for name in PROFILE_SETTINGS if name != MAX_TOP and name not in LIMITS}
    expected = {**default, MAX_TOP: NO_CAP, **LIMITS} | {name: UNKNOWN for name in NEVER_PROBED}
    assert report.profile()["settings"] == expected
    unknown = {finding.id for finding in report.findings if finding.verdict == "unknown"}
    assert unknown == {"writes", "403-body"}  # never probed; no 403 seen through the graphical client
    assert len(report.findings) > 30


@pytest.mark.parametrize(("name", "value"), list(alternatives()), ids=lambda v: str(v))
async def test_each_variant_shows_as_its_difference(sim: Simulator, name: str, value: str) -> None:
    report = await _report(sim, parse_variant(f"{name}={value}"))
    stating = {finding.id for finding in report.findings if name in finding.profile}
    expected = stating | ALSO_SHOWN.get(f"{name}={value}", set())
    assert {finding.id for finding in report.differences} == expected
    assert report.profile()["settings"][name] == (UNKNOWN if name in NEVER_PROBED else value)
    for finding in report.differences:
        assert finding.advice and finding.observed != finding.guess


async def test_a_capped_top_and_forbidden_statistics_show(sim: Simulator) -> None:
    with Simulator(jobs=30, printers=3, speed=0, max_top=10) as capped:
        async with capped.client("admin", "cli") as client:
            report = await probe(client)
    assert {finding.id for finding in report.differences} == {"top-cap"}
    assert "10 of 30" in report["top-cap"].observed
    assert report["403-body"].verdict == "matches"  # statistics through the cli client: 403 with a JSON body
    assert report["shape:getJobCount"].verdict == "unknown" and report["shape:getJobCount"].observed == "403"


# whole KiB, as Node's limit is set: the doctor measures the head as httpx builds it, and reads a value
# within a few bytes of a whole KiB as that (a caller's own transport may write the URL a few bytes off)
@pytest.mark.parametrize(("depth", "head"), [(37, 9 * 1024), (300, 40 * 1024)])
async def test_a_server_s_limits_show_as_their_values(depth: int, head: int) -> None:
    with Simulator(jobs=30, printers=3, speed=0, max_depth=depth, max_header_size=head) as limited:
        async with limited.client("admin", "cli") as client:
            report = await probe(client)
    assert {finding.id for finding in report.differences} == {"query-depth", "head-size"}
    assert {MAX_DEPTH: depth, MAX_HEADER_SIZE: head}.items() <= report.profile()["settings"].items()


def _states(sim: Simulator) -> list[tuple[str, str]]:
    return sorted((job_id, status) for status in STATUSES for job_id, _ in sim.store.jobs_in_status(status))


STATUSES = ("Added", "WaitProcessing", "Processing", "Paused", "Error", "Processed", "Canceled")


async def test_the_probe_changes_nothing_and_keeps_secrets_out() -> None:
    user = UserCredentials("seal-admin", "pw-Zq81-never-shown", ("admin",))
    app = ClientCredentials("seal-plossysadmin", "secret-Vx42-never-shown", "graphical")
    with Simulator(jobs=30, printers=3, speed=0, users=(user,), clients=(app,)) as sim:
        states, printers, config = _states(sim), sim.store.printers(), sim.store.config()
        auth = sim.password_auth("admin", "graphical")
        async with PrintClient(sim.base_url, auth=auth) as client:
            report = await probe(client)
        access, refresh = auth._state.tokens.access, auth._state.tokens.refresh
        assert access and refresh
        tokens = (access, refresh)
        assert (_states(sim), sim.store.printers(), sim.store.config()) == (states, printers, config)
        text = json.dumps(report.to_dict())
        for secret in (user.password, app.secret, *tokens):
            assert secret not in text
        assert "seal-plossysadmin" in text  # the client id is not a secret: it says which grants were probed


async def test_the_probe_never_asks_for_everything_nor_calls_what_the_spec_keeps_from_it(sim: Simulator) -> None:
    sent: list[httpx.URL] = []

    async def record(request: httpx.Request) -> None:
        sent.append(request.url)

    sim.settings.variants = Variants()
    sim.backend.reset()
    async with sim.client("admin", "graphical") as client:
        client.http.event_hooks["request"].append(record)
        await probe(client)
    lists = [url for url in sent if url.path in ("/v3/jobs/", "/v3/printers/")]
    # $top=0 is "no limit" to MongoDB: sent once, to ask just that, on a filter that finds one job by its key
    zero = [url for url in lists if url.params.get("$top") == "0"]
    assert len(zero) == 1 and re.fullmatch(r"_id eq '[0-9a-f]{24}'", zero[0].params["$filter"])
    assert all("$top" in url.params for url in lists)
    kept_away = [re.sub(r"\{[^}]+\}", "[^/]+", spec.path) for spec in OPERATIONS.values() if not spec.probe]
    assert kept_away
    assert not [url for url in sent for path in kept_away if re.fullmatch(path, url.path)]


def test_the_doctor_names_no_operation_in_code() -> None:
    import printmgmt_cli.doctor

    source = Path(printmgmt_cli.doctor.__file__).read_text()
    assert not [op_id for op_id in OPERATIONS if f'"{op_id}"' in source or f"'{op_id}'" in source]
    assert "_invoker" not in source and "importlib" not in source
    assert not re.findall(r"\.http\.(?:get|put|post|delete|request|stream|send)\b", source)
    # every request comes from a generated builder: no query option and no path but the one no server has
    assert not re.findall(r"[\"']\$\w+", source)
    assert re.findall(r"[\"']/v3[^\"']*", source) == [f'"{printmgmt_cli.doctor.NO_SUCH_PATH}']
