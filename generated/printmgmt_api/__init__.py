"""A client library for accessing Print Job and Printer Management REST Interface"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
