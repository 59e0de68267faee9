"""Shared test helpers."""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Iterator
from typing import NoReturn

import pytest


def require_service(name: str, exc: BaseException) -> NoReturn:
    """A service a test needs is unreachable: fail in CI, skip on a laptop (as dramatiq does)."""
    if os.environ.get("CI"):
        raise exc
    pytest.skip(f"{name} is not available: {exc}")


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    """The settings and the scoring config read again from the environment, before and
    after the test (both are cached per process)."""
    from scoregate.config.settings import get_scoring_config, get_settings

    get_settings.cache_clear()
    get_scoring_config.cache_clear()
    yield
    get_settings.cache_clear()
    get_scoring_config.cache_clear()


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """The loggers ``serve`` configures in JSON mode, as they were before the test."""
    names = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "scoregate.server")
    saved = {n: (list(logging.getLogger(n).handlers), logging.getLogger(n).level) for n in names}
    propagate = {n: logging.getLogger(n).propagate for n in names}
    showwarning = warnings.showwarning
    yield
    logging.captureWarnings(False)
    warnings.showwarning = showwarning
    for n, (handlers, level) in saved.items():
        logger = logging.getLogger(n)
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate[n]
