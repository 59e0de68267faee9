"""Shared test helpers."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def require_service(name: str, exc: BaseException) -> NoReturn:
    """A service a test needs is unreachable: fail in CI, skip on a laptop (as dramatiq does)."""
    if os.environ.get("CI"):
        raise exc
    pytest.skip(f"{name} is not available: {exc}")
