"""mkdocs hooks and the Griffe extension of the documentation site (``make docs``).

The guides are the pages in ``docs/``. The few sections the README holds for a newcomer (its introduction,
"Set-up", "Quick start", "Operations") are said once, there: a page holding ``<!-- readme: Title -->`` gets
the README's ``## Title`` section in its place (down to the next ``## ``), its headings moved up one level,
and ``<!-- readme-intro -->`` the text before the first section. The line after a marker, a link to the
README for readers of the page on GitHub (``*In the README: [...](../README.md#...).*``), goes. Links to
files of the repository (not pages of the site) become their path in code, so that ``mkdocs build --strict``
only fails on what is really broken.

The API reference renders the docstrings' one style, Sphinx's (:class:`PublicApi`), and the build fails when
raw markup reaches a page (:func:`on_post_build`).
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import re
import textwrap
from collections.abc import Iterator
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any

import griffe

from printmgmt._async.resources._base import BulkAction
from printmgmt_api.schemas import SCHEMAS

README = Path(__file__).resolve().parents[1] / "README.md"
#: A marker, and the link to the README that stands for it on GitHub.
_MARKER = re.compile(r"<!-- readme(?:: (?P<title>.+?)|-intro) -->\n(?:\*In the README: .*\*\n)?")
_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>(?!https?://|#)[^)]+)\)")


def sections() -> dict[str, str]:
    """The README's ``## `` sections by title; ``""`` is the text before the first."""
    text = README.read_text()
    found: dict[str, str] = {}
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    found[""] = parts[0]
    for title, body in zip(parts[1::2], parts[2::2], strict=True):
        found[title.strip()] = body
    return found


def _repo_links(markdown: str, prefix: str = "") -> str:
    """Links to the repository's files (``prefix`` + path) become their path in code; links into ``docs/``
    stay links to the site's pages."""

    def link(match: re.Match[str]) -> str:
        target = match["target"]
        if not target.startswith(prefix):
            return match[0]
        path = target[len(prefix) :]
        if path.startswith("docs/"):
            return f"[{match['text']}]({path.removeprefix('docs/')})"
        return f"{match['text']} (`{path}` in the repository)"

    return _LINK.sub(link, markdown)


def _promote(markdown: str) -> str:
    """``### x`` becomes ``## x`` (the page's title is the section's)."""
    return re.sub(r"^###(#*) ", r"##\1 ", markdown, flags=re.M)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    found = sections()

    def section(match: re.Match[str]) -> str:
        title = match["title"]
        if title is None:  # the introduction, without the README's title
            return _repo_links(re.sub(r"^# .*\n", "", found[""], count=1).strip("\n")) + "\n"
        if title not in found:
            raise KeyError(f"{page.file.src_path}: the README has no section {title!r}")
        return _repo_links(_promote(found[title].strip("\n"))) + "\n"

    markdown = _MARKER.sub(section, markdown)
    # the page's own links to files outside docs/, and to the README's sections the site does not hold
    return _repo_links(markdown, prefix="../")


# -- the API reference: one docstring style (Sphinx's reST), rendered as Markdown with cross-references --------

#: ``:role:`target``` or ``:role:`title <target>```; ``~`` shows the last component only (as Sphinx does).
_ROLE = re.compile(r":(?:py:)?(?P<role>class|meth|func|data|attr|exc|mod|obj|const):`(?P<body>[^`]+)`")
_CALLABLE_ROLES = {"meth", "func"}
_OWN_PACKAGES = ("printmgmt", "printmgmt_sim", "printmgmt_api")
#: The generated models are documented where users import them from.
_PUBLIC_MODELS = ("printmgmt_api.models.", "printmgmt.models.")


def _resolve(obj: griffe.Object, target: str) -> str:
    """``target`` as a full path, looked up from ``obj``'s scope the way Python would (then Sphinx's way)."""
    if target.split(".")[0] in _OWN_PACKAGES:
        return target
    head, _, rest = target.partition(".")
    scope: griffe.Object | None = obj
    while scope is not None:
        try:
            found = scope.resolve(head)
        except griffe.NameResolutionError:
            scope = scope.parent
            continue
        path = f"{found}.{rest}" if rest else found
        return path.replace(*_PUBLIC_MODELS) if path.startswith(_PUBLIC_MODELS[0]) else path
    return target  # left for autorefs to report: an unresolved reference fails the strict build


