"""``PrintClient``, the async entry point of the SDK (defined in ``printmgmt._async.client``; the sync twin is
:mod:`printmgmt.sync`)."""

from ._async.client import PrintClient
from ._config import DEFAULT_TIMEOUT, DEFAULT_TRANSPORT, TransportName, Verify

__all__ = ["DEFAULT_TIMEOUT", "DEFAULT_TRANSPORT", "PrintClient", "TransportName", "Verify"]
