"""Redis caches with a TTL: query embeddings (keyed by model and text hash) and scored
pairs (keyed by track, its configuration and the pair)."""

from __future__ import annotations

import json
import time
from typing import Any

from scoregate.telemetry.prometheus import record_cache_hit


class RedisEmbeddingCache:
    """``get``/``set`` of raw embedding bytes; errors degrade to a cache miss."""

    def __init__(self, client: Any, ttl_s: int, prefix: str = "scoregate:emb:") -> None:
        self._client = client
        self._ttl = ttl_s
        self._prefix = prefix

    def get(self, key: str) -> bytes | None:
        try:
            value = self._client.get(self._prefix + key)
        except Exception:  # the cache is an optimisation: a Redis blip must not fail scoring
            return None
        return value if isinstance(value, bytes) else None

    def set(self, key: str, value: bytes) -> None:
        try:
            self._client.set(self._prefix + key, value, ex=self._ttl or None)
        except Exception:  # see get()
            return


class RedisScoreCache(RedisEmbeddingCache):
    """The pair cache (``PipelineContext.pair_cache``) of track scores, stored as the JSON
    of a ``TrackScore`` under ``TRACK:DIGEST`` (``pipelines.steps.pair_key``).

    A hit is counted (``scoregate_track_cache_hits_total``) and its score carries the time
    of this lookup, not the original scoring's: the latency histogram and the step log
    show what this job cost, and a cache hit never looks like a slow model run.
    """

    def get(self, key: str) -> bytes | None:
        start = time.perf_counter()
        raw = super().get(key)
        if raw is None:
            return None
        try:
            score = json.loads(raw)
        except ValueError:
            return raw  # not ours to fix: the reader refuses it as it would have
        if not isinstance(score, dict):
            return raw
        score["elapsed_ms"] = (time.perf_counter() - start) * 1000
        record_cache_hit(key.split(":", 1)[0])
        return json.dumps(score).encode()
