"""A real prefork worker serves Prometheus metrics aggregated over its child processes."""

from __future__ import annotations

import socket
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

import scoregate
from tests.conftest import require_service
from tests.integration.conftest import (
    REDIS_URL,
    client_pointed_at,
    fresh_database,
    service_env,
    start_worker,
    stop,
    wait_final,
)

pytestmark = [pytest.mark.integration, pytest.mark.model]

#: A Redis database of its own, so the session's `stack` worker never takes these tasks.
METRICS_REDIS_URL = REDIS_URL.rsplit("/", 1)[0] + "/14"
JOBS = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def metrics_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    client = redis.Redis.from_url(METRICS_REDIS_URL)
    try:
        client.ping()
    except Exception as exc:
        require_service("Redis", exc)
    client.flushdb()
    from scoregate.storage.db import upgrade

    pg_url = fresh_database("scoregate_metrics_it")
    upgrade(pg_url)
    port = _free_port()
    env = service_env(pg_url, METRICS_REDIS_URL, SCOREGATE_METRICS_PORT=str(port))
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # the worker makes its own
    log = tmp_path_factory.mktemp("metrics") / "worker.log"
    proc = start_worker(env, "semantic,precision,reward,fusion,control", log, name="metrics")
    with client_pointed_at(env, skip=("SCOREGATE_METRICS_PORT",)):
        yield {"port": port, "log": log}
    stop(proc)
    client.flushdb()


def _scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _total(samples: dict[Any, float], name: str, **labels: str) -> float:
    want = set(labels.items())
    return sum(v for (n, lbl), v in samples.items() if n == name and want <= set(lbl))


def test_a_workers_endpoint_counts_every_childs_scores(metrics_worker):
    ids = scoregate.submit_many(
        [
            {"query": "What is the capital of France?", "content": "The capital is Paris."},
            {"query": "I do NOT want a dog", "content": "Here is a picture of a dog."},
            {"query": "Name a prime number.", "content": "Seven is prime."},
        ]
    )
    assert [wait_final(j)["status"] for j in ids] == ["completed"] * JOBS
    port = metrics_worker["port"]
    samples = _scrape(port)
    deadline = time.monotonic() + 20
    while _total(samples, "scoregate_scores_total") < JOBS and time.monotonic() < deadline:
        time.sleep(0.5)
        samples = _scrape(port)
    bands = [scoregate.get_job(j)["final_result"]["band"] for j in ids]
    for band in set(bands):
        assert _total(samples, "scoregate_scores_total", band=band) == bands.count(band)
    assert _total(samples, "scoregate_scores_total") == JOBS
    assert _total(samples, "scoregate_decisions_total", action="complete") == JOBS
    assert _total(samples, "scoregate_score_count") == JOBS
    assert _total(samples, "scoregate_track_latency_seconds_count", track="semantic") == JOBS
    # The client stamped the track tasks it published; the worker measured their wait.
    assert _total(samples, "scoregate_queue_wait_seconds_count", queue="semantic") >= JOBS
    assert _total(samples, "scoregate_queue_wait_seconds_count", queue="fusion") >= JOBS
