"""The synchronous client: the async client's surface with ``with`` for ``async with``, ``for`` for ``async for``
and no ``await`` (generated from it: ``printmgmt._sync``).

::

    from printmgmt.sync import PrintClient

    with PrintClient.from_env() as client:
        for job in client.jobs.iterate(filter=odata.field("status") == "Error"):
            print(job.id)

Everything else (models, errors, OData, retry policies, bulk results, pages) is the same as ``printmgmt``'s.
Token acquisition is shared by threads as by tasks; ``iterate(prefetch=n)`` fetches ahead on threads and
bulk actions run on a thread pool of ``concurrency`` workers.
"""

from ._sync.client import PrintClient
from ._sync.pager import Pager

__all__ = ["Pager", "PrintClient"]
