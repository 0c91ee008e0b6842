"""How a 2xx answer becomes a result, as each operation's ``x-printmgmt.answer`` in ``openapi.yaml`` declares
(README "Tolerance rules")."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

import httpx

from printmgmt_api.operations import Operation, OperationSpec

from ._json import loads
from ._lazy import lazy
from ._model_runtime import LENIENT_ERRORS, KeyFieldError
from .errors import InvalidResponse, invalid_response, is_html, response_context
from .server import list_items, read_page

logger = logging.getLogger("printmgmt")

T = TypeVar("T")
M = TypeVar("M")


def parse(operation: Operation[T], response: httpx.Response) -> T:
    """The typed result of a 2xx answer; :class:`~printmgmt.errors.InvalidResponse` when it cannot be read."""
    spec = operation.spec
    with _reading(spec, response):
        if operation.body == "text":
            return operation.parse_ok(response.text)
        if operation.body != "json":
            return operation.parse_ok(response.content)
        if spec.answer == "model":
            data: Any = loads(response.content)
            if spec.pages:
                page = read_page(data)  # any known form, in the shape the spec declares; else as it is, for its error
                if page is not None and page.form != "array":
                    data = {"results": page.items} | ({} if page.total is None else {"totalCount": page.total})
                return operation.parse_ok(data)
            model = _model_of(operation.parse_ok)
            if model is not None and isinstance(data, dict):
                return cast(T, lazy(model, data))  # decoded on access, as list items are
            return operation.parse_ok(data)
        return operation.parse_ok(_tolerated(spec, _decode(spec, response)))


def parse_page(operation: Operation[Any], response: httpx.Response, item: type[M]) -> tuple[list[M], int | None]:
    """A list page's items (any form :mod:`printmgmt.server` reads) as models decoded on access, and its total."""
    with _reading(operation.spec, response):
        data = loads(response.content)
        page = read_page(data)
        if page is None:
            operation.parse_ok(data)  # raises the reference path's error for this shape
            raise TypeError(f"a list page, not {type(data).__name__}")
        return [lazy(item, document) for document in page.items], page.total


@functools.cache
def _model_of(parser: Callable[[Any], Any]) -> type[Any] | None:
    """The generated model an operation's parser returns (from its annotation), else None."""
    returned = getattr(parser, "__annotations__", {}).get("return")
    return returned if isinstance(returned, type) and hasattr(returned, "WIRE_NAMES") else None


@contextlib.contextmanager
def _reading(spec: OperationSpec, response: httpx.Response) -> Iterator[None]:
    """Parser failures as :class:`~printmgmt.errors.InvalidResponse`."""
    try:
        yield
    except json.JSONDecodeError as exc:
        raise invalid_response(response, operation=spec.name, problem=f"not valid JSON ({exc})") from exc
    except (*LENIENT_ERRORS, KeyFieldError) as exc:
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise invalid_response(
            response, operation=spec.name, problem=f"does not match the declared schema ({detail})"
        ) from exc


def parse_written(operation: Operation[T], response: httpx.Response) -> T | None:
    """The written object when a write's 2xx answer holds it, else None: the change has happened, so nothing but
    an HTML page (someone else's answer) raises."""
    spec = operation.spec
    data = _decode(spec, response)
    if not isinstance(data, dict):
        reason = "(empty)" if data is _EMPTY else f"({type(data).__name__})"
    else:
        try:
            return operation.parse_ok(data)
        except (*LENIENT_ERRORS, KeyFieldError) as exc:
            reason = f"({type(exc).__name__}: {exc})"
    logger.info("%s: the %d answer holds no written object %s; returning None", spec.name, response.status_code, reason)
    return None


_EMPTY: Any = object()


def _decode(spec: OperationSpec, response: httpx.Response) -> Any:
    """The answer's JSON value, its text when it is not JSON, or ``_EMPTY``; an HTML page raises."""
    text = response.text.strip()
    if not text:
        return _EMPTY
    if is_html(text):
        raise InvalidResponse(
            f"{spec.name}: the {response.status_code} answer is an HTML page, not the server's answer "
            "(a proxy or a sign-in page?); the call may not have been carried out",
            operation=spec.name,
            **response_context(response),
        )
    try:
        return loads(response.content)
    except ValueError:
        return text


def _tolerated(spec: OperationSpec, data: Any) -> Any:
    """``data`` in the shape the declared parser reads, by the declaration's ``answer`` and ``wrap``."""
    if data is _EMPTY:
        return [] if spec.answer == "list" else {}
    if spec.answer == "list":
        return [item if isinstance(item, dict) else {spec.wrap: item} for item in list_items(data)]
    if isinstance(data, dict):
        return data
    if spec.answer == "action" and isinstance(data, str):
        return {"message": data}
    return {spec.wrap if isinstance(data, list) else "value": data}
