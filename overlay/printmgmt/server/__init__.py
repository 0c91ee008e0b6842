"""The model of the server: what the SDK, the simulator, ``printmgmt doctor`` and the command line believe
about how a PLOSSYS server behaves beyond what the interface document shows.

This module is the package's one door: the modules behind it are private, and nothing outside the package
imports them. Standard library only, so every layer of the SDK may use it.

- the list-page shapes: every plausible form of a job or printer list page, read (:func:`read_page`) and
  written (:func:`write_page`) from one table (:data:`FORMS`);
- the profile: the named settings where a real server may answer otherwise than ``openapi.yaml`` guesses
  (:class:`Variants`, ``max_top``), their values, and profile files read and written as TOML or JSON.
"""

from __future__ import annotations

# profile and page shapes
from ._page_shapes import (
    FORMS,
    LIST_KEYS,
    CountType,
    PageForm,
    PageShape,
    ReadPage,
    list_items,
    read_page,
    read_total,
    write_page,
)
from ._profile import (
    COUNT_TYPES,
    MAX_TOP,
    NO_CAP,
    PAGE_FORMS,
    PROFILE_SETTINGS,
    UNKNOWN,
    AuthErrors,
    BadBodies,
    Choice,
    CountForm,
    JobIds,
    ListReads,
    ListShape,
    Nulls,
    OpenReads,
    Profile,
    Skip,
    StatusForm,
    TopZero,
    UnknownRoutes,
    Variants,
    WriteAnswer,
    alternatives,
    parse_variant,
    read_settings,
    settings_of,
    write_profile,
)

__all__ = [
    # profile and page shapes
    "COUNT_TYPES",
    "FORMS",
    "LIST_KEYS",
    "MAX_TOP",
    "NO_CAP",
    "PAGE_FORMS",
    "PROFILE_SETTINGS",
    "UNKNOWN",
    "AuthErrors",
    "BadBodies",
    "Choice",
    "CountForm",
    "CountType",
    "JobIds",
    "ListReads",
    "ListShape",
    "Nulls",
    "OpenReads",
    "PageForm",
    "PageShape",
    "Profile",
    "ReadPage",
    "Skip",
    "StatusForm",
    "TopZero",
    "UnknownRoutes",
    "Variants",
    "WriteAnswer",
    "alternatives",
    "list_items",
    "parse_variant",
    "read_page",
    "read_settings",
    "read_total",
    "settings_of",
    "write_page",
    "write_profile",
]
