"""The server model's profile: its settings and values named once, its table complete, its files read as
written."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest
from printmgmt_cli.profile import (
    MAX_TOP,
    NO_CAP,
    PROFILE_SETTINGS,
    UNKNOWN,
    ListShape,
    Skip,
    Variants,
    alternatives,
    read_settings,
    settings_of,
    write_profile,
)


def test_the_table_names_every_setting_and_every_value() -> None:
    doc = sys.modules[Variants.__module__].__doc__ or ""
    rows = {match[0]: match[1] for match in re.findall(r"^``(\w+)``\s+``([^`]+)``(.*)$", doc, re.MULTILINE)}
    assert set(rows) == set(PROFILE_SETTINGS)
    table = doc[doc.index("=====") :]
    for name, value in alternatives():
        assert f"``{value}``" in table.split(f"``{name}``", 1)[1].split("\n``", 1)[0], (name, value)
    for field in dataclasses.fields(Variants):
        assert rows[field.name] == getattr(Variants(), field.name)  # the default is the guess, first


def test_plain_strings_are_read_as_values_and_a_wrong_one_names_the_choices() -> None:
    assert Variants(list_shape="value", skip="ignored") == Variants(list_shape=ListShape.VALUE, skip=Skip.IGNORED)  # type: ignore[arg-type]
    assert Variants(list_shape="value").list_shape is ListShape.VALUE  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="list_shape must be one of middleware, results, value, verbose, not 'xml'"):
        Variants(list_shape="xml")  # type: ignore[arg-type]


def test_settings_of_names_each_value_s_setting() -> None:
    assert settings_of(ListShape.VERBOSE, Skip.IGNORED) == {"list_shape": "verbose", "skip": "ignored"}


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_profile_file_reads_as_written(tmp_path: Path, suffix: str) -> None:
    settings = {name: UNKNOWN for name in PROFILE_SETTINGS} | {"list_shape": ListShape.VALUE, MAX_TOP: 7}
    path = tmp_path / f"server{suffix}"
    write_profile({"server": "https://p:8080", "statuses": ["Error"], "settings": settings}, path)
    assert read_settings(path) == {"list_shape": ListShape.VALUE, MAX_TOP: 7}
    write_profile({"settings": {MAX_TOP: NO_CAP, "skip": "ignored"}}, path)
    assert read_settings(path) == {MAX_TOP: None, "skip": Skip.IGNORED}


def test_a_bad_profile_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_top must be a positive integer or 'none'"):
        read_settings({"settings": {MAX_TOP: True}})
    with pytest.raises(ValueError, match="a profile's settings must be a table"):
        read_settings({"settings": ["list_shape"]})
    with pytest.warns(UserWarning, match="not one this version knows"):
        assert read_settings({"settings": {"future": "x"}}) == {}
