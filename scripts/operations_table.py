"""Write README.md's operations table from the spec's operations and the facade's signatures.

Each operation of ``openapi.yaml`` (``printmgmt_api.operations``) is listed under its namespace, in the spec's
order, as its client method with the arguments a caller gives (call options left out; more than two optional
keywords shown as ``...``). ``make generate`` runs it; ``tests/test_operations_table.py`` fails when the
README's table is not what it writes.

    python scripts/operations_table.py          # rewrite the table in README.md
    python scripts/operations_table.py --check  # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BEGIN = "<!-- operations table: written by scripts/operations_table.py (make generate) from openapi.yaml -->"
END = "<!-- end of operations table -->"

#: Client methods that are no operation of the spec, shown after the root operations.
CLIENT_EXTRAS = '`request(req)` (any generated request, see "The seam"), `request_raw(req)` (its 2xx answer unparsed)'
#: The call options every method takes (``printmgmt.CallOptions``, ``timeout=``), not repeated per method.
CALL_OPTIONS = frozenset({"options", "timeout", "deadline"})


def arguments(method: Any) -> str:
    """``(id, to=None)``: the arguments a caller gives, from the method's signature."""
    shown, optional = [], []
    for param in inspect.signature(method).parameters.values():
        if param.name in CALL_OPTIONS:
            continue
        if param.kind is param.VAR_KEYWORD:
            shown.append(f"**{param.name}")
        elif param.kind is param.KEYWORD_ONLY:
            if param.default is param.empty:
                shown.append(f"{param.name}=...")
            else:
                optional.append(f"{param.name}={param.default!r}")
        else:
            shown.append(param.name)
    if len(optional) > 2:
        return "(...)"
    return f"({', '.join(shown + optional)})"


def render() -> str:
    from printmgmt import PrintClient
    from printmgmt_api.operations import OPERATIONS

    client = PrintClient("https://printmgmt.invalid", auth="token")
    rows: dict[str, list[str]] = {"client": []}
    for spec in OPERATIONS.values():
        *group, name = spec.name.split(".")
        owner: Any = client
        for part in group:
            owner = getattr(owner, part, None)
        method = getattr(owner, name, None)
        call = f"`{name}{arguments(method)}`" if method is not None else f"`{name}()` (no client method yet)"
        cells = rows.setdefault(".".join(["client", *group]), [])
        cells.append(f"{call} (`{spec.method} {spec.path}`)" if not group else call)
        if spec.pages and method is not None and hasattr(owner, "iterate"):
            cells.append(f"`iterate{arguments(owner.iterate)}`")
    rows["client"].append(CLIENT_EXTRAS)
    lines = [BEGIN, "", "| Namespace | Methods |", "|---|---|"]
    lines += [f"| `{namespace}` | {', '.join(cells)} |" for namespace, cells in rows.items()]
    return "\n".join([*lines, "", END])


def updated(text: str) -> str:
    """``text`` (README.md) with its operations table rewritten."""
    head, _, rest = text.partition(BEGIN)
    _, found, tail = rest.partition(END)
    if not found:
        raise SystemExit(f"README.md has no operations table between {BEGIN!r} and {END!r}")
    return head + render() + tail


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when README.md's table is stale")
    text = README.read_text()
    new = updated(text)
    if parser.parse_args().check:
        if new != text:
            print("README.md's operations table is stale: run make generate", file=sys.stderr)
            return 1
        return 0
    README.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
