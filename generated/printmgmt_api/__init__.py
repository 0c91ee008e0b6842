"""A client library for accessing Print Job and Printer Management REST Interface"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
