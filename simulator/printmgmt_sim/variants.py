"""How the simulated server answers where the interface document shows no body: each guess and its
plausible alternatives.

The simulator's defaults serve ``openapi.yaml``'s guesses. A real PLOSSYS server may answer otherwise, so
every guess is a setting of the server's profile (:class:`printmgmt_cli.profile.Variants`, whose module names
each setting and its values; ``--variant name=value`` on the command line). This module answers as they
say. The test suite runs every operation against every alternative (``simulator/tests/test_sim_variants.py``),
and ``printmgmt doctor`` must report each alternative as its difference.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from printmgmt_cli.profile import (
    COUNT_TYPES,
    PAGE_FORMS,
    CountForm,
    ListReads,
    ListShape,
    Nulls,
    OpenReads,
    Skip,
    StatusForm,
    TopZero,
    Variants,
    WriteAnswer,
    alternatives,
    parse_variant,
)
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from printmgmt.server import FORMS, CountType, PageForm
from printmgmt_api.operations import OperationSpec

__all__ = ["Variants", "alternatives", "express_page", "parse_variant", "query_options", "render"]


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


def _write_answer(kind: WriteAnswer, result: Any) -> Response:
    if kind == WriteAnswer.ACK:
        return JSONResponse({"ok": True})
    if kind == WriteAnswer.TEXT:
        return PlainTextResponse("OK")
    if kind == WriteAnswer.EMPTY:
        return Response(status_code=204)
    return JSONResponse(result)


def _open_read(kind: OpenReads, spec: OperationSpec, result: Any) -> Response:
    if kind == OpenReads.ARRAY:
        inner = result.get(spec.wrap) if isinstance(result, dict) else None
        return JSONResponse(inner if isinstance(inner, list) else list(_leaves(result)))
    if kind == OpenReads.SCALAR:
        return JSONResponse(next(iter(_leaves(result)), 0))
    if kind == OpenReads.TEXT:
        return PlainTextResponse(" ".join(str(leaf) for leaf in _leaves(result)))
    return JSONResponse(result)


def _list_read(kind: ListReads, result: Any) -> Response:
    if kind == ListReads.WRAPPED:
        return JSONResponse(write_page("results", result, len(result)))
    if kind == ListReads.TEXT:
        return PlainTextResponse("".join(f"{_line(item)}\n" for item in result))
    return JSONResponse(result)


def _line(item: Any) -> str:
    if isinstance(item, dict):
        return str(item.get("message") or item.get("name") or item)
    return str(item)


def _page(variants: Variants, result: Any) -> Any:
    """A job or printer list: the middleware's bare array (``{results, totalCount}`` with ``$inlinecount``)
    or another plausible page shape (:mod:`printmgmt.server`), its total as ``count_form`` says."""
    items, total = (result["results"], result["totalCount"]) if isinstance(result, dict) else (result, None)
    kind = variants.list_shape
    if kind == ListShape.RESULTS and total is None:
        total = len(items)  # always wrapped, always counted
    if variants.count_form == CountForm.NONE:
        total = None
    form: PageForm = ("array" if total is None else "results") if kind == ListShape.MIDDLEWARE else PAGE_FORMS[kind]
    count_type = COUNT_TYPES.get(variants.count_form)
    return write_page(form, items, total, count_type=count_type)


def query_options(variants: Variants, options: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The query options as the server's engine reads them: without ``$skip`` when a proxy strips it;
    ``$top=0`` as no limit, or (``top_zero=nothing``) as a window past the last item, which keeps the count."""
    if variants.skip == Skip.IGNORED:
        options = [(key, value) for key, value in options if key != "$skip"]
    if any(key == "$top" and value.strip() == "0" for key, value in options):
        rest = [(key, value) for key, value in options if key != "$top"]
        if variants.top_zero == TopZero.EVERYTHING:
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
    if variants.nulls == Nulls.OFF and variants.status_form == StatusForm.CAPITALISED:
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
    if is_job and variants.status_form == StatusForm.PREFIXED and isinstance(doc.get("status"), str):
        doc["status"] = f"job-{doc['status'].lower()}"
    if variants.nulls == Nulls.ON:
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


def write_page(
    form: PageForm,
    items: list[Any],
    total: int | None,
    *,
    count_type: CountType | None = None,
    count_key: str | None = None,
) -> Any:
    """A page of ``form`` (:data:`printmgmt.server.FORMS`) holding ``items``, with ``total`` under
    ``count_key`` as ``count_type`` (by default the form's usual key and type); an array carries no total."""
    shape = FORMS[form]
    if shape.items is None:
        return items
    body: dict[str, Any] = {shape.items: items}
    if total is not None and shape.counts:
        count: Any = {"int": total, "string": str(total), "float": float(total)}[count_type or shape.count_type]
        body[count_key or shape.counts[0]] = count
    return {shape.envelope: body} if shape.envelope else body
