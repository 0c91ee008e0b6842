"""The synchronous client: the async client's surface with ``with`` for ``async with``, ``for`` for ``async for``
and no ``await`` (generated from it: ``printmgmt._sync``); models, errors, OData, retry policies, bulk results
and pages are ``printmgmt``'s. Threads share a token request as tasks do (README, "Quick start").

::

    from printmgmt.sync import PrintClient

    with PrintClient.from_env() as client:
        for job in client.jobs.iterate(filter=odata.field("status") == "Error"):
            print(job.id)
"""

from ._sync.client import PrintClient
from ._sync.pager import Pager

__all__ = ["Pager", "PrintClient"]
