"""How the simulated server answers where the interface document shows no body: each guess and its
plausible alternatives.

The simulator's defaults serve ``openapi.yaml``'s guesses. A real PLOSSYS server may answer otherwise, so
every guess is a setting (:class:`Variants`, ``--variant name=value`` on the command line) and the test
suite runs every operation against every alternative (``simulator/tests/test_sim_variants.py``);
``printmgmt doctor`` must report each alternative as its difference.

=================  ====================  ==========================================================
setting            default (the guess)   alternatives
=================  ====================  ==========================================================
``write_answer``   ``object``            ``ack`` (``{"ok": true}``), ``text`` (``OK``), ``empty`` (204)
``open_reads``     ``object``            ``array``, ``scalar``, ``text`` (reads the document shows no
                                         body for: root, roles, metadata, statistics, page info)
``list_reads``     ``array``             ``wrapped`` (``{"results": [...]}``), ``text`` (one item a
                                         line): flows and logs
``list_shape``     ``middleware``        ``results`` (always wrapped), ``value`` (``{"value": [...],
                                         "odata.count": n}``), ``verbose`` (``{"d": {"results":
                                         [...], "__count": "n"}}``): job and printer lists
``count_form``     ``usual``             ``string`` (``"23"``), ``float`` (``23.0``), ``none`` (``$inlinecount``
                                         ignored: no total): the total of a counted job or printer list
                                         (usual: a number; a string in ``verbose``)
``skip``           ``honoured``          ``ignored``: ``$skip`` never reaches the server (a proxy strips it)
``top_zero``       ``everything``        ``nothing``: ``$top=0`` answers no item (to MongoDB a limit of 0 is
                                         none: every matching item comes)
``nulls``          ``off``               ``on``: optional fields of jobs and printers as null or as
                                         another type (``copies: "2"``)
``status_form``    ``capitalised``       ``prefixed``: ``job-waitprocessing`` (the stored value stays)
``auth_errors``    ``json``              ``text``: 401/403 as plain ``Unauthorized``/``Forbidden``
``unknown_routes`` ``json``              ``express``: Express's HTML ``Cannot GET /path`` 404
``bad_bodies``     ``spec``              ``400``: an unreadable or invalid request body answers 400
                                         (Express's HTML page when it is not JSON)
``job_ids``        ``objectid``          ``string``: job keys stored as strings, so a ``$filter`` by a
                                         24-hex ``_id`` (an ObjectId to the server) finds nothing
=================  ====================  ==========================================================
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args, get_type_hints

from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from printmgmt.page_shapes import CountType, PageForm, write_page
from printmgmt_api.operations import OperationSpec

__all__ = ["Variants", "alternatives", "express_page", "parse_variant", "query_options", "render"]


@dataclass(frozen=True, slots=True)
class Variants:
    """One way a real server may answer; the defaults are the spec's guesses (see the module's table)."""

    write_answer: Literal["object", "ack", "text", "empty"] = "object"
    open_reads: Literal["object", "array", "scalar", "text"] = "object"
    list_reads: Literal["array", "wrapped", "text"] = "array"
    list_shape: Literal["middleware", "results", "value", "verbose"] = "middleware"
    count_form: Literal["usual", "string", "float", "none"] = "usual"
    skip: Literal["honoured", "ignored"] = "honoured"
    top_zero: Literal["everything", "nothing"] = "everything"
    nulls: Literal["off", "on"] = "off"
    status_form: Literal["capitalised", "prefixed"] = "capitalised"
    auth_errors: Literal["json", "text"] = "json"
    unknown_routes: Literal["json", "express"] = "json"
    bad_bodies: Literal["spec", "400"] = "spec"
    job_ids: Literal["objectid", "string"] = "objectid"


_CHOICES: Final[dict[str, tuple[str, ...]]] = {name: get_args(hint) for name, hint in get_type_hints(Variants).items()}


def alternatives() -> Iterator[tuple[str, str]]:
    """Every (setting, value) that differs from the default: one alternative at a time."""
    default = Variants()
    for name, choices in _CHOICES.items():
        for choice in choices:
            if choice != getattr(default, name):
                yield name, choice


def parse_variant(text: str, base: Variants | None = None) -> Variants:
    """``base`` with one ``name=value`` setting changed; ValueError naming the choices otherwise."""
    name, _, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if name not in _CHOICES:
        raise ValueError(f"unknown variant {name!r}; settings: {', '.join(_CHOICES)}")
    if value.strip() not in _CHOICES[name]:
        raise ValueError(f"variant {name} must be one of {', '.join(_CHOICES[name])}, not {value!r}")
    changes: dict[str, Any] = {name: value.strip()}
    return dataclasses.replace(base or Variants(), **changes)


def express_page(status: int, text: str) -> Response:
    """Express's default error page (``finalhandler``): HTML with the message in a ``<pre>``."""
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n'
        f"<body>\n<pre>{text}</pre>\n</body>\n</html>\n"
    )
    return HTMLResponse(page, status_code=status)


