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
    "query": "Give me a simple pasta recipe for dinner, without nuts.",
    "content": "Boil spaghetti, simmer chopped tomatoes with garlic and olive oil, toss with the"
    " pasta and top with basil and parmesan.",
    "constraints": [{"kind": "not_contains", "value": "nuts", "hard": True}],
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


def bench_score(calls: int, threads: int) -> None:
    """Over loopback against the server process; then the app's own share, in process."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "SCOREGATE_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
            "SCOREGATE_TORCH_THREADS": str(threads),
        }
        with server(env) as base, httpx.Client(base_url=base, timeout=60) as client:
            for _ in range(10):  # loads the models
                client.post("/v1/score", json=SHORT).raise_for_status()
            http = []
            for _ in range(calls):
                start = time.perf_counter()
                r = client.post("/v1/score", json=SHORT)
                http.append((time.perf_counter() - start) * 1000)
                r.raise_for_status()
    print(
        f"POST /v1/score, one short request, {calls} sequential calls (embedded server,"
        f" SCOREGATE_TORCH_THREADS={threads}):"
    )
    print(
        f"  p50 {percentile(http, 0.50):.1f} ms  p99 {percentile(http, 0.99):.1f} ms"
        f"  mean {statistics.fmean(http):.1f} ms  max {max(http):.1f} ms"
        f"  (load average after: {os.getloadavg()[0]:.1f})"
    )
    via_app, direct = app_share(calls // 2, threads)
    extra = [a - d for a, d in zip(via_app, direct, strict=True)]
    print(
        f"  the app's share, in one process (ASGI call and direct score in turn, {len(extra)}"
        f" pairs): score p50 {percentile(direct, 0.5):.1f} ms, through the app"
        f" p50 {percentile(via_app, 0.5):.1f} ms, difference per pair p50"
        f" {percentile(extra, 0.5):.1f} ms"
    )


def app_share(n: int, threads: int) -> tuple[list[float], list[float]]:
    """The same request through the ASGI app and straight to the scorer, alternately, in one
    process (one set of model threads, so both see the same load)."""
    import asyncio

    from pydantic import SecretStr

    from scoregate.config.settings import Settings
    from scoregate.pipelines.embedded import embedded_context
    from scoregate.schemas.request import ScoreRequest
    from scoregate.server import ApiService, create_app

    tmp = tempfile.mkdtemp(prefix="bench-http-")
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp}/a.db"), torch_threads=threads)
    ctx, inline = embedded_context(settings)
    service = ApiService(ctx, inline)
    app = create_app(service)
    request = ScoreRequest.model_validate(SHORT)

    async def run() -> tuple[list[float], list[float]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for _ in range(5):
                (await client.post("/v1/score", json=SHORT)).raise_for_status()
            via, direct = [], []
            for _ in range(n):
                start = time.perf_counter()
                (await client.post("/v1/score", json=SHORT)).raise_for_status()
                via.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                service.score(request)
                direct.append((time.perf_counter() - start) * 1000)
            return via, direct

    return asyncio.run(run())


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
    bodies = [{"request": {**SHORT, "content": f"{SHORT['content']} ({i})"}} for i in range(n)]
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
    parser.add_argument("--threads", type=int, default=8, help="client threads for /v1/jobs")
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="the server's SCOREGATE_TORCH_THREADS (more than the free cores slows it down)",
    )
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
    bench_score(args.calls, args.torch_threads)
    bench_jobs(args.jobs, args.threads, args.database_url, args.redis_url)


if __name__ == "__main__":
    main()
