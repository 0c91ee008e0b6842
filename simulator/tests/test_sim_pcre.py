"""The twin's regular expressions against PCRE2's own test driver, compiled as MongoDB compiles a ``$regex``.

The oracle is ``pcre2test`` (PCRE2's C test program, installed with the ``pcre2`` wheel), not the binding the
twin uses: each generated pattern is handed to it with the options MongoDB's source sets
(``mongo/util/pcre_util.cpp`` ``flagsToOptions``: ``PCRE2_UTF`` always, the docs' "UTF is set by default for
$regex"; ``i``/``m``/``s``/``x`` as the flags say) and nothing else: no ``ucp`` (MongoDB's ``\\w``, ``\\d``
and ``\\b`` stay ASCII, SERVER-23881; a pattern opts in with ``(*UCP)``, 6.1 release notes), no
``alt_bsux`` (so ``\\u`` is an error, ``\\x{263A}`` a character). The twin answers through its engine: a
``{field: regex}`` query over one document. Both must agree on every generated case: match, no match, or
the same compile error. ``PRINTMGMT_PCRE_EXAMPLES`` runs more (default 300, a fixed derandomized search).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from printmgmt_sim.engine import QueryRejected, Regex, matcher

PCRE2TEST = shutil.which("pcre2test", path=str(Path(sys.executable).parent)) or shutil.which("pcre2test")
EXAMPLES = int(os.environ.get("PRINTMGMT_PCRE_EXAMPLES", "300"))

#: pieces of patterns: PCRE2 syntax (valid or not) around the cases MongoDB and Python's ``re`` read apart
TOKENS = [
    *"abxAiIK19 -_.",
    *"\u00e4 \u00c4 \u00e9 \u00df \u0130 \u0131 \u017f \u212a \u0663 \u263a".split(),  # noqa: SIM905
    *r"\w \W \d \D \s \S \b \B \z \Z \A \G \h \v \R \N \X \e \cA \t \n \r \. \(".split(),  # noqa: SIM905
    *r"\x41 \x{263A} \x{e4} \o{101} \101 \u0041 \u2028 \Qa.\E \E".split(),  # noqa: SIM905
    *r"\p{L} \p{Lu} \p{Greek} \pN \P{L} \p{Xx}".split(),  # noqa: SIM905
    *r"[abc] [^a] [[:digit:]] [[:alpha:]] [[:^space:]] [a-z] [\w-] []a] [a [\d\x{e4}]".split(),  # noqa: SIM905
    *r"( ) (?: (?i) (?<n> (?= (?! (?<=a) |".split(),  # noqa: SIM905
    *r"* + ? {2} {,3} {1,} {2,1} *? ++ x{,3} ^ $".split(),  # noqa: SIM905
]
#: subjects: ASCII, umlauts, the Turkish and Kelvin case pairs, an Arabic-Indic digit, a line separator
SUBJECT = st.text(
    alphabet=list("abxAiI19 _.-{},3\n\u00e4\u00c4\u00e9\u00df\u0130\u0131\u017f\u212a\u0663\u263a\u2028"),
    min_size=1,
    max_size=8,
)
FLAGS = st.sets(st.sampled_from("imsx")).map(lambda flags: "".join(sorted(flags)))
PATTERN = st.tuples(st.booleans(), st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6)).map(
    lambda drawn: ("(*UCP)" if drawn[0] else "") + "".join(drawn[1])
)
_DELIMITERS = "/!\"#%&',;=@~`"
_RESULT = re.compile(r"^(?: 0:|No match|Failed: error (-?\d+)(?: at offset \d+)?: (.*))", re.MULTILINE)


def pcre2test(pattern: str, flags: str, subject: str) -> bool | str:
    """PCRE2's own answer: True or False, or the compile error's message."""
    assert PCRE2TEST is not None
    delimiter = next(c for c in _DELIMITERS if c not in pattern)
    modifiers = f"{flags},utf" if flags else "utf"  # single-letter modifiers come first, run together
    escaped = "".join(f"\\x{{{ord(c):x}}}" for c in subject)
    script = f"{delimiter}{pattern}{delimiter}{modifiers}\n{escaped}\n"
    out = subprocess.run(
        [PCRE2TEST, "-q"], input=script.encode(), capture_output=True, check=False, timeout=10
    ).stdout.decode()
    found = _RESULT.search(out)
    assert found, out
    if found[0].startswith("Failed"):
        return found[2]
    return found[0] == " 0:"


def twin(pattern: str, flags: str, subject: str) -> bool | str:
    """The twin's answer through its engine: True or False, or MongoDB's message without its prefix."""
    try:
        return matcher({"f": Regex(pattern, flags)})({"f": subject})
    except QueryRejected as exc:
        return str(exc).removeprefix("Regular expression is invalid: ")


@pytest.mark.skipif(PCRE2TEST is None, reason="pcre2test comes with the pcre2 wheel (the sim extra)")
@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None)
@given(PATTERN, FLAGS, SUBJECT)
def test_the_twin_matches_as_pcre2_compiled_as_mongodb_compiles(pattern: str, flags: str, subject: str) -> None:
    assert twin(pattern, flags, subject) == pcre2test(pattern, flags, subject)


# The issue's cases: (pattern, subject, MongoDB's answer: True/False, or an error). Python's ``re`` answered
# otherwise on each (\w \d \b read Unicode; \z \x{..} \o{..} \G were errors; \u an escape; \Z, POSIX classes,
# x{,3} and the dotted capital I read apart).
CASES = [
    (r"^\w", "ärger", False),
    (r"\d", "٣", False),
    (r"\bx", "äx", True),  # no word boundary between ä and x in PCRE: ä is no word character
    (r"a\z", "a", True),
    (r"\x{263A}", "☺", True),
    (r"\o{101}", "A", True),
    (r"\Ga", "ab", True),
    (r"\u0041", "A", "PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u"),
    (r"a\u2028", "a\u2028", "PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u"),
    (r"a\Z", "a\n", True),
    ("[[:digit:]]", "٣", False),
    ("x{,3}", "xxx", True),  # PCRE2 10.43+: {,3} is a quantifier
    ("İ", "i", False),  # caseless: the dotted capital I matches neither i nor I
]


@pytest.mark.parametrize(("pattern", "subject", "mongodb"), CASES)
def test_the_issue_s_regex_cases_answer_as_mongodb(pattern: str, subject: str, mongodb: bool | str) -> None:
    assert twin(pattern, "i", subject) == mongodb
    if PCRE2TEST is not None:
        assert pcre2test(pattern, "i", subject) == mongodb


def test_a_nul_and_an_unknown_flag_are_mongodb_s_errors() -> None:
    with pytest.raises(QueryRejected, match=r"^Regular expression cannot contain an embedded null byte$"):
        Regex("a\0b")
    with pytest.raises(QueryRejected, match="invalid flag in regex options: g"):
        Regex("a", "g")
    with pytest.raises(QueryRejected, match="longer than the limit"):
        Regex("a" * 32765)
