"""Checks at the pipeline's boundaries: submission bodies, task messages and job files.

Pydantic validates the shape of a request; this module refuses what would only fail
later, deep in a worker or in the database: text Postgres cannot store (NUL characters,
lone surrogates that are not valid UTF-8), nesting deep enough to exhaust the stack,
keys of the wrong type, and task messages whose job id or iteration is garbage.
Every error is a ``ValueError`` whose message says where the problem is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Deepest nesting of objects and lists accepted in a body (JSON Schema values included).
MAX_DEPTH = 64
#: Longest idempotency key, task name or submitter (the database columns' size).
MAX_KEY_CHARS = 255
#: Job ids are UUIDs; anything longer is not one of ours.
MAX_JOB_ID_CHARS = 64
#: Highest iteration number a message may carry (the loop allows 50).
MAX_ITERATION = 1000

_JOB_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
_SURROGATE = re.compile("[\ud800-\udfff]")


class BadMessage(ValueError):
    """A task message that can never succeed: logged and dropped, never retried."""


def check_text(value: str, where: str) -> None:
    """Refuse text Postgres cannot store: NUL characters and lone surrogates."""
    nul = value.find("\x00")
    if nul >= 0:
        raise ValueError(f"{where}: contains a NUL character (\\x00) at position {nul}")
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise ValueError(
            f"{where}: is not valid UTF-8 (lone surrogate {bad.group()!a} at position"
            f" {bad.start()})"
        )


def storable(text: str) -> str:
    """``text`` as Postgres can store it: each lone surrogate and NUL written as its escape
    (``\\ud800``, ``\\x00``). For reasons and messages that quote what a client sent, so
    that recording a refusal never fails on the text it refuses."""
    return _SURROGATE.sub(lambda m: ascii(m.group())[1:-1], text).replace("\x00", "\\x00")


#: Characters no name may hold: they break a line (``\n``, ``\r``, U+2028) or reorder the
#: text around them, so that an audit trail could read as if someone else acted.
_NOT_IN_NAMES = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]"
)


def check_name(value: str, where: str) -> None:
    """Refuse a name (a reviewer, an actor, a submitter) that is not one line of printable
    text: it is shown in the audit trail, one row a decision."""
    check_text(value, where)
    bad = _NOT_IN_NAMES.search(value)
    if bad is not None:
        raise ValueError(
            f"{where}: contains the control character {bad.group()!a} at position"
            f" {bad.start()}: a name is one line of printable text"
        )


def check_tree(value: Any, where: str, depth: int = 0) -> None:
    """Apply :func:`check_text` to every string (keys too) of a JSON-like value."""
    if depth > MAX_DEPTH:
        raise ValueError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, str):
        check_text(value, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                check_text(key, f"{where} (a key)")
            check_tree(item, f"{where}.{key}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            check_tree(item, f"{where}.{i}", depth + 1)


def check_body(body: dict[str, Any]) -> None:
    """What a submission needs beyond its schema: storable text and short string keys."""
    for name in ("idempotency_key", "task_name", "submitted_by"):
        value = body.get(name)
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name} must be a non-empty string, got {type(value).__name__}")
        if len(value) > MAX_KEY_CHARS:
            raise ValueError(f"{name} is {len(value)} characters long; at most {MAX_KEY_CHARS}")
    if isinstance(body.get("submitted_by"), str):
        check_name(body["submitted_by"], "submitted_by")
    check_tree(body, "job")


# --- task messages ------------------------------------------------------------------------------


def job_ref(kwargs: dict[str, Any]) -> tuple[str, int]:
    """The ``(job_id, n)`` a pipeline message is about.

    Raises:
        BadMessage: either is missing or malformed.
    """
    job_id, n = kwargs.get("job_id"), kwargs.get("n")
    if not isinstance(job_id, str) or not _JOB_ID.match(job_id):
        raise BadMessage(f"job_id must be a job id string, got {_show(job_id)}")
    if isinstance(n, bool) or not isinstance(n, int | str):
        raise BadMessage(f"n must be an iteration number, got {_show(n)}")
    try:
        number = int(n)
    except ValueError:
        raise BadMessage(f"n must be an iteration number, got {_show(n)}") from None
    if not 1 <= number <= MAX_ITERATION:
        raise BadMessage(f"n must be between 1 and {MAX_ITERATION}, got {number}")
    return job_id, number


def track_item(kwargs: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """A validated track message: job id, iteration and the fields its pool needs.

    Raises:
        BadMessage: a field is missing or has the wrong type.
    """
    fields = tuple(fields)
    missing = [f for f in fields if f not in kwargs]
    if missing:
        raise BadMessage(f"missing field(s): {', '.join(missing)}")
    job_id, n = job_ref(kwargs)
    item = {**kwargs, "job_id": job_id, "n": n}
    for name in ("query", "content"):
        if name in fields and not isinstance(kwargs[name], str):
            raise BadMessage(f"{name} must be a string, got {_show(kwargs[name])}")
    if "request" in fields and not isinstance(kwargs["request"], dict):
        raise BadMessage(f"request must be an object, got {_show(kwargs['request'])}")
    return item


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- JSONL job files ----------------------------------------------------------------------------


@dataclass(frozen=True)
class JobLine:
    """One job of a JSONL file and the line it came from."""

    line: int
    body: dict[str, Any]


def read_jobs_file(path: Path) -> list[JobLine]:
    """Parse a JSONL file of jobs: one JSON object per line, blank lines skipped.

    A line holding a bare request (``{"query": ..., "content": ...}``) is wrapped as
    ``{"request": ...}``.

    Raises:
        ValueError: ``PATH:LINE: what is wrong`` for the first bad line (nothing is kept).
        FileNotFoundError: the file does not exist.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path} does not exist") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    return [job for i, line in enumerate(raw.splitlines(), 1) if (job := _line(path, i, line))]


def _line(path: Path, number: int, raw: bytes) -> JobLine | None:
    where = f"{path}:{number}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{where}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"
        ) from None
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError(f"{where}: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a job must be a JSON object, got {type(data).__name__}")
    return JobLine(number, data if "request" in data else {"request": data})
