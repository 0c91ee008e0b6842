"""``client.printers``: printers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from printmgmt_api.api.printers import (
    check_printer_physical,
    clear_printer_message,
    create_printer,
    create_printer_test_job,
    delete_printer,
    get_printer,
    get_printer_logs,
    get_printers_metadata,
    list_printers,
    pause_printer,
    redirect_printer,
    resume_printer,
    set_printer_message,
    update_printer,
    update_printer_runtime,
)
from printmgmt_api.models import (
    ActionResult,
    LogEntry,
    Metadata,
    Printer,
    PrinterMessage,
    PrinterRuntime,
    RedirectRequest,
)

from ..._call import CallOptions
from ..._validate import body, path_segment
from ...errors import Target
from ._base import BulkAction, Collection, key_of, spec_of

__all__ = ["PrintersResource"]


class PrintersResource(Collection[Printer]):
    """Printers: list, create, read, change, delete, and act on them (pause, resume, redirect...)."""

    _item = Printer
    _list_request = staticmethod(list_printers.request)

    async def get(self, name: str, **options: Unpack[CallOptions]) -> Printer:
        """The printer called ``name`` (its ``_id``)."""
        return await self._read(get_printer.request, name, options)

    async def create(self, printer: Printer | Mapping[str, Any], **options: Unpack[CallOptions]) -> Printer | None:
        """Create a printer from a :class:`Printer` or a mapping with at least ``_id``; returns the created printer
        when the server's answer holds it, else None (an acknowledgement or no body)."""
        document = body(printer, Printer, "printer")
        return await self._invoker.invoke_written(
            create_printer.request(body=document), target=Target("printer", document.id), **options
        )

    async def update(
        self, name: str, printer: Printer | Mapping[str, Any], **options: Unpack[CallOptions]
    ) -> Printer | None:
        """Replace the document of printer ``name``; returns it when the answer holds it, else None."""
        path, target = key_of(spec_of(update_printer.request), name)
        request = update_printer.request(path, body=body(printer, Printer, "printer"))
        return await self._invoker.invoke_written(request, target=target, **options)

    async def delete(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Delete the printer."""
        return await self._read(delete_printer.request, name, options)

    async def metadata(self, **options: Unpack[CallOptions]) -> Metadata:
        """Description of the printer resource (column catalogue)."""
        return await self._invoker.invoke(get_printers_metadata.request(), **options)

    async def pause(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Pause output. :class:`~printmgmt.errors.PreconditionFailed` when already paused."""
        return await self._read(pause_printer.request, name, options)

    async def resume(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Resume output. :class:`~printmgmt.errors.PreconditionFailed` when not paused."""
        return await self._read(resume_printer.request, name, options)

    pause_many = BulkAction("printers.pause")
    resume_many = BulkAction("printers.resume")

    async def redirect(self, name: str, *, to: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Redirect the queue to printer ``to``. :class:`~printmgmt.errors.PreconditionFailed` for a bad target."""
        request = RedirectRequest(printer_name=path_segment(to, "redirect target"))
        return await self._read(redirect_printer.request, name, options, body=request)

    async def check_physical(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Query the device now and store the answer in the printer's ``physical``."""
        return await self._read(check_printer_physical.request, name, options)

    async def create_test_job(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Send a test page to the printer."""
        return await self._read(create_printer_test_job.request, name, options)

    async def logs(self, name: str, **options: Unpack[CallOptions]) -> list[LogEntry]:
        """The printer's log entries."""
        return await self._read(get_printer_logs.request, name, options)

    async def set_message(self, name: str, text: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Set the operator message shown for the printer."""
        if not isinstance(text, str):
            raise TypeError(f"message text must be a str, not {type(text).__name__}")
        return await self._read(set_printer_message.request, name, options, body=PrinterMessage(message=text))

    async def clear_message(self, name: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Remove the operator message."""
        return await self._read(clear_printer_message.request, name, options)

    async def update_runtime(
        self, name: str, changes: PrinterRuntime | Mapping[str, Any], **options: Unpack[CallOptions]
    ) -> ActionResult:
        """Change runtime fields (a :class:`PrinterRuntime` or a mapping such as ``{"queuedJobs": 0}``)."""
        return await self._read(
            update_printer_runtime.request, name, options, body=body(changes, PrinterRuntime, "runtime changes")
        )
