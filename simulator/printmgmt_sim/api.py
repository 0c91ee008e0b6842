"""Every operation of ``openapi.yaml``, each declared once with its permission and handler.

Every request takes the same path through :func:`_run`: automatic job steps due by now are applied,
then the bearer token is checked (401), the caller's roles (403, see :mod:`printmgmt_sim.access`), the
path's target is loaded (404 for an unknown job, printer or flow), the body is checked against the
request body schema the spec declares (:mod:`printmgmt_sim.bodies`), and the handler runs; a broken rule
answers 412 (see :mod:`printmgmt_sim.rules`), list options the query middleware refuses its plain-text 400
(see :mod:`printmgmt_sim.listquery`), and a list query MongoDB refuses a 500 (see :mod:`printmgmt_sim.engine`).

An invalid body answers 400 where the operation declares 400 (``createFlow``), 412 for move and
redirect (no usable target printer), and otherwise 404, the only client-error status those operations
declare besides 401/403 (the spec declares no 400 for them).

A declared body field the handler neither reads nor declares ``ignores`` is the simulator dropping part of the
contract: it is logged and counted in :attr:`Backend.unhonoured` (a test keeps that empty for every operation).

Paths are served with and without their trailing slash (Express routes both).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from printmgmt.server import QueryRefused
from printmgmt_api.operations import OPERATIONS as SPEC_OPERATIONS
from printmgmt_api.operations import OperationSpec

from . import artifacts, bodies, listquery, reports
from .access import Permission, authenticate, authorize
from .backend import Backend
from .engine import QueryRejected
from .errors import Problem, plain_bad_request
from .idp import Principal
from .model import Doc
from .paths import path_param
from .rules import Env, RuleViolation
from .schemas import REQUEST_BODIES
from .settings import ROLES
from .store import Collection, JobRecord
from .variants import express_page, query_options, render

__all__ = ["OPERATIONS", "Operation", "routes"]

_log = logging.getLogger(__name__)

#: The interface version the simulator implements.
API_VERSION: Final = "11.2.0"

Result = Doc | list[Any] | Response


@dataclass(frozen=True, slots=True)
class Call:
    """Everything a handler gets: the checked caller, the loaded target and the checked body."""

    backend: Backend
    request: Request
    principal: Principal
    target: Any
    body: bodies.Body

    @property
    def env(self) -> Env:
        return self.backend.env(self.principal.username)

    @property
    def job(self) -> JobRecord:
        return cast(JobRecord, self.target)

    @property
    def doc(self) -> Doc:
        return cast(Doc, self.target)


Handler = Callable[[Call], Result]


@dataclass(frozen=True, slots=True)
class Operation:
    operation_id: str
    method: str
    path: str
    permission: Permission
    handler: Handler
    rejects_body_with: int = 404
    ignores: frozenset[str] = frozenset()

    @property
    def body(self) -> str | None:
        """The component schema of its JSON request body (from the spec), or None."""
        return REQUEST_BODIES.get(self.operation_id)


OPERATIONS: list[Operation] = []


def operation(
    operation_id: str,
    permission: Permission,
    *,
    rejects_body_with: int = 404,
    ignores: frozenset[str] = frozenset(),
) -> Callable[[Handler], Handler]:
    """Declare a handler as the implementation of one operation of the spec; its method, path, target (what its
    path key names, loaded before the handler runs) and body schema come from the spec (``printmgmt_api``,
    generated from openapi.yaml). ``ignores`` names the declared body fields the simulator accepts and drops."""
    spec = SPEC_OPERATIONS[operation_id]

    def register(handler: Handler) -> Handler:
        OPERATIONS.append(
            Operation(operation_id, spec.method, spec.path, permission, handler, rejects_body_with, ignores)
        )
        return handler

    return register


# -- the one request path ---------------------------------------------------------------------------


def routes(backend: Backend) -> list[Route]:
    """Starlette routes for every operation; an undeclared method on a known path answers 405."""
    by_path: dict[str, dict[str, Operation]] = {}
    for op in OPERATIONS:
        by_path.setdefault(op.path, {})[op.method] = op
    result = []
    for path, methods in by_path.items():
        endpoint = _endpoint(backend, methods)
        for variant in dict.fromkeys((path, path.rstrip("/") or "/", path.rstrip("/") + "/")):
            result.append(Route(variant, endpoint, methods=list(methods)))
    return result


def _endpoint(backend: Backend, methods: dict[str, Operation]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        op = methods["GET" if request.method == "HEAD" else request.method]
        return await _run(backend, op, request)

    return endpoint


async def _run(backend: Backend, op: Operation, request: Request) -> Response:
    backend.advance()
    principal = authenticate(request.headers.get("authorization"), backend.idp)
    authorize(principal, op.permission, SPEC_OPERATIONS[op.operation_id].area, backend.settings.allowed_clients)
    variants = backend.settings.variants
    if variants.bad_bodies == "400" and op.body is not None and not _is_json(await request.body()):
        # Express's body-parser runs before any route: an unreadable body is refused before the target is looked up
        return express_page(400, "SyntaxError: Unexpected token in JSON at position 0")
    target = _load(backend, SPEC_OPERATIONS[op.operation_id], request)
    body = bodies.Body({})
    if op.body is not None:
        try:
            body = bodies.read(await request.body(), op.body)
        except bodies.BodyError as exc:
            if variants.bad_bodies == "400":
                raise Problem(400, f"Invalid request body: {exc}") from exc
            raise Problem(op.rejects_body_with, f"Invalid request body: {exc}") from exc
    try:
        result = op.handler(Call(backend, request, principal, target, body))
    except RuleViolation as exc:
        raise Problem(412, exc.message, metadata=exc.metadata) from exc
    if op.body is not None and (unread := body.unread(op.body, op.ignores)):
        _log.warning("%s dropped the body fields %s", op.operation_id, sorted(unread))
        backend.unhonoured.update((op.operation_id, name) for name in unread)
    return render(variants, SPEC_OPERATIONS[op.operation_id], result)


def _is_json(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


def _load(backend: Backend, spec: OperationSpec, request: Request) -> Any:
    """What the operation's path key names (``x-printmgmt`` ``target``), or None when it names nothing."""
    if spec.target is None or spec.key is None:
        return None
    key = path_param(request, spec.key)
    store = backend.store
    found: Any = {"job": store.job, "printer": store.printer, "flow": store.flow}[spec.target](key)
    if found is None:
        raise Problem(404, f"{spec.target.capitalize()} '{key}' not found.", metadata={spec.key: key})
    return found


