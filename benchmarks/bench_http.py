"""The HTTP API's cost, measured in one run against ``scoregate serve`` on loopback.

1. ``POST /v1/score``: latency of one short request, p50 and p99 over ``--calls`` calls
   (after a warm-up that loads the models), server in embedded mode.
2. ``POST /v1/jobs``: jobs accepted per second with ``--threads`` concurrent clients, the
   server on Postgres and the Redis broker (no worker runs: this measures acceptance, that
   is validation, the job and iteration rows and the published track messages).

    python benchmarks/bench_http.py [--calls 200] [--jobs 400] [--threads 8]
        [--database-url postgresql+psycopg://postgres@127.0.0.1:5432/test]
        [--redis-url redis://127.0.0.1:6379/14]

The Redis database given is flushed before and after (the queued messages are dropped),
and a database ``scoregate_bench_http`` is created next to the Postgres URL's.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SHORT = {
    "query": "Name three primary colours, without green.",
    "content": "Red, blue and yellow.",
    "constraints": [{"kind": "not_contains", "value": "green", "hard": True}],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(env: dict[str, str]) -> Any:
    port = free_port()
    full = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    full.update(env, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
    cmd = [sys.executable, "-m", "scoregate.cli", "serve", "--port", str(port)]
    log = tempfile.NamedTemporaryFile(prefix="bench-http-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, env=full, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {Path(log.name).read_text()[-2000:]}")
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_score(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"SCOREGATE_DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
        with server(env) as base, httpx.Client(base_url=base, timeout=60) as client:
            for _ in range(10):  # loads the models
                client.post("/v1/score", json=SHORT).raise_for_status()
            times = []
            for _ in range(calls):
                start = time.perf_counter()
                r = client.post("/v1/score", json=SHORT)
                times.append((time.perf_counter() - start) * 1000)
                r.raise_for_status()
    local = in_process(max(calls // 4, 20))
    p50 = percentile(times, 0.50)
    print(f"POST /v1/score, one short request, {calls} sequential calls (embedded server):")
    print(
        f"  p50 {p50:.1f} ms  p99 {percentile(times, 0.99):.1f} ms"
        f"  mean {statistics.fmean(times):.1f} ms  max {max(times):.1f} ms"
    )
    print(
        f"  the same score in process (scoregate.score, this run): p50 {local:.1f} ms;"
        f" HTTP adds {p50 - local:.1f} ms at p50 ({p50 / local:.2f}x)"
    )


def in_process(n: int) -> float:
    """p50 of ``scoregate.score`` on the same request, no HTTP, for the overhead ratio."""
    from scoregate.scoring.engine import score

    for _ in range(5):
        score(SHORT)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        score(SHORT)
        times.append((time.perf_counter() - start) * 1000)
    return percentile(times, 0.50)


def fresh_database(admin_url: str, name: str) -> str:
    import sqlalchemy as sa

    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = sa.engine.make_url(admin_url).set(database=name)
    return url.render_as_string(hide_password=False)


def bench_jobs(n: int, threads: int, database_url: str, redis_url: str) -> None:
    import redis

    from scoregate.storage.db import upgrade

    url = fresh_database(database_url, "scoregate_bench_http")
    upgrade(url)
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    env = {"SCOREGATE_DATABASE_URL": url, "SCOREGATE_BROKER_URL": redis_url}
    bodies = [{"request": {**SHORT, "content": f"Red, blue and yellow ({i})."}} for i in range(n)]
    try:
        with server(env) as base, httpx.Client(base_url=base, timeout=60) as client:
            client.post("/v1/jobs", json=bodies[0]).raise_for_status()  # warm-up

            def post(body: dict[str, Any]) -> int:
                return client.post("/v1/jobs", json=body).status_code

            start = time.perf_counter()
            with ThreadPoolExecutor(threads) as pool:
                codes = list(pool.map(post, bodies[1:]))
            elapsed = time.perf_counter() - start
        queued = sum(int(broker.llen(q)) for q in ("semantic", "precision", "reward"))
    finally:
        broker.flushdb()
    accepted = codes.count(202)
    print(f"POST /v1/jobs, {len(codes)} jobs, {threads} client threads (Postgres + Redis broker):")
    print(
        f"  {accepted / elapsed:.0f} jobs/s accepted ({accepted} of {len(codes)} answered 202"
        f" in {elapsed:.2f} s; {queued} track messages queued)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=400)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "SCOREGATE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        ),
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("SCOREGATE_TEST_REDIS_URL", "redis://127.0.0.1:6379/14"),
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(
        f"machine: {os.cpu_count()} CPU(s), load average {load:.1f} at start;"
        " server: scoregate serve (uvicorn, one process)"
    )
    bench_score(args.calls)
    bench_jobs(args.jobs, args.threads, args.database_url, args.redis_url)


if __name__ == "__main__":
    main()
