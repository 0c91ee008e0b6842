"""``client.printers``: printers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printmgmt_api.models import (
    ActionResult,
    LogEntry,
    Metadata,
    Printer,
    PrinterCollection,
    PrinterMessage,
    PrinterRuntime,
    RedirectRequest,
)

from .._invoke import Operation, Timeout
from .._validate import body, path_segment
from ._base import BulkAction, Collection

__all__ = ["PrintersResource"]

_LIST = Operation("listPrinters")
_CREATE = Operation("createPrinter")
_METADATA = Operation("getPrintersMetadata")
_GET = Operation("getPrinter")
_UPDATE = Operation("updatePrinter")
_DELETE = Operation("deletePrinter")
_CHECK_PHYSICAL = Operation("checkPrinterPhysical")
_CREATE_TEST_JOB = Operation("createPrinterTestJob")
_LOGS = Operation("getPrinterLogs")
_SET_MESSAGE = Operation("setPrinterMessage")
_CLEAR_MESSAGE = Operation("clearPrinterMessage")
_PAUSE = Operation("pausePrinter")
_REDIRECT = Operation("redirectPrinter")
_RESUME = Operation("resumePrinter")
_RUNTIME = Operation("updatePrinterRuntime")


class PrintersResource(Collection[Printer]):
    """Printers: list, create, read, change, delete, and act on them (pause, resume, redirect...)."""

    _noun, _key_name = "printer", "name"
    _list_operation = _LIST
    _collection_model = PrinterCollection

    async def get(self, name: str, *, timeout: Timeout = None) -> Printer:
        """The printer called ``name`` (its ``_id``)."""
        return await self._read(_GET, name, Printer, timeout=timeout)

    async def create(self, printer: Printer | Mapping[str, Any], *, timeout: Timeout = None) -> Printer:
        """Create a printer from a :class:`Printer` or a mapping with at least ``_id``."""
        document = body(printer, Printer, "printer")
        return await self._invoker.call(
            _CREATE, expect=Printer, target=f"printer {document.id!r}", body=document, timeout=timeout
        )

    async def update(self, name: str, printer: Printer | Mapping[str, Any], *, timeout: Timeout = None) -> Printer:
        """Replace the document of printer ``name``."""
        return await self._read(_UPDATE, name, Printer, body=body(printer, Printer, "printer"), timeout=timeout)

    async def delete(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Delete the printer."""
        return await self._act_on(_DELETE, name, timeout=timeout)

    async def metadata(self, *, timeout: Timeout = None) -> Metadata:
        """Description of the printer resource (column catalogue)."""
        return await self._invoker.call(_METADATA, expect=Metadata, timeout=timeout)

    async def pause(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Pause output. :class:`~printmgmt.errors.PreconditionFailed` when already paused."""
        return await self._act_on(_PAUSE, name, timeout=timeout)

    async def resume(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Resume output. :class:`~printmgmt.errors.PreconditionFailed` when not paused."""
        return await self._act_on(_RESUME, name, timeout=timeout)

    pause_many = BulkAction("pause")
    resume_many = BulkAction("resume")

    async def redirect(self, name: str, *, to: str, timeout: Timeout = None) -> ActionResult:
        """Redirect the queue to printer ``to``. :class:`~printmgmt.errors.PreconditionFailed` for a bad target."""
        request = RedirectRequest(printer_name=path_segment(to, "redirect target"))
        return await self._act_on(_REDIRECT, name, body=request, timeout=timeout)

    async def check_physical(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Query the device now and store the answer in the printer's ``physical``."""
        return await self._act_on(_CHECK_PHYSICAL, name, timeout=timeout)

    async def create_test_job(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Send a test page to the printer."""
        return await self._act_on(_CREATE_TEST_JOB, name, timeout=timeout)

    async def logs(self, name: str, *, timeout: Timeout = None) -> list[LogEntry]:
        """The printer's log entries."""
        return await self._read(_LOGS, name, list, timeout=timeout)

    async def set_message(self, name: str, text: str, *, timeout: Timeout = None) -> ActionResult:
        """Set the operator message shown for the printer."""
        if not isinstance(text, str):
            raise TypeError(f"message text must be a str, not {type(text).__name__}")
        return await self._act_on(_SET_MESSAGE, name, body=PrinterMessage(message=text), timeout=timeout)

    async def clear_message(self, name: str, *, timeout: Timeout = None) -> ActionResult:
        """Remove the operator message."""
        return await self._act_on(_CLEAR_MESSAGE, name, timeout=timeout)

    async def update_runtime(
        self, name: str, changes: PrinterRuntime | Mapping[str, Any], *, timeout: Timeout = None
    ) -> ActionResult:
        """Change runtime fields (a :class:`PrinterRuntime` or a mapping such as ``{"queuedJobs": 0}``)."""
        return await self._act_on(
            _RUNTIME, name, body=body(changes, PrinterRuntime, "runtime changes"), timeout=timeout
        )