def _list(call: Call, collection: Collection) -> Result:
    settings = call.backend.settings
    try:
        items = query_options(settings.variants, call.request.query_params.multi_items())
        query, count = listquery.read(items, max_depth=settings.max_depth)
        docs, total = call.backend.store.find(
            collection, query, job_ids=settings.variants.job_ids, cap=settings.max_top
        )
    except QueryRefused:
        return plain_bad_request()
    except QueryRejected as exc:
        raise Problem(500, str(exc)) from exc
    return {"results": docs, "totalCount": total} if count else docs


# -- root and auth ----------------------------------------------------------------------------------

R, J, P = Permission.READ, Permission.JOBS, Permission.PRINTERS


@operation("getServiceRoot", Permission.SIGNED_IN)
def service_root(call: Call) -> Result:
    return {
        "name": "seal-rest",
        "version": API_VERSION,
        "product": "PLOSSYS Output Engine (printmgmt simulator)",
        "links": {"v3": "/v3/"},
        "auth": {"url": call.backend.idp.issuer},
    }


@operation("getVersionInfo", Permission.SIGNED_IN)
def version_info(call: Call) -> Result:
    resources = ["auth", "configs", "flows", "jobs", "printers", "statistics"]
    return {"name": "seal-rest", "version": API_VERSION, "api": "v3", "resources": resources}


@operation("getUserRoles", Permission.SIGNED_IN)
def user_roles(call: Call) -> Result:
    roles = [role for role in call.principal.roles if role in ROLES]
    return {"user": call.principal.username, "roles": roles, "client": call.principal.client_id}


# -- configs ----------------------------------------------------------------------------------------


@operation("getConfig", R)
def get_config(call: Call) -> Result:
    return call.backend.store.config()


@operation("replaceConfig", Permission.CONFIGS)
def replace_config(call: Call) -> Result:
    call.backend.store.set_config(dict(call.body))
    return call.backend.store.config()


@operation("deleteConfig", Permission.CONFIGS)
def delete_config(call: Call) -> Result:
    call.backend.store.set_config({})
    return {"message": "Configuration deleted."}


# -- flows ------------------------------------------------------------------------------------------


@operation("listFlows", R)
def list_flows(call: Call) -> Result:
    return call.backend.store.flows()


@operation("createFlow", Permission.FLOWS, rejects_body_with=400)
def create_flow(call: Call) -> Result:
    flow = {"type": "custom", "source": "", **call.body}
    call.backend.store.save_flow(flow)
    return flow


@operation("getFlow", R)
def get_flow(call: Call) -> Result:
    return call.doc


@operation("deleteFlow", Permission.FLOWS)
def delete_flow(call: Call) -> Result:
    call.backend.store.delete_flow(call.doc["name"])
    return {"message": f"Flow {call.doc['name']} deleted."}


# -- jobs -------------------------------------------------------------------------------------------


