"""The namespaces of :class:`~printmgmt.PrintClient`, one module per group of the interface, each loaded by the
client when its namespace is first used (``client.jobs`` loads ``jobs`` and the generated modules it sends)."""
