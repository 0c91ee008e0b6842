"""The documentation site as a reader meets it: every public method of every namespace is documented, with its
signature, under the path a user imports it from, and no docstring markup is left raw (the site is built
strictly, as ``make docs`` does, into a temporary folder)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import printmgmt_sim.pytest_plugin
import pytest

import printmgmt
from printmgmt import errors, odata
from printmgmt._async.resources._base import Resource
from printmgmt._sync.resources._base import Resource as SyncResource
from printmgmt.sync import PrintClient as SyncPrintClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))
from hooks import listed_twice, private_names, raw_markup  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every built page's HTML by its path in the site."""
    folder = tmp_path_factory.mktemp("site")
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run(
        [str(mkdocs), "build", "--strict", "--quiet", "--site-dir", str(folder)],
        cwd=ROOT,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return {str(page.relative_to(folder)): page.read_text() for page in folder.rglob("*.html")}


def documented(site: dict[str, str]) -> dict[str, str]:
    """Each documented object's id -> what follows its heading up to the next documented object."""
    sections = {}
    for html in site.values():
        headings = list(re.finditer(r'<h\d id="(?P<id>[\w.]+)" class="doc doc-heading">', html))
        for heading, following in zip(headings, [*headings[1:], None], strict=False):
            sections[heading["id"]] = html[heading.end() : following.start() if following else len(html)]
    return sections


def signed(path: str, section: str) -> bool:
    """The section shows a method with its signature (``name(...)``), not an attribute."""
    name = path.rsplit(".", 1)[-1]
    return "doc-symbol-method" in section[:300] and f'<span class="nf">{name}</span><span class="p">(' in section


def public_methods(obj: object) -> list[str]:
    return [name for name in dir(obj) if not name.startswith("_") and callable(getattr(obj, name))]


def namespaces(client: object, base: type) -> dict[str, object]:
    """The client's namespaces as the running code has them (not a list kept by hand)."""
    found = {name: getattr(client, name) for name in dir(client) if not name.startswith("_")}
    return {name: value for name, value in found.items() if isinstance(value, base)}


def test_every_method_of_every_namespace_is_documented_with_its_signature(site: dict[str, str]) -> None:
    sections = documented(site)
    async_client = printmgmt.PrintClient("http://127.0.0.1:9")
    sync_client = SyncPrintClient("http://127.0.0.1:9")
    expected: list[str] = []
    for path, client, base in (
        ("printmgmt.PrintClient", async_client, Resource),
        ("printmgmt.sync.PrintClient", sync_client, SyncResource),
    ):
        found = namespaces(client, base)
        assert {"jobs", "printers"} <= set(found)
        expected += [f"{path}.{method}" for method in public_methods(type(client))]
        for name, namespace in found.items():
            expected += [f"{path}.{name}.{method}" for method in public_methods(namespace)]
    assert "printmgmt.PrintClient.jobs.pause_many" in expected and "printmgmt.PrintClient.jobs.iterate" in expected
    missing = [path for path in expected if path not in sections]
    assert not missing, f"not documented under their public path: {missing}"
    unsigned = [path for path in expected if not signed(path, sections[path])]
    assert not unsigned, f"documented without a method's signature: {unsigned}"


def test_one_page_per_namespace_and_the_two_clients_told_apart() -> None:
    nav = (ROOT / "mkdocs.yml").read_text()
    for name in namespaces(printmgmt.PrintClient("http://127.0.0.1:9"), Resource):
        assert re.search(rf"^\s+- client\.{name}: reference/[\w-]+\.md$", nav, re.M), name
    clients = (ROOT / "docs" / "reference" / "clients.md").read_text()
    labels = re.findall(r"toc_label: (.+)", clients)
    assert len(labels) == len(set(labels)) == 2 and any("sync" in label for label in labels)


def test_the_other_public_names_are_documented_under_their_import_paths(site: dict[str, str]) -> None:
    sections = documented(site)
    expected = [f"printmgmt.errors.{name}" for name in errors.__all__]
    expected += [f"printmgmt.odata.{name}" for name in odata.__all__]
    expected += [f"printmgmt_sim.pytest_plugin.{name}" for name in printmgmt_sim.pytest_plugin.__all__]
    expected += [f"printmgmt_sim.Simulator.{name}" for name in public_methods(printmgmt_sim.Simulator)]
    for name in printmgmt.__all__:
        if name in {"__version__", "errors", "models", "odata"}:
            continue
        module = getattr(printmgmt, name).__module__ if hasattr(getattr(printmgmt, name), "__module__") else ""
        paths = {f"printmgmt.{name}", f"printmgmt.models.{name}", f"printmgmt.errors.{name}", f"{module}.{name}"}
        assert paths & set(sections), f"printmgmt.{name} is not documented"
    missing = [path for path in expected if path not in sections]
    assert not missing, f"not documented: {missing}"


def test_no_raw_markup_is_left_in_the_built_pages(site: dict[str, str]) -> None:
    assert "reference/jobs/index.html" in site
    findings = [f"{page}: {found}" for page, html in site.items() for found in raw_markup(html)]
    assert not findings
    # the rendered forms of what the docstrings write as roles and literal blocks
    jobs = site["reference/jobs/index.html"]
    assert re.search(r'<a class="autorefs[^"]*"[^>]*href="[^"]*#printmgmt\.errors\.PreconditionFailed"', jobs)
    assert (
        '<div class="highlight"><pre><span></span><code><span class="n">auth</span>'
        in site["reference/clients/index.html"]
    )


@pytest.mark.parametrize(
    "html",
    [
        "<p>as :class:<code>PasswordAuth</code> does</p>",
        "<p>For example::</p>",
        "<p>see [<code>Page</code>][printmgmt.Page]</p>",
        "<p>see [<code>printmgmt_sim.profile</code>][]</p>",
        '<p><autoref identifier="printmgmt.Page">Page</autoref></p>',
    ],
)
def test_the_raw_markup_check_sees_each_kind(html: str) -> None:
    assert raw_markup(html)
    assert not raw_markup(f"<pre><code>{html}</code></pre>")


def test_the_simulator_page_gives_its_real_credentials(site: dict[str, str]) -> None:
    from printmgmt_sim.settings import DEFAULT_CLIENTS, DEFAULT_USERS

    page = site["simulator-start/index.html"]
    for user in DEFAULT_USERS:
        assert f"<code>{user.username}</code></td>\n<td><code>{user.password}</code>" in page
    for client in DEFAULT_CLIENTS:
        assert (
            f"<code>{client.client_id}</code></td>\n<td><code>{client.secret}</code></td>\n<td><code>{client.kind}"
            in page
        )
    assert "--env-file" in page and "Getting started with the simulator" in site["index.html"]


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&quot;", '"').replace("&#39;", "'").split())


def test_models_render_their_example_and_each_attribute_once_with_its_description(site: dict[str, str]) -> None:
    """A model's fields are each one entry, described (the spec's words, its wire name), not a table of empty
    descriptions before the same names again; the model template's tables are no field."""
    sections = documented(site)
    job = sections["printmgmt.models.Job"]
    assert re.search(r'<details class="example" open>\s*<summary>Example</summary>', job)
    assert "Attributes:" not in job and "<th>Description</th>" not in site["reference/models/index.html"]
    assert "The key; id when _id is missing. _id on the wire." in text_of(sections["printmgmt.models.Job.id"])
    assert "checkinTime on the wire." in text_of(sections["printmgmt.models.JobAttributes.checkin_time"])
    assert "as an aware UTC datetime" in text_of(sections["printmgmt.models.JobAttributes.checkin_time_utc"])
    for page, html in site.items():
        internals = re.findall(r'<h\d id="[\w.]+\.(READERS|KEY_FALLBACKS|WIRE_NAMES)"', html)
        assert not internals, f"{page}: {internals}"
        headings = re.findall(r'<h\d id="([\w.]+)" class="doc doc-heading">', html)
        assert len(headings) == len(set(headings)), f"{page}: an entry twice"


@pytest.mark.parametrize("page", ["jobs", "printers"])
def test_a_namespace_page_opens_with_its_most_used_methods(site: dict[str, str], page: str) -> None:
    for client in ("printmgmt.PrintClient", "printmgmt.sync.PrintClient"):
        entries = re.findall(rf'<h\d id="{re.escape(client)}\.{page}\.(\w+)"', site[f"reference/{page}/index.html"])
        assert entries[:3] == ["list", "iterate", "get"], entries


@pytest.mark.parametrize(
    ("html", "found"),
    [
        (
            '<div class="doc-signature"><pre>jobs(invoker: Invoker, x=_attrs_field())</pre></div>',
            ["Invoker", "_attrs_field", "invoker"],
        ),
        ("<p>additional_properties: dict = <code>_attrs_field(init=False)</code></p>", ["_attrs_field"]),
        ('<p>see <a title="Timeout (printmgmt._call.Timeout)" href="#t">Timeout</a></p>', ["printmgmt._call"]),
        ("<p>the <code>_print_server</code> it builds</p>", ["_print_server"]),
        # the spec's own names, a suffix, dunders: not private
        (
            "<p><code>_id</code> on the wire; the <code>*_many</code> and <code>&lt;action&gt;_many</code> methods, "
            "<code>__getitem__</code></p>",
            [],
        ),
    ],
)
def test_the_private_name_check_sees_each_kind(html: str, found: list[str]) -> None:
    assert private_names(html) == found


def test_the_listed_twice_check_sees_a_table_of_attributes_beside_their_entries(site: dict[str, str]) -> None:
    page = site["reference/models/index.html"]
    assert listed_twice(page) == []
    # the generator's "Attributes:" table, as mkdocstrings renders it, back in the Job class's docstring
    table = (
        '<p><span class="doc-section-title">Attributes:</span></p><table><tbody>'
        '<tr class="doc-section-item">\n<td><code><a class="autorefs" href="#printmgmt.models.Job.status">status</a>'
        "</code></td><td>Job status.</td></tr></tbody></table>"
    )
    job = page.index('<div class="doc doc-contents', page.index('id="printmgmt.models.Job"'))
    assert listed_twice(page[:job] + table + page[job:]) == ["printmgmt.models.Job.status"]
    assert listed_twice(page.replace('id="printmgmt.models.Job.stages"', 'id="printmgmt.models.Job.status"')) == [
        "printmgmt.models.Job.status"
    ]


def test_the_reference_shows_public_names_only_and_each_member_once(site: dict[str, str]) -> None:
    """No ``invoker``, no ``_attrs_field``, no private module anywhere a reader looks (text, signatures, code,
    links' tooltips), and no member listed twice (the build fails on them too)."""
    reference = {page: html for page, html in site.items() if page.startswith("reference/")}
    assert len(reference) >= 14 and "reference/models/index.html" in reference
    assert {page: names for page, html in reference.items() if (names := private_names(html))} == {}
    assert {page: twice for page, html in reference.items() if (twice := listed_twice(html))} == {}


def test_signatures_show_public_names_and_defaults_as_values(site: dict[str, str]) -> None:
    """A default that names a constant shows what it is; a private alias is spelt out."""
    sections = documented(site)
    wait_for = text_of(sections["printmgmt.PrintClient.jobs.wait_for"]).replace(" ", "")
    assert 'until:Statuses={"Processed"},fail_on:Statuses={"Canceled","Error"}' in wait_for
    assert "request_timeout:float|Timeout|None|NotGiven=NOT_GIVEN" in wait_for  # a private alias spelt out
    iterate = text_of(sections["printmgmt.PrintClient.jobs.iterate"]).replace(" ", "")
    assert "DEFAULT_PREFETCH" not in iterate and "prefetch:int=4" in iterate
    additional = text_of(sections["printmgmt.models.Job.additional_properties"])
    assert "_attrs_field" not in additional and "The fields the spec does not declare" in additional


@pytest.mark.parametrize(("page", "item"), [("jobs", "Job"), ("printers", "Printer")])
def test_a_namespace_lists_pages_of_its_own_item_type(site: dict[str, str], page: str, item: str) -> None:
    sections = documented(site)
    for client in ("printmgmt.PrintClient", "printmgmt.sync.PrintClient"):
        text = re.sub(r"<[^>]+>", "", sections[f"{client}.{page}.list"])
        assert f"Page[{item}]" in text and "Item" not in text
        assert f"Pager[{item}]" in re.sub(r"<[^>]+>", "", sections[f"{client}.{page}.iterate"])


def test_the_readme_sections_replace_their_markers_and_the_links_that_stand_for_them_on_github(
    site: dict[str, str],
) -> None:
    for page in ("index.html", "quickstart/index.html", "operations/index.html"):
        assert "In the README:" not in site[page] and "<!-- readme" not in site[page]
    assert "A first listing, against the simulator" in site["index.html"]
    assert '<h2 id="in-a-service">' in site["quickstart/index.html"]
    assert "<td><code>client.jobs</code></td>" in site["operations/index.html"]