@operation("listJobs", R)
def list_jobs(call: Call) -> Result:
    return _list(call, "jobs")


@operation("getJobsMetadata", R)
def jobs_metadata(call: Call) -> Result:
    return reports.jobs_metadata()


@operation("getJob", R)
def get_job(call: Call) -> Result:
    return call.job.doc


@operation("deleteJob", J)
def delete_job(call: Call) -> Result:
    return call.env.delete_job(call.job)


@operation("cancelJob", J)
def cancel_job(call: Call) -> Result:
    return call.env.cancel_job(call.job)


@operation("collectJob", R)
def collect_job(call: Call) -> Result:
    data = artifacts.collect(call.job.doc, call.backend.store.logs("job", call.job.id))
    disposition = f'attachment; filename="job-{call.job.id}.zip"'
    return Response(data, media_type="application/octet-stream", headers={"Content-Disposition": disposition})


@operation("getJobLogfile", R)
def job_logfile(call: Call) -> Result:
    return PlainTextResponse(artifacts.logfile(call.backend.store.logs("job", call.job.id)))


@operation("getJobLogs", R)
def job_logs(call: Call) -> Result:
    return call.backend.store.logs("job", call.job.id)


@operation("moveJob", J, rejects_body_with=412)
def move_job(call: Call) -> Result:
    return call.env.move_job(call.job, call.body["printerName"])


@operation("getJobPageinfo", R)
def job_pageinfo(call: Call) -> Result:
    return artifacts.pageinfo(call.job.doc)


@operation("pauseJob", J)
def pause_job(call: Call) -> Result:
    return call.env.pause_job(call.job)


@operation("repeatJob", J)
def repeat_job(call: Call) -> Result:
    return call.env.repeat_job(call.job)


@operation("resumeJob", J)
def resume_job(call: Call) -> Result:
    return call.env.resume_job(call.job)


@operation("saveJobTempfiles", J)
def job_tempfiles(call: Call) -> Result:
    return call.env.keep_tempfiles(call.job)


# -- printers ---------------------------------------------------------------------------------------


@operation("listPrinters", R)
def list_printers(call: Call) -> Result:
    return _list(call, "printers")


@operation("createPrinter", P)
def create_printer(call: Call) -> Result:
    return call.env.store_printer(dict(call.body), call.body["_id"])


@operation("getPrintersMetadata", R)
def printers_metadata(call: Call) -> Result:
    return reports.printers_metadata()


@operation("getPrinter", R)
def get_printer(call: Call) -> Result:
    return call.doc


@operation("updatePrinter", P)
def update_printer(call: Call) -> Result:
    return call.env.store_printer(dict(call.body), call.doc["_id"])


@operation("deletePrinter", P)
def delete_printer(call: Call) -> Result:
    return call.env.delete_printer(call.doc)


@operation("checkPrinterPhysical", P)
def check_physical(call: Call) -> Result:
    return call.env.check_physical(call.doc)


@operation("createPrinterTestJob", P)
def create_test_job(call: Call) -> Result:
    return call.env.create_test_job(call.doc)


@operation("getPrinterLogs", R)
def printer_logs(call: Call) -> Result:
    return call.backend.store.logs("printer", call.doc["_id"])


@operation("setPrinterMessage", P)
def set_printer_message(call: Call) -> Result:
    return call.env.set_message(call.doc, call.body["message"])


@operation("clearPrinterMessage", P)
def clear_printer_message(call: Call) -> Result:
    return call.env.clear_message(call.doc)


@operation("pausePrinter", P)
def pause_printer(call: Call) -> Result:
    return call.env.pause_printer(call.doc)


@operation("redirectPrinter", P, rejects_body_with=412)
def redirect_printer(call: Call) -> Result:
    return call.env.redirect_printer(call.doc, call.body["printerName"])


@operation("resumePrinter", P)
def resume_printer(call: Call) -> Result:
    return call.env.resume_printer(call.doc)


@operation("updatePrinterRuntime", P)
def update_printer_runtime(call: Call) -> Result:
    return call.env.update_runtime(call.doc, dict(call.body))


# -- statistics -------------------------------------------------------------------------------------


@operation("getJobCount", R)
def job_count(call: Call) -> Result:
    return reports.job_count(call.backend.store, call.request.query_params)


@operation("getJobSeries", R)
def job_series(call: Call) -> Result:
    return reports.job_series(call.backend.store, call.request.query_params, call.backend.clock.now_ms())


@operation("getStatisticsMetadata", R)
def statistics_metadata(call: Call) -> Result:
    return reports.statistics_metadata()


@operation("getPrinterCount", R)
def printer_count(call: Call) -> Result:
    return reports.printer_count(call.backend.store)
