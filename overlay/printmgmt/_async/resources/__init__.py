"""The namespaces of :class:`~printmgmt.PrintClient`, one module per group of the interface."""

from .auth import AuthResource
from .configs import ConfigsResource
from .flows import FlowsResource
from .jobs import JobsResource
from .printers import PrintersResource
from .statistics import StatisticsResource

__all__ = [
    "AuthResource",
    "ConfigsResource",
    "FlowsResource",
    "JobsResource",
    "PrintersResource",
    "StatisticsResource",
]