def _role(obj: griffe.Object, match: re.Match[str]) -> str:
    body = match["body"]
    titled = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^>]+)>", body)
    if titled:
        title, target = titled["title"], titled["target"]
    else:
        target = body.lstrip("~.")
        title = target.rsplit(".", 1)[-1] if body.startswith("~") else target
        if match["role"] in _CALLABLE_ROLES:
            title += "()"
    return f"[`{title}`][{_resolve(obj, target.lstrip('~.'))}]"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _literal_blocks(text: str) -> str:
    """reST's ``paragraph::`` + indented block becomes the paragraph and a fenced code block."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line.rstrip().endswith("::"):
            out.append(line)
            continue
        stripped = line.rstrip()[:-2].rstrip()
        if stripped:
            out.append(stripped + (":" if not line.rstrip().endswith(" ::") else ""))
        base = _indent(line)
        block: list[str] = []
        while index < len(lines) and (not lines[index].strip() or _indent(lines[index]) > base):
            block.append(lines[index])
            index += 1
        while block and not block[-1].strip():
            block.pop()
        code = textwrap.dedent("\n".join(block)).strip("\n")
        language = "console" if code.lstrip().startswith("$ ") else "python"
        out.extend(["", f"```{language}", *code.splitlines(), "```", ""])
    return "\n".join(out)


def _comment_docstring(obj: griffe.Object) -> griffe.Docstring | None:
    """Sphinx's ``#:`` comments above an attribute are its docstring."""
    lines = obj.lines_collection[obj.filepath] if isinstance(obj.filepath, Path) else []
    comment: list[str] = []
    index = (obj.lineno or 1) - 2
    while index >= 0 and lines[index].lstrip().startswith("#:"):
        comment.insert(0, lines[index].lstrip()[2:].strip())
        index -= 1
    return griffe.Docstring("\n".join(comment), lineno=index + 2, parent=obj) if comment else None


#: The first line of an entry of a Google "Attributes:" section: ``name (type): description``.
_ATTRIBUTE = re.compile(r"(?P<indent>\s+)(?P<name>\w+) \(.*?\):(?P<description>.*)")


def _attribute_table(table: str) -> dict[str, str]:
    """The descriptions of a Google "Attributes:" section by name (an entry's deeper-indented lines joined)."""
    found: dict[str, list[str]] = {}
    indent = None
    for line in table.splitlines():
        entry = _ATTRIBUTE.fullmatch(line)
        if entry and (indent is None or len(entry["indent"]) == indent):
            indent = len(entry["indent"])
            found[entry["name"]] = [entry["description"]]
        elif found and line.strip():
            found[list(found)[-1]].append(line)
    return {name: " ".join(" ".join(lines).split()) for name, lines in found.items()}


def _literal_dict(attribute: Any) -> dict[str, str]:
    """The ``{"a": "b", ...}`` value of a class variable as Griffe read it (its source text), or ``{}``."""
    value = getattr(attribute, "value", None)
    return dict(re.findall(r"['\"](\w+)['\"]\s*:\s*['\"]([^'\"]+)['\"]", str(value))) if value else {}


def _walk(obj: griffe.Object) -> Iterator[griffe.Object]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)  # type: ignore[arg-type]


