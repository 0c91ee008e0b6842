"""Why the grammar refused a text, in words, from the furthest position the parser reached."""

from __future__ import annotations

import re
from typing import Final

from . import _lexer as lx

_WORD: Final = re.compile(r"[A-Za-z0-9_-]+")
_WORD_BEFORE: Final = re.compile(r"[A-Za-z0-9_-]+\Z")
_NUMBER_TOKEN: Final = re.compile(r"[-+]?[0-9.]*[0-9][0-9A-Za-z.+-]*")
_ISO_DATE: Final = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.+Z-]*")
#: Everything up to a quote whose text never closes.
_CLOSED_TEXTS: Final = re.compile(r"(?:[^']++|'" + lx.STRING_BODY.pattern + "')*+")
_TYPED_OPEN: Final = re.compile(r"(datetimeoffset|datetime|binary|%d88)(?:'|%x27)")
_OTHER_BLANKS: Final = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\u00a0": "a no-break space"}
_OPERATOR_WORDS: Final = lx.COMPARISONS | lx.ARITHMETIC | {"and", "or", "not"}
_SHAPE: Final = "datetime'YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]'"
_SHAPE_OFFSET: Final = "datetimeoffset'YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)'"
_PUNCTUATION: Final = {
    "$": "'$' is not allowed in names",
    "*": "'*' is not accepted: name the fields",
    **dict.fromkeys("=<>!&|", "operators are words: eq ne lt le gt ge, and or, not"),
    '"': "texts are quoted with ' (a quote inside is doubled: '')",
}


def _word_at(text: str, i: int) -> str:
    m = _WORD.match(text, i)
    return m.group() if m else ""


def _word_before(text: str, i: int) -> tuple[str, int]:
    """The whole word that ends at ``i`` (none: ``""``) and where it starts."""
    m = _WORD_BEFORE.search(text, 0, i)
    return (m.group(), m.start()) if m else ("", i)


def _unclosed_paren(text: str) -> int | None:
    opened: list[int] = []
    quoted = False
    for i, c in enumerate(text):
        if c == "'":
            quoted = not quoted
        elif not quoted and c == "(":
            opened.append(i)
        elif not quoted and c == ")" and opened:
            opened.pop()
    return opened[-1] if opened else None


def explain(text: str, far: int, what: str = "filter") -> tuple[int, str]:
    """(position, reason) for a text the grammar refused, whose parse got furthest at ``far``."""
    n = len(text)
    c = text[far] if far < n else ""
    if c and c != " " and (c in _OTHER_BLANKS or c.isspace()):
        name = _OTHER_BLANKS.get(c, f"the character {c!r}")
        return far, f"only the space character separates words, not {name}"
    if not text.strip(" "):
        return 0, f"the {what} is blank"
    if not c and text.endswith(" "):
        start = len(text.rstrip(" "))
        return _ends_after_operator(text, start, what) or (start, f"a blank may not end the {what}")
    if not c and (closed := _CLOSED_TEXTS.match(text)) is not None and closed.end() < n:
        return closed.end(), "the quote opened here is never closed (a quote inside a text is written '')"
    found = (
        _inside_literal(text, far)
        or _word_reason(text, far, c)
        or (_number_reason(text, far, c) if c else None)
        or (_punctuation_reason(text, far, c) if c else None)
    )
    if found is not None:
        return found
    if c:
        return far, f"unexpected {(_word_at(text, far) or c)!r}"
    if (paren := _unclosed_paren(text)) is not None:
        return paren, "the parenthesis opened here is never closed"
    return _ends_after_operator(text, n, what) or (n, f"the {what} ends too early")


def _ends_after_operator(text: str, end: int, what: str) -> tuple[int, str] | None:
    last, start = _word_before(text, end)
    return (start, f"the {what} ends after '{last}': something must follow it") if last in _OPERATOR_WORDS else None


def _inside_literal(text: str, far: int) -> tuple[int, str] | None:
    """Reasons inside a typed literal (``datetime'…'``, ``binary'…'``) and for escaped quotes."""
    opened = max(_TYPED_OPEN.finditer(text, 0, far), key=lambda m: m.start(), default=None)  # the last one
    if opened is not None and "'" not in text[opened.end() : far]:
        keyword = opened.group(1)
        if keyword in ("binary", "%d88"):
            return opened.start(), f"a binary literal is written {keyword}'hh' (two hex digits)"
        shape = _SHAPE if keyword == "datetime" else _SHAPE_OFFSET
        return opened.start(), f"a {keyword} literal is written {shape}"
    if far >= 2 and text[far - 1] == "'" and text[far - 2] == "\\":
        return far - 2, "a quote inside a text is doubled (''), not escaped with a backslash"
    return None


