"""What a user of a published package expects besides the code: a licence that matches the declared one, a
changelog in the Keep a Changelog form, one version, and the interface version said where the version policy
(docs/versions.md) says it is. The built distributions are checked by ``make wheel-test`` (twine, LICENSE)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

import printmgmt

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
#: Keep a Changelog 1.1.0's kinds of change.
KINDS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_licence_file_is_the_declared_one() -> None:
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n") and "keepachangelog.com/en/1.1.0" in text
    releases = re.findall(r"^## (.+)$", text, re.M)
    assert releases and releases[0] == "[Unreleased]"
    for release in releases[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d\d-\d\d", release), release
    kinds = re.findall(r"^### (.+)$", text, re.M)
    assert kinds and set(kinds) <= KINDS
    assert not re.findall(r"^#{1,3} (?!Changelog|\[|Added|Changed|Deprecated|Removed|Fixed|Security).*", text, re.M)


def test_the_package_has_one_version_and_names_the_interface_it_speaks() -> None:
    assert printmgmt.__version__ == PROJECT["version"]
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert not released or released[0] == PROJECT["version"]
    interface = yaml.safe_load((ROOT / "openapi.yaml").read_text())["info"]["version"]
    assert f"(v3, {interface})" in PROJECT["description"]
    assert interface in (ROOT / "docs" / "versions.md").read_text()


def test_the_three_distributions_are_released_together() -> None:
    """printmgmt-sim and printmgmt-cli carry the SDK's version, licence and LICENSE, and each names the others it
    needs at exactly that version, as printmgmt's extras name them."""
    version = PROJECT["version"]
    assert PROJECT["optional-dependencies"]["sim"] == [f"printmgmt-sim=={version}"]
    assert PROJECT["optional-dependencies"]["cli"] == [f"printmgmt-cli=={version}"]
    needs = {"simulator": {"printmgmt", "printmgmt-cli"}, "cli": {"printmgmt"}}
    for folder, others in needs.items():
        project = tomllib.loads((ROOT / folder / "pyproject.toml").read_text())["project"]
        assert (project["version"], project["license"], project["license-files"]) == (version, "MIT", ["LICENSE"])
        assert (ROOT / folder / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()
        ours = {r.split("==")[0] for r in project["dependencies"] if r.startswith("printmgmt")}
        assert ours == others, folder
        assert {f"{name}=={version}" for name in others} <= set(project["dependencies"]), folder
