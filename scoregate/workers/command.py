"""``scoregate worker --pool P``: the ``celery worker`` command line for one pool."""

from __future__ import annotations

import re

from scoregate.config.settings import get_settings
from scoregate.pipelines.context import POOLS

MODEL_POOLS = ("semantic", "precision")


def worker_argv(
    pool: str,
    *,
    concurrency: int | None = None,
    loglevel: str = "INFO",
    beat: bool = False,
    name: str | None = None,
) -> list[str]:
    """Arguments for ``celery worker`` serving ``pool`` (or every pool with ``all``).

    ``name`` is the node name (default ``POOL@%h``): two workers of one pool on one host
    need distinct ones, or ``scoregate workers`` sees them as one.
    """
    if pool != "all" and pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}; choose one of {', '.join(POOLS)} or all")
    if name is not None and not re.fullmatch(r"[\w.%-]+(@[\w.%-]+)?", name):
        raise ValueError(
            f"node name {name!r}: use letters, digits, '.', '-', '_' and '%h' (the host),"
            " as NAME or NAME@HOST, e.g. precision-gpu1@%h"
        )
    queues = ",".join(POOLS) if pool == "all" else pool
    events = ["-E"] if get_settings().task_events else []
    node = f"{pool}@%h" if name is None else name if "@" in name else f"{name}@%h"
    argv = ["worker", "-Q", queues, "-l", loglevel, *events, "-n", node]
    if concurrency is None and pool in MODEL_POOLS:
        concurrency = 1  # one process per device: a model is loaded once per process
    if concurrency is not None:
        if concurrency < 1:
            raise ValueError("--concurrency must be at least 1")
        argv += ["-c", str(concurrency)]
    # Every pool's tasks are batched: batches need the buffered messages prefetched,
    # several flushes' worth.
    argv += ["--prefetch-multiplier", str(max(4, get_settings().batch_size * 4))]
    if beat:
        argv.append("-B")
    if get_settings().log_format == "json":
        # the start banner is printed, not logged: no JSON line. `--quiet` is the celery
        # command's own option, so it goes before `worker`
        argv.insert(0, "--quiet")
    return argv