def _defaults_as_values(function: griffe.Function) -> None:
    """A default that names a constant (``until=DONE``, ``prefetch=DEFAULT_PREFETCH``) is shown as its value
    (``{'Processed'}``, ``4``): a reader of a signature learns what the default is, not another name to look up.
    ``NOT_GIVEN`` stays: it is public, and means "the client's setting" (its entry says so)."""
    for parameter in function.parameters:
        parameter.annotation = _alias_spelt_out(function, parameter.annotation)
        default = parameter.default
        if not isinstance(default, griffe.ExprName) or not default.name.isupper() or default.name == "NOT_GIVEN":
            continue
        module, _, name = default.canonical_path.rpartition(".")
        if not module:  # a name griffe cannot place (a local of the function's module): shown as written
            continue
        try:
            value = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
        if isinstance(value, frozenset | set) and all(isinstance(item, str) for item in value):
            parameter.default = "{" + ", ".join(repr(item) for item in sorted(value)) + "}"
        elif isinstance(value, int | float | str) or type(value).__name__ == "Timeout":
            parameter.default = repr(value)


def _alias_spelt_out(function: griffe.Function, annotation: Any) -> Any:
    """A type alias of a private module (``Timeout``, of ``printmgmt._call``) as what it stands for
    (``float | Timeout | None``), wherever it appears in ``annotation``: a reader cannot look the alias up."""
    if isinstance(annotation, griffe.ExprName):
        path = annotation.canonical_path
        if any(part.startswith("_") for part in path.split(".")[1:-1]):
            with contextlib.suppress(KeyError, ValueError, AttributeError):
                target = function.modules_collection[path]
                if isinstance(target, griffe.Attribute) and isinstance(target.value, griffe.Expr):
                    return target.value
        return annotation
    if isinstance(annotation, griffe.ExprBinOp):
        annotation.left = _alias_spelt_out(function, annotation.left)
        annotation.right = _alias_spelt_out(function, annotation.right)
    return annotation


