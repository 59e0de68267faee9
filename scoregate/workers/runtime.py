"""The per-process pipeline context of a Celery worker, built lazily on first use."""

from __future__ import annotations

import logging
import time
from functools import lru_cache
from typing import Any

from celery import signals

from scoregate.config.settings import get_scoring_config, get_settings
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import CeleryDispatcher
from scoregate.pipelines.workflow import load_workflow
from scoregate.scoring.encoders import model_identity
from scoregate.scoring.engine import LocalModels
from scoregate.storage.db import dispose_engines, session_scope
from scoregate.storage.quota import MemoryQuota, QuotaStore, RedisQuota
from scoregate.workers import telemetry as _telemetry  # noqa: F401  (its signal handlers)
from scoregate.workers.models import WatchedModels, needed_models

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def redis_client() -> Any | None:
    """This process's Redis for caches and the research quota (one connection pool)."""
    url = get_settings().cache_redis_url()
    if url is None:
        return None
    import redis

    return redis.Redis.from_url(url, socket_timeout=5, health_check_interval=30)


def _quota() -> QuotaStore:
    client = redis_client()
    return RedisQuota(client) if client is not None else MemoryQuota()


def _models() -> LocalModels:
    from scoregate.workers.cache import RedisEmbeddingCache

    settings = get_settings()
    config = get_scoring_config()
    client = redis_client()
    cache = None
    if client:
        # Query embeddings are keyed by model name + text; the prefix adds the model's
        # files and the number format, so workers that differ there never share vectors.
        ident = model_identity(config.semantic.model, settings.device, settings.cpu_backend)
        cache = RedisEmbeddingCache(
            client, settings.embedding_cache_ttl_s, prefix=f"scoregate:emb:{ident}:"
        )
    return LocalModels(
        config,
        device=settings.device,
        cache=cache,
        threads=settings.torch_threads,
        backend=settings.cpu_backend,
    )


@lru_cache(maxsize=1)
def get_context() -> PipelineContext:
    """Build the worker's context once per process (after fork)."""
    from scoregate.workers.app import get_app
    from scoregate.workers.cache import RedisScoreCache

    settings = get_settings()
    client = redis_client()
    workflow = load_workflow(settings.workflow_config) if settings.workflow_config else None
    return PipelineContext(
        settings=settings,
        config=get_scoring_config(),
        dispatcher=CeleryDispatcher(get_app()),
        session=session_scope,
        quota=_quota(),
        models_factory=lambda: WatchedModels(
            _models(), lambda pool: needed_models(pool, get_scoring_config())
        ),
        workflow=workflow,
        pair_cache=RedisScoreCache(client, settings.embedding_cache_ttl_s, prefix="scoregate:pair:")
        if client
        else None,
    )


@signals.worker_process_init.connect
def _after_fork(**_: Any) -> None:
    # Connections opened by the parent must not be shared with forked children.
    dispose_engines(close=False)
    redis_client.cache_clear()
    get_context.cache_clear()


@signals.worker_process_init.connect
def _load_models(**_: Any) -> None:
    """A model pool's process loads its models now, before it takes a batch (after
    ``_after_fork``: the context it loads them into is this process's)."""
    from scoregate.workers.app import get_app
    from scoregate.workers.command import MODEL_POOLS
    from scoregate.workers.startup import served_pools

    queues = get_app().amqp.queues
    pools = [p for p in served_pools(queues.consume_from or queues) if p in MODEL_POOLS]
    if not pools:
        return
    models = get_context().models
    if not isinstance(models, WatchedModels):
        return
    started = time.perf_counter()
    try:
        models.load(pools)
        log.info("%s: models loaded in %.1f s", ", ".join(pools), time.perf_counter() - started)
    except Exception as exc:  # the first batch loads them again (and says so if it fails)
        log.error(
            "%s: cannot load the models at start (%s: %s)",
            ", ".join(pools),
            type(exc).__name__,
            exc,
        )