def render(variants: Variants, spec: OperationSpec, result: Any) -> Response:
    """The answer to an operation whose handler returned ``result``, as ``variants`` say."""
    if isinstance(result, Response):
        return result
    result = _documents(variants, result, jobs=spec.path.startswith("/v3/jobs"))
    if spec.answer in ("written", "action"):
        return _write_answer(variants.write_answer, result)
    if spec.answer == "open":
        return _open_read(variants.open_reads, spec, result)
    if spec.answer == "list":
        return _list_read(variants.list_reads, result)
    if spec.pages:
        return JSONResponse(_page(variants, result))
    return JSONResponse(result)


def _write_answer(kind: str, result: Any) -> Response:
    if kind == "ack":
        return JSONResponse({"ok": True})
    if kind == "text":
        return PlainTextResponse("OK")
    if kind == "empty":
        return Response(status_code=204)
    return JSONResponse(result)


def _open_read(kind: str, spec: OperationSpec, result: Any) -> Response:
    if kind == "array":
        inner = result.get(spec.wrap) if isinstance(result, dict) else None
        return JSONResponse(inner if isinstance(inner, list) else list(_leaves(result)))
    if kind == "scalar":
        return JSONResponse(next(iter(_leaves(result)), 0))
    if kind == "text":
        return PlainTextResponse(" ".join(str(leaf) for leaf in _leaves(result)))
    return JSONResponse(result)


def _list_read(kind: str, result: Any) -> Response:
    if kind == "wrapped":
        return JSONResponse(write_page("results", result, len(result)))
    if kind == "text":
        return PlainTextResponse("".join(f"{_line(item)}\n" for item in result))
    return JSONResponse(result)


def _line(item: Any) -> str:
    if isinstance(item, dict):
        return str(item.get("message") or item.get("name") or item)
    return str(item)


def _page(variants: Variants, result: Any) -> Any:
    """A job or printer list: the middleware's bare array (``{results, totalCount}`` with ``$inlinecount``)
    or another plausible page shape (:mod:`printmgmt.page_shapes`), its total as ``count_form`` says."""
    items, total = (result["results"], result["totalCount"]) if isinstance(result, dict) else (result, None)
    kind = variants.list_shape
    if kind == "results" and total is None:
        total = len(items)  # always wrapped, always counted
    if variants.count_form == "none":
        total = None
    form: PageForm = ("array" if total is None else "results") if kind == "middleware" else kind
    count_type: CountType | None = variants.count_form if variants.count_form in ("string", "float") else None
    return write_page(form, items, total, count_type=count_type)


def query_options(variants: Variants, options: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The query options as the server's engine reads them: without ``$skip`` when a proxy strips it;
    ``$top=0`` as no limit, or (``top_zero=nothing``) as a window past the last item, which keeps the count."""
    if variants.skip == "ignored":
        options = [(key, value) for key, value in options if key != "$skip"]
    if any(key == "$top" and value.strip() == "0" for key, value in options):
        rest = [(key, value) for key, value in options if key != "$top"]
        if variants.top_zero == "everything":
            return rest
        return [*(item for item in rest if item[0] != "$skip"), ("$top", "1"), ("$skip", str(2**53))]
    return options


def _leaves(value: Any) -> Iterator[Any]:
    """The scalar values of a JSON value, depth first."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif value is not None:
        yield value


# -- documents: nulls and status spellings ----------------------------------------------------------


def _documents(variants: Variants, result: Any, *, jobs: bool) -> Any:
    if variants.nulls == "off" and variants.status_form == "capitalised":
        return result
    if isinstance(result, list):
        return [_document(variants, item, jobs) for item in result]
    if isinstance(result, dict) and isinstance(result.get("results"), list):
        return {**result, "results": [_document(variants, item, jobs) for item in result["results"]]}
    return _document(variants, result, jobs)


def _document(variants: Variants, doc: Any, is_job: bool) -> Any:
    if not isinstance(doc, dict) or "_id" not in doc:
        return doc
    doc = dict(doc)
    if is_job and variants.status_form == "prefixed" and isinstance(doc.get("status"), str):
        doc["status"] = f"job-{doc['status'].lower()}"
    if variants.nulls == "on":
        if is_job:
            doc["refId"] = None
            doc["orig"] = None
            if isinstance(doc.get("current"), dict):
                current = doc["current"] = dict(doc["current"])
                if "copies" in current:
                    current["copies"] = str(current["copies"])
                current["server"] = None
        else:
            doc["physical"] = None
            if isinstance(doc.get("runtime"), dict):
                runtime = doc["runtime"] = dict(doc["runtime"])
                runtime["queuedJobs"] = str(runtime.get("queuedJobs", 0))
                runtime["message"] = None
    return doc