def _word_reason(text: str, far: int, c: str) -> tuple[int, str] | None:
    """Reasons about the word at or just before ``far`` (``c``: the character there, or ""): case, length,
    keyword prefixes, any/all."""
    word, start = _word_before(text, far)
    here = _word_at(text, far)
    for candidate, at in ((here, far), (word, start)):
        lower = candidate.lower()
        if candidate != lower and lower in lx.KEYWORDS and (lower not in lx.LITERAL_WORDS or c == "'"):
            return at, f"keywords are lower case: {candidate} -> {lower}"
    full = word + here
    segment, segment_start = (_word_at(text, far + 1), far + 1) if c == "/" else (full, start)
    if text[segment_start - 1 : segment_start] == "/" and segment[:3] in ("any", "all") and len(segment) > 3:
        return segment_start, f"a path segment may not begin with '{segment[:3]}': {segment}"
    keyword = next((k for k in lx.LITERAL_WORDS if full.startswith(k) and full != k), None)
    if keyword and (start == 0 or text[start - 1] not in "./"):
        return start, f"names may not begin with the literal '{keyword}': {full}"
    if len(word) == 1 and word in lx.NAME_START and c not in lx.NAME_CHARS:
        return start, f"names have at least two characters: '{word}'"
    if word and c == "(":  # the word ends at far: _word_before reads up to it
        if word == "not":
            return start, "'not' must be followed by a blank: not (…)"
        if word in lx.FUNCTIONS:
            return far, f"wrong number of arguments for {word}"
        if word.lower() not in lx.KEYWORDS:
            hint = " (use substringof('text',field))" if word.lower() == "contains" else ""
            return start, f"the server knows no function '{word}'{hint}"
    if c == "(" and far > 0 and text[far - 1] == " ":
        before, _ = _word_before(text, len(text[:far].rstrip(" ")))
        if before in lx.FUNCTIONS:
            return far - 1, f"no blank between a function name and '(': {before}("
    if word in _OPERATOR_WORDS and c not in ("", " "):
        return far, f"'{word}' needs a blank after it"
    if far > 0 and text[far - 1] == ":" and c != " " and ("/any(" in text[:far] or "/all(" in text[:far]):
        return far, "a lambda needs a blank after ':'"
    if text.endswith(("/any(", "/all("), 0, far) or (text.endswith(("/any", "/all"), 0, far) and c != "("):
        return far, "any and all need a lambda: path/any(xx: xx/field eq …) (a variable of two or more characters)"
    if c != ":" and re.search(r"/(?:any|all)\( *[A-Za-z_][A-Za-z0-9_-]+ *\Z", text[:far]):
        return far, "a lambda is written path/any(xx: condition), with ':' after the variable"
    call = _open_call(text, far)
    if call in lx.FUNCTIONS and c in ",)" and text[far - 1] != " ":
        counts = " or ".join(str(k) for k in lx.FUNCTIONS[call])
        return far, f"{call} takes {counts} argument{'s' if counts != '1' else ''}"
    if not word and far > 0 and text[far - 1] == " ":
        previous, previous_start = _word_before(text, len(text[:far].rstrip(" ")))
        if previous != previous.lower() and previous.lower() in lx.KEYWORDS - set(lx.LITERAL_WORDS):
            return previous_start, f"keywords are lower case: {previous} -> {previous.lower()}"
    return None


def _open_call(text: str, far: int) -> str:
    """The name of the innermost function call still open at ``far`` ("" when there is none)."""
    depth = 0
    for i in range(far - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            if depth == 0:
                return _word_before(text, i)[0]
            depth -= 1
    return ""


def _number_reason(text: str, far: int, c: str) -> tuple[int, str] | None:
    """Reasons about numbers (``c``: the character at ``far``)."""
    if not ((far > 0 and text[far - 1] in "0123456789.") or c in lx.DIGITS or c in "+."):
        return None
    start = len(text[:far].rstrip("0123456789."))
    if start > 0 and text[start - 1] == "-" and (start < 2 or text[start - 2] in " (,"):
        start -= 1
    iso = _ISO_DATE.match(text, start)
    if iso is not None:
        return start, f"a date-time literal is written datetime'{iso.group()}'"
    token_match = _NUMBER_TOKEN.match(text, start)
    token = token_match.group() if token_match else text[start : far + 1]
    if c in "eE" and far > 0 and text[far - 1] in lx.DIGITS:
        return start, f"exponents are not accepted: {token}"
    if c in "dDFlM" and far > 0 and text[far - 1] in lx.DIGITS:
        return far, f"a number's suffix is one of m, M, f, L: {token}"
    if c in lx.DIGITS and text[start:far].lstrip("-") == "0":
        return start, f"numbers do not begin with 0: {token}"
    if c == "+":
        return far, f"a number has no '+' sign: {token}"
    if c == "." and far + 1 < len(text) and text[far + 1] in lx.DIGITS and (far == 0 or text[far - 1] not in lx.DIGITS):
        return far, f"a decimal needs a digit before the point: {token}"
    if far > 0 and text[far - 1] == "." and c not in lx.DIGITS:
        return far - 1, f"a decimal needs a digit after the point: {token}"
    return None


def _punctuation_reason(text: str, far: int, c: str) -> tuple[int, str] | None:
    if c in ",)" and far > 0 and text[far - 1] == " " and _unclosed_paren(text[:far]) is not None:
        return far - 1, f"no blank before '{c}' in a function call"
    return (far, _PUNCTUATION[c]) if c in _PUNCTUATION else None
