"""A fast reading of the filters people type most: a field compared with a literal, ``startswith``/
``endswith``/``substringof`` with a quoted text, joined by ``and``/``or``, in parentheses, after ``not `` and
in ``any``/``all`` lambdas.

For a text entirely in that subset the server's answer is known without the full parser: it accepts it
(the grammar reads it, breeze translates every part), and the query document's field paths follow from the
text. Anything else (functions compared with anything but true/false, a field against a field, other
literals, dotted names, blanks other than one space between words, names the grammar reads as literals)
gets ``None``: ask the full reader. Each construct admitted here is read by the same rule as in
:mod:`._lexer` and :mod:`._mongo`; the differential test holds this reading to the server's own.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from ._mongo import js_regex, text_pattern, text_value
from ._values import ObjectId

_NAME: Final = r"[A-Za-z_][A-Za-z0-9_-]++"
# a member path without dots; no segment after "/" begins with any/all (the grammar stops the path there),
# and the first is not read as the literal null/true/false, nor as "not "
_PATH: Final = rf"(?!null|true|false|not ){_NAME}(?:(?!/any|/all)/{_NAME})*+"
_TEXT: Final = r"'(?:''|[^'])*+'"
# a literal a comparison translates as is: a quoted text, an integer or decimal without exponent or suffix,
# true/false/null; what follows it is checked by the step (a blank, ")" or the end)
_LITERAL: Final = rf"{_TEXT}|-?(?:[1-9][0-9]*+|0)(?:\.[0-9]++)?+|true|false|null"
_COMPARE: Final = r"(?:eq|ne|lt|le|gt|ge)"
# one step of the scan: "(" and "not " in any order, then a lambda's head, or an operand with the
# parentheses that close after it and the connector (or the end) after those
_STEP: Final = re.compile(
    rf"(?P<head>(?:\(|not )*+)(?:"
    rf"(?P<collection>{_PATH})/(?:any|all)\((?P<variable>{_NAME}): "
    rf"|(?:(?P<member>{_PATH}) {_COMPARE} (?:{_LITERAL})"
    rf"|(?:(?P<function>startswith|endswith)\((?P<field>{_PATH}),(?P<text>{_TEXT})\)"
    rf"|substringof\((?P<subtext>{_TEXT}),(?P<subfield>{_PATH})\))(?: {_COMPARE} (?:true|false))?+)"
    r"(?P<closes>\)*+)(?P<after> and | or |\Z))"
)
# parentheses this reading follows (the full reader's limit is far deeper, and its recursion is the reason)
_DEEPEST: Final = 50


@lru_cache(maxsize=256)
def common_filter_paths(text: str) -> tuple[str, ...] | None:
    """The field paths of a filter in the common subset, as its query document names them (``/`` between
    segments; inside a lambda, below the collection), in order without repeats; ``None`` for any other text."""
    if "__proto__" in text:  # a key JavaScript objects do not keep
        return None
    paths: dict[str, None] = {}
    # open groups: None for a parenthesis, (variable, path prefix) for a lambda
    scopes: list[tuple[str, str] | None] = []
    lambdas: list[tuple[str, str]] = []
    position, end = 0, len(text)
    while position < end:
        step = _STEP.match(text, position)
        if step is None:
            return None
        scopes += [None] * step["head"].count("(")
        if len(scopes) > _DEEPEST:
            return None
        prefix = lambdas[-1][1] if lambdas else ""
        position = step.end()
        if step["collection"] is not None:
            path = prefix + _resolved(step["collection"], step["variable"], lambdas)
            paths[path] = None
            lambdas.append((step["variable"], path + "/"))
            scopes.append(lambdas[-1])
            continue
        field = step["member"] or step["field"] or step["subfield"]
        quoted = step["text"] or step["subtext"]
        if quoted is not None and not _valid_pattern(step["function"] or "substringof", quoted):
            return None
        paths[prefix + _resolved(field, None, lambdas)] = None
        for _ in step["closes"]:
            if not scopes:
                return None
            if scopes.pop() is not None:
                lambdas.pop()
        if not step["after"]:  # the end of the text
            break
        if position == end:  # a connector with nothing after it
            return None
    if scopes or position != end:
        return None
    return tuple(paths)


def _valid_pattern(function: str, quoted: str) -> bool:
    """Whether the regular expression breeze makes of a quoted text for ``function`` is valid JavaScript."""
    value = text_value(quoted[1:-1].replace("''", "'"))
    text = value.hex if isinstance(value, ObjectId) else value
    return not isinstance(js_regex(text_pattern(function, text)), str)


def _resolved(path: str, own: str | None, lambdas: list[tuple[str, str]]) -> str:
    """``path`` as breeze keys it inside lambdas: ``var/`` removed once for each variable, innermost first
    (a lambda's collection also by its own variable), anywhere in the path."""
    if own is not None:
        path = path.replace(own + "/", "", 1)
    for variable, _ in reversed(lambdas):
        path = path.replace(variable + "/", "", 1)
    # the document's key has "." for "/", and its paths leave out array indexes
    if any(segment.isdigit() for segment in path.split("/")):
        path = "/".join(segment for segment in path.split("/") if not segment.isdigit())
    return path
