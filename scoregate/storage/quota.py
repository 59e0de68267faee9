"""The seed-002 research quota: 5 research runs per subject per hour.

Kept in Redis (one atomic Lua script, shared by every worker) in production and in
memory for the embedded default and unit tests. The gate's pure logic is in
``scoregate.scoring.gating``.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

WINDOW_S = 3600


@dataclass(frozen=True)
class QuotaDecision:
    """Outcome of asking for one research run."""

    allowed: bool
    used: int
    limit: int

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    @property
    def message(self) -> str:
        if self.allowed:
            return f"Triggering research ({self.remaining}/{self.limit} quota remaining this hour)"
        return (
            f"Research quota exceeded ({self.limit}/hour limit): wait, or choose from the"
            " available options without research"
        )


class QuotaStore(Protocol):
    """Counts research runs per subject in a fixed one-hour window.

    ``token`` names what the slot is for (a job's iteration): acquiring again with a token
    that holds a slot in this window returns that slot instead of taking another, so a
    transaction that acquired, rolled back and ran again is counted once.
    """

    def acquire(self, subject: str, limit: int, token: str | None = None) -> QuotaDecision: ...

    def peek(self, subject: str, limit: int) -> QuotaDecision: ...


def seconds_to_next_window(now: float) -> int:
    """Seconds until the hourly window holding ``now`` ends and the quota fills again."""
    return math.ceil(WINDOW_S - now % WINDOW_S)


def _bucket(subject: str, now: float) -> str:
    return f"scoregate:research:{subject}:{int(now // WINDOW_S)}"


# INCR then undo past the limit, in one script so two workers can never both take the last
# slot. With a token (ARGV[3]), a token already holding a slot of this window (the set
# KEYS[2]) gets it again without counting.
_ACQUIRE_LUA = """
if ARGV[3] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 1 then
  return {1, tonumber(redis.call('GET', KEYS[1]) or '0')}
end
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return {0, n - 1}
end
if ARGV[3] ~= '' then
  redis.call('SADD', KEYS[2], ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return {1, n}
"""


class RedisQuota:
    """Research quota kept in Redis, shared by every worker."""

    def __init__(self, client: Any, clock: Any = time.time) -> None:
        self._client = client
        self._clock = clock
        self._script = client.register_script(_ACQUIRE_LUA)

    def acquire(self, subject: str, limit: int, token: str | None = None) -> QuotaDecision:
        key = _bucket(subject, self._clock())
        allowed, used = self._script(
            keys=[key, key + ":tokens"], args=[limit, WINDOW_S + 60, token or ""]
        )
        return QuotaDecision(allowed=bool(allowed), used=int(used), limit=limit)

    def peek(self, subject: str, limit: int) -> QuotaDecision:
        raw = self._client.get(_bucket(subject, self._clock()))
        used = int(raw) if raw is not None else 0
        return QuotaDecision(allowed=used < limit, used=used, limit=limit)


class MemoryQuota:
    """In-process quota for the embedded default and tests."""

    def __init__(self, clock: Any = time.time) -> None:
        self._counts: dict[str, int] = {}
        self._tokens: dict[str, set[str]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def acquire(self, subject: str, limit: int, token: str | None = None) -> QuotaDecision:
        key = _bucket(subject, self._clock())
        with self._lock:
            used = self._counts.get(key, 0)
            if token is not None and token in self._tokens.get(key, set()):
                return QuotaDecision(allowed=True, used=used, limit=limit)
            if used >= limit:
                return QuotaDecision(allowed=False, used=used, limit=limit)
            self._counts[key] = used + 1
            if token is not None:
                self._tokens.setdefault(key, set()).add(token)
            return QuotaDecision(allowed=True, used=used + 1, limit=limit)

    def peek(self, subject: str, limit: int) -> QuotaDecision:
        used = self._counts.get(_bucket(subject, self._clock()), 0)
        return QuotaDecision(allowed=used < limit, used=used, limit=limit)
