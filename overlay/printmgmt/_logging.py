"""``PRINTMGMT_LOG=debug|info|warning`` turns on the ``printmgmt`` logger without touching the root logger."""

from __future__ import annotations

import logging
import os

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}


def configure_from_env() -> None:
    level = _LEVELS.get(os.environ.get("PRINTMGMT_LOG", "").strip().lower())
    if level is None:
        return
    logger = logging.getLogger("printmgmt")
    logger.setLevel(level)
    if not any(getattr(handler, "_printmgmt", False) for handler in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        handler._printmgmt = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
