"""The async implementation, the one source of the sync client: ``printmgmt._sync`` is generated from these
modules by ``scripts/unasync.py`` (``make generate-sync``; ``make test`` fails when it is stale)."""
