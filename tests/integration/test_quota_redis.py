"""The research quota on a real Redis: atomic under concurrent workers, tokens counted once."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from scoregate.storage.quota import RedisQuota

pytestmark = pytest.mark.integration


def test_concurrent_acquires_never_exceed_the_limit(redis_url):
    subject = f"race-{uuid.uuid4()}"
    quota = RedisQuota(redis.Redis.from_url(redis_url))
    with ThreadPoolExecutor(16) as pool:
        decisions = list(pool.map(lambda _: quota.acquire(subject, 5), range(200)))
    assert sum(d.allowed for d in decisions) == 5
    assert sorted(d.used for d in decisions if d.allowed) == [1, 2, 3, 4, 5]
    assert quota.peek(subject, 5).remaining == 0


def test_a_retried_acquire_with_its_token_takes_one_slot(redis_url):
    subject = f"token-{uuid.uuid4()}"
    client = redis.Redis.from_url(redis_url)
    quota = RedisQuota(client)
    with ThreadPoolExecutor(8) as pool:  # the same decision retried, concurrently
        same = list(pool.map(lambda _: quota.acquire(subject, 3, token="job-1:1"), range(20)))
    assert all(d.allowed for d in same) and quota.peek(subject, 3).used == 1
    keys = client.keys(f"scoregate:research:{subject}:*")
    assert keys and all(0 < client.ttl(k) <= 3660 for k in keys)  # nothing kept for ever


def test_a_test_that_leaves_quota_used_behind(redis_url):
    quota = RedisQuota(redis.Redis.from_url(redis_url))
    assert quota.acquire("left-behind", 5).allowed  # not cleaned up here


def test_the_next_test_starts_with_no_quota_used(redis_url):
    """The conftest drops scoregate's keys before each test (the test above left one);
    the broker's keys stay."""
    from tests.integration.conftest import drop_scoregate_keys

    client = redis.Redis.from_url(redis_url)
    quota = RedisQuota(client)
    assert quota.peek("left-behind", 5).used == 0
    quota.acquire("left-behind", 5)
    client.set("_kombu.binding.probe", "kept")
    try:
        assert drop_scoregate_keys(redis_url) >= 1
        assert quota.peek("left-behind", 5).used == 0
        assert client.get("_kombu.binding.probe") == b"kept"
    finally:
        client.delete("_kombu.binding.probe")
