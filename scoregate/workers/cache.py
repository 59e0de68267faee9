"""A Redis cache of query embeddings, keyed by model and text hash, with a TTL."""

from __future__ import annotations

from typing import Any


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
