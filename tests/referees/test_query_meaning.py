"""Where the server reads a filter's values otherwise than OData means them: for each kind, what the real
server's reader (breeze-mongodb 0.0.8 on breeze-odataparser 0.0.1) makes of the filter, the strict check's
refusal or warning, and what breeze makes of the rewrite the refusal offers: OData's meaning of the filter.

The cases are generated over the spec's fields of every type, every operator, and texts of every special
character (fixed seed; ``PRINTMGMT_MEANING_EXAMPLES`` runs more).
"""

from __future__ import annotations

import json
import os
import re
import string
import warnings
from collections.abc import Sequence
from typing import Any

import pytest
from breeze_referee import BreezeReferee, deep_documents
from hypothesis import given, settings
from hypothesis import strategies as st
from printmgmt_sim import translation

from printmgmt import server
from printmgmt.errors import InvalidQuery, QueryMeaningWarning, UnknownFieldWarning
from printmgmt.fields import field_type, is_epoch_ms
from printmgmt_api.field_catalog import TYPES

EXAMPLES = int(os.environ.get("PRINTMGMT_MEANING_EXAMPLES", "60"))
GENERATED = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None)
OPERATORS = ["eq", "ne", "gt", "ge", "lt", "le"]


def breeze_filter(referee: BreezeReferee, text: str) -> Any:
    """The query document breeze builds for ``text`` (referee's JSON form); fails where it refuses."""
    (answer,) = referee.answers([{"$filter": text}])
    assert "refused" not in answer, (text, answer)
    return answer["filter"]


def refusal(text: str, collection: str = "jobs") -> InvalidQuery:
    with pytest.raises(InvalidQuery) as refused, warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownFieldWarning)
        warnings.simplefilter("ignore", QueryMeaningWarning)
        server.check_query(collection, "strict", filter=text)
    return refused.value


