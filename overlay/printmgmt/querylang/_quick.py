"""A fast reading of the filters people type most: a field compared with a literal or a field,
``startswith``/``endswith``/``substringof`` with a quoted text, joined by ``and``/``or``, in parentheses,
after ``not `` and in ``any``/``all`` lambdas.

For a text entirely in that subset the server's answer is known without the full parser: it accepts it
(the grammar reads it, breeze translates every part), and the query document's field paths follow from the
text. Anything else (functions compared with anything but true/false, other functions and literals,
arithmetic, dotted names, quotes written ``%x27``, names the grammar reads as literals) gets ``None``: ask
the full reader. Each construct admitted here is read by the same rule as in
:mod:`._lexer` and :mod:`._mongo`; the differential test holds this reading to the server's own.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from ._lexer import DATETIME, DATETIMEOFFSET
from ._mongo import field_path, js_regex, member_key, text_pattern, text_value
from ._values import ObjectId

_NAME: Final = r"[A-Za-z_][A-Za-z0-9_-]++"
# a member path without dots; no segment after "/" begins with any/all (the grammar stops the path there),
# and the first is not read as the literal null/true/false, nor as "not "
_PATH: Final = rf"(?!null|true|false|not ){_NAME}(?:(?!/any|/all)/{_NAME})*+"
_TEXT: Final = r"'(?:''|[^'])*+'"
# a literal a comparison translates as is: a quoted text, an integer or decimal without exponent or suffix,
# true/false/null, a date-time or a guid; what follows it is checked by the step (a blank, ")" or the end)
_LITERAL: Final = (
    rf"{_TEXT}|-?(?:[1-9][0-9]*+|0)(?:\.[0-9]++)?+|true|false|null"
    rf"|datetime'(?:{DATETIME.pattern})'|datetimeoffset'(?:{DATETIMEOFFSET.pattern})'|guid'[^']++'"
)
_COMPARE: Final = r"(?:eq|ne|lt|le|gt|ge)"
# one step of the scan: "(" and "not " in any order, then a lambda's head, or an operand with the
# parentheses that close after it and the connector (or the end) after those; blanks where the grammar
# allows them: one or more around operators and after "not" and ":", any after "(" and before ")" and at
# the start, none at the end nor before "," or ")" of a function
_STEP: Final = re.compile(
    rf"(?P<head> *+(?:(?:\(|not ) *+)*+)(?:"
    rf"(?P<collection>{_PATH})/(?:any|all)\( *+(?P<variable>{_NAME}): ++"
    rf"|(?:(?P<member>{_PATH}) ++{_COMPARE} ++(?:{_LITERAL}|(?P<other>{_PATH}))"
    rf"|(?:(?P<function>startswith|endswith)\( *+(?P<field>{_PATH}), *+(?P<text>{_TEXT})\)"
    rf"|substringof\( *+(?P<subtext>{_TEXT}), *+(?P<subfield>{_PATH})\))(?: ++{_COMPARE} ++(?:true|false))?+)"
    r"(?P<closes>(?: *+\))*+)(?: ++(?P<connector>and|or) ++|\Z))"
)
_HEAD: Final = re.compile(r"\(|not ")
# deeper nesting is left to the full reader, which refuses more than 200 levels (see _options.MAX_NESTING)
_DEEPEST: Final = 50


class Common(NamedTuple):
    """A filter of the common subset: the server accepts it."""

    #: the field paths its query document names (``/`` between segments; inside a lambda, below the
    #: collection), in order without repeats
    paths: tuple[str, ...]
    #: whether ``and`` and ``or`` meet, or ``not `` stands before either, within one pair of parentheses:
    #: only then can the server group it otherwise than OData
    mixed: bool


_AND, _OR, _NOT = 1, 2, 4


def common_filter(text: str) -> Common | None:
    """What the server makes of a filter of the common subset; ``None`` for any other text (the caller
    caches: one reading per text)."""
    if "__proto__" in text:  # a key JavaScript objects do not keep
        return None
    paths: dict[str, None] = {}
    # per open group, whether it is a lambda (else a parenthesis); per group (and the whole), the connectors
    # and "not " seen in it; the open lambdas' variables and paths, innermost first
    scopes: list[bool] = []
    levels = [0]
    variables: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ("",)
    mixed = False
    position, end = 0, len(text)
    while True:
        step = _STEP.match(text, position)
        if step is None:
            return None
        head, collection, variable, member, other, function, field, quoted, subtext, subfield, closes, after = (
            step.groups()
        )
        position = step.end()
        for item in _HEAD.findall(head):
            if item == "(":
                scopes.append(False)
                levels.append(0)
            else:
                levels[-1] |= _NOT
        if len(scopes) > _DEEPEST:
            return None
        if collection is not None:
            # the collection's key is read with the lambda's own variable too
            path = prefixes[0] + field_path(member_key(collection, (variable, *variables)))
            paths[path] = None
            scopes.append(True)
            levels.append(0)
            variables, prefixes = (variable, *variables), (path + "/", *prefixes)
            continue
        text_argument = quoted or subtext
        if text_argument is not None and not _valid_pattern(function or "substringof", text_argument):
            return None
        if other is None:  # a field against a field is a $where: JavaScript, no path of the document
            field = member or field or subfield
            # outside lambdas a path without dots is its own key
            paths[prefixes[0] + field_path(member_key(field, variables)) if variables else field] = None
        for _ in closes.replace(" ", ""):
            if not scopes:
                return None
            if scopes.pop():
                variables, prefixes = variables[1:], prefixes[1:]
            levels.pop()
        if not after:  # the end of the text
            break
        if position == end:  # a connector with nothing after it
            return None
        level = levels[-1]
        connector = _AND if after == "and" else _OR
        mixed = mixed or bool(level & _NOT) or level | connector == _AND | _OR
        levels[-1] = level | connector
    if scopes:
        return None
    return Common(tuple(paths), mixed)


def _valid_pattern(function: str, quoted: str) -> bool:
    """Whether the regular expression breeze makes of a quoted text for ``function`` is valid JavaScript."""
    value = text_value(quoted[1:-1].replace("''", "'"))
    text = value.hex if isinstance(value, ObjectId) else value
    return not isinstance(js_regex(text_pattern(function, text)), str)