class PublicApi(griffe.Extension):
    """What the reference shows: Sphinx roles and ``::`` blocks as Markdown, the clients' namespaces as their
    classes (``printmgmt.PrintClient.jobs``), and the ``<action>_many`` descriptors as the methods they are."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name == "printmgmt":  # first: the copies' docstrings are rendered in their classes' scope
            for flavour in ("_async", "_sync"):
                self._item_types(pkg[f"{flavour}.resources"], pkg[f"{flavour}.resources._base.Collection"])
        for obj in _walk(pkg):
            if obj.docstring is None and obj.is_attribute:
                obj.docstring = _comment_docstring(obj)
            if obj.docstring is not None:
                obj.docstring.value = _ROLE.sub(partial(_role, obj), _literal_blocks(obj.docstring.value))
        for obj in _walk(pkg):
            if isinstance(obj, griffe.Function):
                _defaults_as_values(obj)
        if pkg.name == "printmgmt":
            for flavour in ("_async", "_sync"):
                self._namespaces(pkg[f"{flavour}.client.PrintClient"])
                self._bulk_methods(pkg[f"{flavour}.resources"], pkg[f"{flavour}.resources._base.BulkMethod.__call__"])
        if pkg.name == "printmgmt_api":
            self._models(pkg["models"])

    @staticmethod
    def _models(models: griffe.Module) -> None:
        """The generator writes the models' docstrings in Google's style ("Example:", "Attributes:"), and the
        model template's own tables (``READERS``, ``WIRE_NAMES``...: upper-case class variables) are no field.
        Each field is documented once, in its own entry: the "Attributes:" table of the class docstring (whose
        descriptions the spec mostly leaves empty) becomes each field's description, with its wire name."""
        for module in models.modules.values():
            for cls in module.classes.values():
                wire_names = _literal_dict(cls.members.get("WIRE_NAMES"))
                described: dict[str, str] = {}
                if cls.docstring is not None:
                    cls.docstring.parser = griffe.Parser.google
                    text, _, table = ("\n" + cls.docstring.value).partition("\nAttributes:\n")
                    cls.docstring.value = text.strip()
                    described = _attribute_table(table)
                for name in [name for name in cls.members if name.isupper()]:
                    cls.del_member(name)
                parse = cls.members.get("from_dict")
                if isinstance(parse, griffe.Function) and str(parse.returns) == "T":  # the generator's TypeVar
                    parse.returns = griffe.ExprName(cls.name, parent=cls)
                for name, member in cls.members.items():
                    if not isinstance(member, griffe.Attribute) or member.docstring is not None:
                        continue
                    if name not in wire_names and name != "additional_properties":
                        continue  # a property of the template's (additional_keys): not a field on the wire
                    if name == "additional_properties":
                        member.value = None  # the attrs field behind it is the generator's, not the reader's
                        words = 'The fields the spec does not declare, as sent (also ``model["name"]``).'
                    else:
                        words = " ".join(
                            part for part in (described.get(name), f"``{wire_names[name]}`` on the wire.") if part
                        )
                    member.docstring = griffe.Docstring(words, parent=member)

    @staticmethod
    def _item_types(resources: griffe.Module, collection: griffe.Class) -> None:
        """A namespace that is a ``Collection[Job]`` documents ``list``/``iterate`` as returning ``Page[Job]`` and
        ``Pager[Job]``, not the generic ``Item``."""
        for module in resources.modules.values():
            for cls in module.classes.values():
                base = next(
                    (b for b in cls.bases if isinstance(b, griffe.ExprSubscript) and str(b.left) == "Collection"), None
                )
                if base is None:
                    continue
                for name, method in collection.members.items():
                    returns = getattr(method, "returns", None)
                    if not isinstance(method, griffe.Function) or not isinstance(returns, griffe.ExprSubscript):
                        continue
                    if name.startswith("_") or str(returns.slice) != "Item":
                        continue
                    typed = copy.copy(method)  # the same function, documented on the class with its item type
                    typed.returns = griffe.ExprSubscript(returns.left, base.slice)
                    # a collection's most used methods open its page: members are ordered by their line (or, seen
                    # through the client's namespace alias, as listed), and a copy would come after the class's own
                    typed.lineno = typed.endlineno = cls.lineno
                    if method.docstring is not None:
                        typed.docstring = griffe.Docstring(method.docstring.value, lineno=method.docstring.lineno)
                    cls.set_member(name, typed)
                    if typed.docstring is not None:
                        typed.docstring.parent = typed
                copies = [name for name, member in cls.members.items() if member.lineno == cls.lineno]
                ordered = {name: cls.members[name] for name in [*copies, *cls.members]}
                cls.members.clear()
                cls.members.update(ordered)

    @staticmethod
    def _namespaces(client: griffe.Class) -> None:
        """Each namespace attribute (``jobs: JobsResource``) becomes an alias of its class, so that its methods
        are documented under the client's public path."""
        for name, member in list(client.members.items()):
            annotation = getattr(member, "annotation", None)
            if member.is_attribute and isinstance(annotation, griffe.ExprName):
                target = annotation.canonical_path
                if target.rsplit(".", 1)[-1].endswith("Resource"):
                    client.set_member(name, griffe.Alias(name, target, parent=client))
        # the client builds its namespaces: their constructors (``invoker``...) are no part of a user's API
        base = client.package[f"{client.module.path.split('.')[1]}.resources._base"]
        for module in [base, *base.parent.modules.values()]:
            for cls in module.classes.values():
                if "__init__" in cls.members:
                    cls.del_member("__init__")

    @staticmethod
    def _bulk_methods(resources: griffe.Module, protocol: griffe.Function) -> None:
        """``pause_many = BulkAction("jobs.pause")`` is documented as the method it is on an instance."""
        for module in resources.modules.values():
            for cls in module.classes.values():
                for name, member in list(cls.members.items()):
                    value = str(getattr(member, "value", ""))
                    action = re.fullmatch(r"BulkAction\(['\"]([\w.]+)['\"]\)", value)
                    if not member.is_attribute or not action:
                        continue
                    method = griffe.Function(
                        name,
                        lineno=member.lineno,
                        endlineno=member.endlineno,
                        parameters=griffe.Parameters(*list(protocol.parameters)),
                        returns=protocol.returns,
                        docstring=griffe.Docstring(BulkAction(action[1]).__doc__ or "", parent=None),
                    )
                    method.labels |= protocol.labels
                    cls.set_member(name, method)
                    method.docstring.parent = method  # type: ignore[union-attr]


# -- the built site: a role or a reference left unrendered fails the build --------------------------------------