def accepted(text: str, collection: str = "jobs") -> list[str]:
    """The meaning warnings of a filter the strict check accepts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        server.check_query(collection, "strict", filter=text)
    return [str(w.message) for w in caught if issubclass(w.category, QueryMeaningWarning)]


# --- a condition compared with a boolean: the server ignores the operator ------------------------------------
CONDITIONS = [
    "startswith(current/jobName,'Inv')",
    "(status eq 'Error')",
    "stages/any(st: st/createdBy eq 'checkin')",
    "endswith(current/fileName,'pdf')",
    "substringof('Inv',current/jobName)",
]
#: OData's meaning of "condition op value" (false < true): the condition, its negation, or a constant
MEANING = {
    ("eq", True): "it", ("eq", False): "not", ("ne", True): "not", ("ne", False): "it",
    ("gt", True): "never", ("gt", False): "it", ("ge", True): "it", ("ge", False): "always",
    ("lt", True): "not", ("lt", False): "never", ("le", True): "always", ("le", False): "not",
}  # fmt: skip


@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("op", OPERATORS)
@pytest.mark.parametrize("value", [True, False])
def test_a_condition_compared_with_a_boolean(breeze: BreezeReferee, condition: str, op: str, value: bool) -> None:
    text = f"{condition} {op} {'true' if value else 'false'}"
    bare = condition[1:-1] if condition.startswith("(") else condition
    itself, negation = breeze_filter(breeze, bare), breeze_filter(breeze, f"not ({bare})")
    # the server: only the boolean counts
    assert breeze_filter(breeze, text) == (itself if value else negation)
    if op == "eq":
        accepted(text)
        return
    error = refusal(text)
    assert "ignores the operator" in error.reason and error.position == len(condition) + 1
    meaning = MEANING[op, value]
    if meaning in ("always", "never"):
        assert error.rewrite is None and f"OData's is {meaning} true" in error.reason
        return
    if condition.startswith(("startswith", "endswith", "substringof")) and (op, value) in NULL_KEPT_OTHERWISE:
        # a text function of a missing field is null: OData keeps it for 'ne false' and drops it for 'lt true'
        # and 'le false', and neither 'eq true' (drops it) nor 'eq false' ($not: keeps it) does the same
        assert error.rewrite is None and "missing field" in error.reason
        return
    assert error.rewrite is not None
    accepted(error.rewrite)
    assert breeze_filter(breeze, error.rewrite) == (itself if meaning == "it" else negation)


#: the comparisons of a nullable condition whose OData reading of null no form the server reads keeps
NULL_KEPT_OTHERWISE = {("ne", False), ("lt", True), ("le", False)}


# --- a literal of another type than the field's ----------------------------------------------------------------
LITERALS = {
    "number": ["1", "0", "42", "-7", "1.5"],
    "text": ["'abc'", "'1'", "'true'", "guid'x1'"],
    "objectid": ["'677b8bdbc382d72a50690cc3'", "'677B8BDBC382D72A50690CC3'"],
    "boolean": ["true", "false"],
    "date": ["datetime'2025-01-02T00:00:00Z'", "datetimeoffset'2025-01-02T10:30:00.25+02:00'"],
}
#: the JSON type of a value in the referee's form, as MongoDB brackets it
BRACKET = {"integer": "number", "number": "number", "string": "text", "boolean": "boolean"}
SCALARS = sorted(
    (collection, path)
    for collection, paths in TYPES.items()
    for path, kind in paths.items()
    if kind in BRACKET and path.rsplit("/", 1)[-1] != "_id"
)


def kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    return str(next(iter(value)))  # $oid, $date


def compared(document: Any, key: str) -> Any:
    """The value a one-field document compares ``key`` with (``{k: v}`` or ``{k: {$op: v}}``)."""
    value = document[key]
    operator = isinstance(value, dict) and next(iter(value)) in ("$ne", "$gt", "$gte", "$lt", "$lte")
    return next(iter(value.values())) if operator else value


@GENERATED
@given(st.sampled_from(SCALARS), st.sampled_from(OPERATORS), st.sampled_from(sorted(LITERALS)), st.data())
def test_a_literal_of_another_type_than_the_field(
    breeze: BreezeReferee, field: tuple[str, str], op: str, kind: str, data: st.DataObject
) -> None:
    collection, path = field
    literal = data.draw(st.sampled_from(LITERALS[kind]))
    text = f"{path} {op} {literal}"
    key = path.replace("/", ".")
    theirs = compared(breeze_filter(breeze, text), key)
    field_kind = "number" if is_epoch_ms(path) else BRACKET[field_type(collection, path) or ""]
    server_kind = {"$oid": "objectid", "$date": "date"}.get(kind_of(theirs), kind_of(theirs))
    if server_kind == field_kind:
        accepted(text, collection)  # MongoDB compares them: no refusal
        return
    error = refusal(text, collection)  # MongoDB never matches them: eq nothing, ne everything
    assert error.position == len(path) + len(op) + 2
    if error.rewrite is None:
        return
    accepted(error.rewrite, collection)
    meant = compared(breeze_filter(breeze, error.rewrite), key)
    assert kind_of(meant) == field_kind, (text, error.rewrite, meant)
    # the same value, in the field's type
    if kind == "date":
        assert meant == compared(translation.parse_filter(text), key).epoch_ms
        assert "odata." in error.reason and "datetime(" in error.reason
    elif kind == "objectid":
        assert meant == literal.strip("'")  # the text as written, not lower-cased
    elif field_kind == "boolean":
        assert meant is (literal in ("1", "'true'"))
    else:
        assert str(meant) == literal.strip("'")


def test_the_dates_of_the_issue(breeze: BreezeReferee) -> None:
    text = "current/checkinTime ge datetime'2025-01-02T00:00:00Z'"
    assert breeze_filter(breeze, text) == {"current.checkinTime": {"$gte": {"$date": "2025-01-02T00:00:00.000Z"}}}
    error = refusal(text)
    assert error.rewrite == "current/checkinTime ge 1735776000000"
    assert "odata.jobs.current.checkin_time >= datetime(2025, 1, 2, tzinfo=UTC)" in error.reason
    inside = refusal("stages/any(st: st/createdAt lt datetime'2025-01-02T10:00:00.5Z')")
    assert inside.rewrite == "stages/any(st: st/createdAt lt 1735812000500)"
    assert "odata.jobs.stages.created_at < datetime(2025, 1, 2, 10, 0, 0, 500000, tzinfo=UTC)" in inside.reason


def test_24_hex_digits_against_a_text(breeze: BreezeReferee) -> None:
    text = "runtime/currentPrintingJob eq '677b8bdbc382d72a50690cc3'"
    assert breeze_filter(breeze, text) == {"runtime.currentPrintingJob": {"$oid": "677b8bdbc382d72a50690cc3"}}
    error = refusal(text, "printers")
    assert error.rewrite == "runtime/currentPrintingJob eq guid'677b8bdbc382d72a50690cc3'"
    assert breeze_filter(breeze, error.rewrite) == {"runtime.currentPrintingJob": "677b8bdbc382d72a50690cc3"}
    accepted("_id eq '677b8bdbc382d72a50690cc3'")  # jobs' keys are ObjectIds
    # printers' keys are names: the text of 24 hex digits is meant
    assert refusal("_id gt '677b8bdbc382d72a50690cc3'", "printers").rewrite == "_id gt guid'677b8bdbc382d72a50690cc3'"


def test_a_number_against_a_boolean_and_a_boolean_against_a_number(breeze: BreezeReferee) -> None:
    assert breeze_filter(breeze, "config/nativeQueue eq 1") == {"config.nativeQueue": 1}
    assert refusal("config/nativeQueue eq 1", "printers").rewrite == "config/nativeQueue eq true"
    assert refusal("config/nativeQueue gt 0", "printers").rewrite is None  # no order of booleans meant
    error = refusal("runtime/queuedJobs eq false", "printers")
    assert error.rewrite is None and "holds integers in the spec" in error.reason


# --- numbers the server reads otherwise ----------------------------------------------------------------------
def test_a_dollar_after_a_number_drops_the_rest(breeze: BreezeReferee) -> None:
    text = "current/copies eq 1$x and status eq 'Error'"
    assert breeze_filter(breeze, text) == {"current.copies": 1}  # the second condition is gone
    error = refusal(text)
    assert error.position == text.index("$") and error.rewrite is None
    assert "drops the rest of the filter" in error.reason


@GENERATED
@given(st.integers(-(2**70), 2**70) | st.integers(2**53 - 3, 2**53 + 3))
def test_a_number_a_double_does_not_hold(breeze: BreezeReferee, number: int) -> None:
    text = f"current/fileSize ne {number}"
    read = compared(breeze_filter(breeze, text), "current.fileSize")
    if float(read) == number:  # the double breeze holds is the number written
        accepted(text)
    else:
        error = refusal(text)
        assert error.rewrite is None and float(error.reason.rsplit("is read as ", 1)[1]) == float(read)


# --- the text of startswith, endswith, substringof -------------------------------------------------------------
SPECIAL = "\\^$.|?*+()[]{}"
TEXT_FUNCTIONS = ["startswith", "endswith", "substringof"]


def call(function: str, value: str) -> str:
    quoted = "'" + value.replace("'", "''") + "'"
    return (
        f"substringof({quoted},current/fileName)"
        if function == "substringof"
        else f"{function}(current/fileName,{quoted})"
    )


def pattern_text(function: str, source: str) -> str:
    """The one text a regular expression of escaped characters only matches (its anchor left out)."""
    body = source[1:] if function == "startswith" else source[:-1] if function == "endswith" else source
    assert not re.search(r"[\^$.|?*+()\[\]{}]", re.sub(r"\\.", "", body)), source
    return re.sub(r"\\(.)", r"\1", body)


@GENERATED
@given(st.sampled_from(TEXT_FUNCTIONS), st.text(string.ascii_letters[:6] + "-_/ '" + SPECIAL, min_size=1, max_size=8))
def test_a_text_function_s_text_is_a_regular_expression(breeze: BreezeReferee, function: str, value: str) -> None:
    text = call(function, value) + " eq true"
    (answer,) = breeze.answers([{"$filter": text}])
    if "refused" in answer:  # not a valid expression: the server's 400, which "syntax" leaves to the server
        server.check_query("jobs", "syntax", filter=text)
    elif not any(c in SPECIAL for c in value):
        assert answer["filter"]["current.fileName"]["$regex"]["flags"] == "i"
        accepted(text)
        return
    elif not re.sub(r"\\[\\^$.|?*+()\[\]{}]", "", value).strip(string.ascii_letters[:6] + "-_/ '"):
        accepted(text)  # every special character escaped: the expression of one text, as the builder writes it
        return
    error = refusal(text)
    assert "as a regular expression" in error.reason and error.rewrite is not None
    accepted(error.rewrite)
    regex = breeze_filter(breeze, error.rewrite)["current.fileName"]["$regex"]
    # the expression breeze builds from the rewrite matches the text as written, and nothing else (a
    # backslash before a special character is the expression's way of writing that character)
    meant = re.sub(r"\\([\\^$.|?*+()\[\]{}])", r"\1", value)
    assert pattern_text(function, regex["source"]) == meant
    assert re.search(regex["source"], f"x{meant}x" if function == "substringof" else meant, re.IGNORECASE)


@pytest.mark.parametrize(
    ("text", "rewrite", "meant"),
    [
        ("endswith(current/fileName,'.pdf') eq true", r"endswith(current/fileName,'\.pdf') eq true", ".pdf"),
        (
            "substringof('PRT-MUC|PRT-BER',current/printerName)",
            r"substringof('PRT-MUC\|PRT-BER',current/printerName)",
            "PRT-MUC|PRT-BER",
        ),
        ("startswith(current/fileName,'docs/inv.*')", r"startswith(current/fileName,'docs/inv\.\*')", "docs/inv.*"),
        ("substringof('(v1.2)',current/jobName)", r"substringof('\(v1\.2\)',current/jobName)", "(v1.2)"),
        (r"startswith(current/jobName,'\d')", r"startswith(current/jobName,'\\d')", r"\d"),
    ],
)
def test_the_regular_expressions_of_the_issue(breeze: BreezeReferee, text: str, rewrite: str, meant: str) -> None:
    assert refusal(text).rewrite == rewrite
    key = next(iter(breeze_filter(breeze, text)))
    assert pattern_text(text[: text.index("(")], breeze_filter(breeze, rewrite)[key]["$regex"]["source"]) == meant


def test_a_text_function_ignores_case_and_warns(breeze: BreezeReferee) -> None:
    text = "startswith(status,'error')"
    assert breeze_filter(breeze, text) == {"status": {"$regex": {"source": "^error", "flags": "i"}}}
    (warned,) = accepted(text)
    assert "startswith ignores case on this server" in warned and "at position 0" in warned
    assert accepted("startswith(current/jobName,'2025-')") == []  # no letters: no case to ignore
    assert accepted("startswith(status,'error')".replace("'error'", "'x'")) != []


# --- nesting -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [150, 300, 1_000])
def test_nesting_the_middleware_reads_is_accepted(breeze: BreezeReferee, depth: int) -> None:
    forms: Sequence[str] = [
        "(" * depth + "status eq 'Error'" + ")" * depth,
        "not " * depth + "status eq 'Error'",
    ]
    for text in forms:
        with deep_documents():  # breeze's document of 1,000 nots nests as deep
            breeze_filter(breeze, text)
        accepted(text)


# --- what OData refuses or the server cannot read as OData: refused, with the rewrite where one means it ---------
@pytest.mark.parametrize(
    ("collection", "text"),
    [
        ("jobs", "orig/userName ne current/jobName"),
        ("jobs", "not (current/copies lt orig/copies)"),
        ("printers", "config/nativeQueue eq config/tolerance"),
        ("jobs", "startswith(current/jobName,orig/jobName)"),
    ],
)
def test_two_fields_compared_are_javascript_to_the_server(breeze: BreezeReferee, collection: str, text: str) -> None:
    assert "$where" in json.dumps(breeze_filter(breeze, text))
    error = refusal(text, collection)
    assert "$where" in error.reason and error.rewrite is None


def test_a_bare_word_against_a_field_stays_an_unknown_field(breeze: BreezeReferee) -> None:
    # the server reads it as two fields too, but the unknown field's warning offers the quotes
    assert "$where" in json.dumps(breeze_filter(breeze, "status eq Error"))
    with pytest.warns(UnknownFieldWarning):
        server.check_query("jobs", "strict", filter="status eq Error")


@pytest.mark.parametrize(
    "text",
    ["orig le 0", "orig eq null", "stages ne 'x'", "stages/any(st: st/context eq 'x')"],
)
def test_an_object_compared_as_a_value_is_refused(breeze: BreezeReferee, text: str) -> None:
    breeze_filter(breeze, text)  # the server reads it (and compares the whole object)
    error = refusal(text)
    assert "holds an object" in error.reason and error.rewrite is None


@pytest.mark.parametrize("op", ["any", "all"])
@pytest.mark.parametrize("value", ["'report.pdf'", "'a+b'"])
def test_an_arrays_element_alone_in_a_lambda(breeze: BreezeReferee, op: str, value: str) -> None:
    text = f"fileName/{op}(fn: fn eq {value})"
    assert "$elemMatch" in json.dumps(breeze_filter(breeze, text))  # fields of an element: never a text
    error = refusal(text)
    assert "element of fileName itself" in error.reason
    if op == "all":
        assert error.rewrite is None
        return
    assert error.rewrite == f"fileName eq {value}"
    accepted(error.rewrite)
    assert breeze_filter(breeze, error.rewrite) == {"fileName": value.strip("'")}


@pytest.mark.parametrize(
    ("collection", "text"),
    [
        ("jobs", "endswith(_id,20000)"),
        ("jobs", "startswith(current/copies,'1')"),
        ("printers", "substringof('t',config/nativeQueue)"),
        ("jobs", "startswith(orig,'x')"),
    ],
)
def test_a_text_function_of_a_non_text_is_refused(breeze: BreezeReferee, collection: str, text: str) -> None:
    breeze_filter(breeze, text)
    error = refusal(text, collection)
    assert "takes a text" in error.reason and error.rewrite is None


@pytest.mark.parametrize(
    "text", ["status eq binary'0A'", "current/copies lt binary'FF'", "not (config/server eq binary'0A')"]
)
def test_a_binary_literal_is_refused(breeze: BreezeReferee, text: str) -> None:
    collection = "printers" if "config/" in text else "jobs"
    breeze_filter(breeze, text)
    error = refusal(text, collection)
    assert error.reason.startswith("binary") and error.rewrite is None


@pytest.mark.parametrize("op", ["lt", "le", "gt", "ge"])
def test_an_order_against_null_is_refused(breeze: BreezeReferee, op: str) -> None:
    # MongoDB's order against null (the reader's undefined) matches null and missing fields for le/ge
    assert list(breeze_filter(breeze, f"status {op} null")["status"]) == [f"${op.replace('e', 'te')}"]
    error = refusal(f"status {op} null")
    assert f"'{op} null' is never true in OData" in error.reason and error.rewrite is None
    accepted("status eq null")


@pytest.mark.parametrize(
    ("collection", "text"),
    [("jobs", "_id eq 0"), ("jobs", "_id ne true"), ("printers", "_id ge datetime'2025-01-02T00:00:00Z'")],
)
def test_an_id_never_equals_a_number_a_boolean_or_a_date(breeze: BreezeReferee, collection: str, text: str) -> None:
    breeze_filter(breeze, text)
    error = refusal(text, collection)
    assert "MongoDB never matches" in error.reason and error.rewrite is None
    accepted("_id eq 'x1'", collection)


@pytest.mark.parametrize(
    ("collection", "text", "key", "value"),
    [
        ("jobs", "not (_id eq '677b8bdbc382d72a50690cc3')", "_id", {"$oid": "677b8bdbc382d72a50690cc3"}),
        (
            "printers",
            "(physical/level eq datetime'2025-01-02T00:00:00Z') eq false",
            "physical.level",
            {"$date": "2025-01-02T00:00:00.000Z"},
        ),
    ],
)
def test_a_negated_objectid_or_date_is_a_not_mongodb_fails(
    breeze: BreezeReferee, collection: str, text: str, key: str, value: Any
) -> None:
    assert breeze_filter(breeze, text) == {key: {"$not": value}}  # MongoDB: $not needs a regex or a document
    error = refusal(text, collection)
    assert "fails in MongoDB" in error.reason and error.rewrite is not None
    assert breeze_filter(breeze, error.rewrite) == {key: {"$ne": value}}


def test_an_order_of_jobs_keys_against_a_text_is_refused(breeze: BreezeReferee) -> None:
    # jobs' keys are ObjectIds: breeze keeps the text, and MongoDB orders no ObjectId against a text
    assert breeze_filter(breeze, "_id lt 'job-5'") == {"_id": {"$lt": "job-5"}}
    error = refusal("_id lt 'job-5'")
    assert "jobs' keys are ObjectIds" in error.reason and error.rewrite is None
    accepted("_id lt 'PRT-5'", "printers")  # printers' keys are texts
    accepted("_id lt '677b8bdbc382d72a50690cc3'")  # an ObjectId


def test_an_element_alone_in_an_open_object_gets_no_rewrite(breeze: BreezeReferee) -> None:
    # OData does not know an untyped field holds an array: the server's array-contains is no rewrite of it
    text = "physical/media/any(md: md eq 'a4')"
    breeze_filter(breeze, text)
    error = refusal(text, "printers")
    assert "element of physical/media itself" in error.reason and error.rewrite is None


def test_a_meaning_warning_names_its_kind() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        server.check_query("jobs", "strict", filter="startswith(status,'Err')")
    (warning,) = [w.message for w in caught if isinstance(w.message, QueryMeaningWarning)]
    assert warning.kind == "case"
