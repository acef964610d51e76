"""Structured logs: one JSON object per line, each with the request id, from Django and
from gunicorn alike (its access log and its own messages).

``JsonFormatter`` is Django's formatter when ``LOG_FORMAT=json`` (the default without
DEBUG); ``GunicornLogger`` is gunicorn's ``logger_class`` in deploy/gunicorn.conf.py. The
access line takes the request id from the answer's X-Request-ID header, which
``scorebook.core.requestid`` sets on every answer, so it matches the application's lines.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from gunicorn.glogging import Logger

from scorebook.core import requestid

# What django.request and our own code attach to records, worth keeping as fields.
FIELDS = ("status_code", "method", "path", "remote", "bytes", "duration_ms", "agent")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", None) or requestid.current(),
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "path"):
            line["method"], line["path"] = request.method, request.path
        for name in FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class GunicornLogger(Logger):
    """gunicorn's logger with JSON lines: the access log carries the request id."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JsonFormatter())

    def access(self, resp: Any, req: Any, environ: dict, request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        status = atoms["s"]
        self.access_log.info(
            "%s %s %s",
            atoms["m"],
            atoms["U"],
            status,
            extra={
                "request_id": atoms.get("{x-request-id}o", "-"),
                "status_code": int(status) if str(status).isdigit() else status,
                "method": atoms["m"],
                "path": atoms["U"],
                "remote": atoms["h"],
                "bytes": atoms["B"],
                "duration_ms": atoms["M"],
                "agent": atoms["a"],
            },
        )
