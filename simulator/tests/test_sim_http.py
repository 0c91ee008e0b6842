"""The wire: query decoding, list shapes, error bodies and content types, seen with plain httpx."""

from __future__ import annotations

import httpx
import pytest
from printmgmt_sim import Simulator

pytestmark = pytest.mark.print_server(jobs=120)


def test_encoded_dollar_keys_and_plus_spaces_are_decoded(http: httpx.Client) -> None:
    raw = http.get("/v3/jobs/?%24filter=status+eq+%27Error%27&%24top=3&%24inlinecount=allpages")
    plain = http.get("/v3/jobs/", params={"$filter": "status eq 'Error'", "$top": 3, "$inlinecount": "allpages"})
    assert raw.status_code == plain.status_code == 200
    assert raw.json() == plain.json()
    assert raw.json()["totalCount"] > 3
    assert {job["status"] for job in raw.json()["results"]} == {"Error"}


def test_list_shapes(http: httpx.Client) -> None:
    bare = http.get("/v3/printers/", params={"$top": 2})
    assert isinstance(bare.json(), list) and len(bare.json()) == 2
    counted = http.get("/v3/printers/", params={"$top": 2, "$inlinecount": "allpages"}).json()
    assert set(counted) == {"results", "totalCount"} and counted["totalCount"] == 36
    none = http.get("/v3/printers/", params={"$top": 2, "$inlinecount": "none"}).json()
    assert isinstance(none, list)


def test_select_reaches_nested_fields(http: httpx.Client) -> None:
    jobs = http.get("/v3/jobs/", params={"$select": "status,current/printerName", "$top": 2}).json()
    assert all(set(job) == {"_id", "status", "current"} and set(job["current"]) == {"printerName"} for job in jobs)


@pytest.mark.parametrize(
    "params", [{"$expand": "x"}, {"$filter": "status eq"}, {"$filter": "status EQ 'x'"}, {"$orderby": "status desc "}]
)
def test_bad_list_options_answer_plain_text_400(http: httpx.Client, params: dict[str, str]) -> None:
    for path in ("/v3/jobs/", "/v3/printers/"):
        response = http.get(path, params=params)
        assert response.status_code == 400
        assert response.headers["content-type"].startswith("text/plain")
        assert response.text == "Bad Request"


def test_non_dollar_keys_are_ignored(http: httpx.Client) -> None:
    assert http.get("/v3/printers/", params={"foo": "bar", "$top": 1}).status_code == 200


def test_errors_have_the_seal_shape(http: httpx.Client) -> None:
    response = http.get("/v3/jobs/no-such-job")
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "ERR_NOT_FOUND"
    assert "no-such-job" in body["message"]
    assert body["metadata"]["kbCode"] == "seal-rest/ERR_NOT_FOUND"


def test_missing_token_answers_401_with_a_challenge(print_simulator: Simulator) -> None:
    response = httpx.get(f"{print_simulator.base_url}/v3/")
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.json()["code"] == "ERR_UNAUTHORIZED"


def test_undeclared_methods_answer_405_with_allow(http: httpx.Client) -> None:
    response = http.post("/v3/jobs/metadata")
    assert response.status_code == 405
    assert set(response.headers["allow"].split(", ")) == {"GET", "HEAD"}
    allowed = http.request("PATCH", "/v3/configs/").headers["allow"]
    assert set(allowed.split(", ")) == {"GET", "HEAD", "PUT", "DELETE"}


def test_paths_work_with_and_without_trailing_slash(http: httpx.Client) -> None:
    assert http.get("/v3/printers", params={"$top": 1}).status_code == 200
    assert http.get("/v3").json()["api"] == "v3"
    assert http.get("/v3/printers/printer1/").json()["_id"] == "printer1"


def test_unknown_paths_answer_json_404(http: httpx.Client) -> None:
    response = http.get("/v4/things")
    assert response.status_code == 404
    assert response.json()["code"] == "ERR_NOT_FOUND"


def test_names_with_spaces_and_slashes_are_addressable(http: httpx.Client) -> None:
    assert http.get("/v3/printers/Lobby%20Color%201").json()["_id"] == "Lobby Color 1"
    created = http.post("/v3/printers/", json={"_id": "site/a 100%", "config": {"connection": "socket://x:9100"}})
    assert created.status_code == 200
    fetched = http.get("/v3/printers/site%2Fa%20100%25")
    assert fetched.status_code == 200
    assert fetched.json()["config"] == {"printer": "site/a 100%", "connection": "socket://x:9100"}
    assert http.delete("/v3/printers/site%2Fa%20100%25").status_code == 200
    assert http.get("/v3/printers/site%2Fa%20100%25").status_code == 404


def test_content_types_of_files(http: httpx.Client) -> None:
    job_id = http.get("/v3/jobs/", params={"$top": 1}).json()[0]["_id"]
    logfile = http.get(f"/v3/jobs/{job_id}/logfile")
    assert logfile.headers["content-type"].startswith("text/plain")
    assert "checked in" in logfile.text
    bundle = http.get(f"/v3/jobs/{job_id}/collect")
    assert bundle.headers["content-type"] == "application/octet-stream"
    assert bundle.content.startswith(b"PK")


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("POST", "/v3/flows/", {"source": "x"}, 400),  # declared 400
        ("POST", "/v3/flows/", {"name": ""}, 400),
        ("PUT", "/v3/jobs/{job}/move", {}, 412),  # no target printer
        ("PUT", "/v3/printers/printer1/redirect", {"printerName": 5}, 412),
        ("POST", "/v3/printers/", {"config": {}}, 404),  # no 400 declared: see api.py
        ("PUT", "/v3/printers/printer1/message", {"message": 1}, 404),
        ("PUT", "/v3/printers/printer1/runtime", {"queuedJobs": "many"}, 404),
        ("PUT", "/v3/configs/", [1, 2], 404),
    ],
)
def test_invalid_bodies_are_refused_with_a_declared_status(
    http: httpx.Client, method: str, path: str, body: object, status: int
) -> None:
    job_id = http.get("/v3/jobs/", params={"$top": 1}).json()[0]["_id"]
    response = http.request(method, path.format(job=job_id), json=body)
    assert response.status_code == status
    assert response.json()["message"].startswith("Invalid request body")


def test_a_body_that_is_not_json_is_refused(http: httpx.Client) -> None:
    response = http.post("/v3/flows/", content=b"\x00{", headers={"content-type": "application/json"})
    assert response.status_code == 400