#: What must never reach a reader: a Sphinx role, a reST ``::`` ending a paragraph, a cross-reference autorefs
#: could not resolve (left as ``[title][identifier]``, or as ``[title][]`` when the title is the identifier),
#: an autorefs tag.
RAW_MARKUP = re.compile(
    r":(?:py:)?(?:class|meth|func|data|attr|exc|mod|obj|const):"
    r"|::</p>"
    r"|\]\[(?:[A-Za-z_][\w.]*)?\]"
    r"|<autoref\b"
)
_CODE = re.compile(r"<(pre|code)\b.*?</\1>", re.S)


def raw_markup(html: str) -> list[str]:
    """The raw markup left in a built page's text (code excluded), with some context."""
    text = _CODE.sub("<code></code>", html)
    return [text[max(0, m.start() - 60) : m.end() + 20].replace("\n", " ") for m in RAW_MARKUP.finditer(text)]


#: What a reader meets on a page of the reference: its article (text, signatures, code) and its links' tooltips.
_ARTICLE = re.compile(r"<article\b.*?</article>", re.S)
#: A private name (``_attrs_field``, ``printmgmt._call``; not a suffix: ``*_many``) or the client's internals
#: (``invoker: Invoker``).
_PRIVATE = re.compile(r"(?:\b[A-Za-z]\w*\.)*(?<![\w$>}*])_[A-Za-z]\w*|\b[Ii]nvoker\b")
#: Names with a leading underscore that are the spec's, not Python's (``_id``): a reader sends and reads them.
_WIRE_NAMES = frozenset(wire for schema in SCHEMAS.values() for wire in schema.get("properties", {}))


def private_names(html: str) -> list[str]:
    """The private names a reader would meet on a page of the reference."""
    article = "".join(_ARTICLE.findall(html)) or html
    shown = re.sub(r"<[^>]+>", " ", article) + " " + " ".join(re.findall(r'title="([^"]*)"', article))
    return sorted(set(_PRIVATE.findall(unescape(shown))) - _WIRE_NAMES)


_HEADING = re.compile(r'<h\d id="(?P<id>[\w.]+)" class="doc doc-heading">')
#: The name in a row of a docstring's "Attributes:" table.
_ROW = re.compile(r'<tr class="doc-section-item">\s*<td><code>(?:<[^>]+>\s*)*(?P<name>\w+)')


def listed_twice(html: str) -> list[str]:
    """The members an entry (a class's) lists more than once: as entries of their own, as rows of its docstring's
    "Attributes:" table."""
    found: list[str] = []
    headings = list(_HEADING.finditer(html))
    for index, heading in enumerate(headings):
        below = headings[index + 1 :]
        members = [h["id"].rpartition(".")[2] for h in below if h["id"].rpartition(".")[0] == heading["id"]]
        own = html[heading.end() : below[0].start() if below else len(html)]
        tables = [part.split("</table>")[0] for part in own.split('class="doc-section-title">Attributes:')[1:]]
        members += [row["name"] for table in tables for row in _ROW.finditer(table)]
        found += [f"{heading['id']}.{name}" for name in sorted({name for name in members if members.count(name) > 1})]
    return found


def on_post_build(config: Any) -> None:
    pages = sorted(Path(config["site_dir"]).rglob("*.html"))
    findings = [
        f"{page.relative_to(config['site_dir'])}: …{found}…" for page in pages for found in raw_markup(page.read_text())
    ]
    reference = [page for page in pages if page.relative_to(config["site_dir"]).parts[0] == "reference"]
    findings += [
        f"{page.relative_to(config['site_dir'])}: a private name: {', '.join(names)}"
        for page in reference
        if (names := private_names(page.read_text()))
    ]
    findings += [
        f"{page.relative_to(config['site_dir'])}: listed twice: {', '.join(names)}"
        for page in reference
        if (names := listed_twice(page.read_text()))
    ]
    if findings:
        from mkdocs.exceptions import Abort

        raise Abort("raw markup, private names or members listed twice in the built site:\n" + "\n".join(findings))
