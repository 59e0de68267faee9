"""How a process that has a broker builds its pipeline context: a slot filled from above.

``pipelines/`` never imports ``workers/`` (the Celery app and the worker's context sit
one layer up). The package facade (``scoregate/__init__.py``), which every import of
scoregate runs first, fills :data:`context_factory` with a function that imports
``scoregate.workers.runtime`` when it is first called; ``pipelines.api`` calls the slot
when ``SCOREGATE_BROKER_URL`` is set. A test or an embedding program may fill it with
its own factory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoregate.pipelines.context import PipelineContext

#: Builds this process's broker-backed context (no arguments); None until filled.
context_factory: Callable[[], PipelineContext] | None = None


def use(factory: Callable[[], PipelineContext]) -> None:
    """Fill the slot: ``factory()`` returns the context of a process with a broker."""
    global context_factory
    context_factory = factory


def broker_context() -> PipelineContext:
    """The broker-backed context, from the factory the package facade installed."""
    if context_factory is None:
        raise RuntimeError(
            "SCOREGATE_BROKER_URL is set but no broker context is installed: import"
            " scoregate (its __init__ installs scoregate.workers.runtime.get_context) or"
            " call scoregate.pipelines.broker.use(factory) first"
        )
    return context_factory()
