"""Read a process's output as JSON log records (``SCOREGATE_LOG_FORMAT=json``)."""

from __future__ import annotations

import json
from typing import Any

#: The fields every record of ``scoregate.logs``' JSON formatter has.
RECORD_FIELDS = {"ts", "level", "logger", "message"}


def json_records(text: str) -> list[dict[str, Any]]:
    """Every line of ``text`` as a JSON record with :data:`RECORD_FIELDS`; the first line
    that is not one fails the test, quoted with the end of ``text``."""
    found = []
    for line in text.splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            raise AssertionError(f"not a JSON line: {line!r}\n{text[-3000:]}") from None
    for record in found:
        assert isinstance(record, dict) and RECORD_FIELDS <= set(record), record
    return found
