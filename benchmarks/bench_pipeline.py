"""Pipeline throughput against the raw models, batched against unbatched, in one run.

Needs Redis and Postgres on loopback. Starts its own worker processes:

    python benchmarks/bench_pipeline.py --jobs 2000

1. raw: the same models score the same pairs in a plain loop at the same batch size;
2. pipeline: N jobs submitted at once through every pool (batched), jobs/s, p50/p95;
3. unbatched: the same with batch size 1 (``--unbatched-jobs``, default N/4);
4. overhead: jobs sent one at a time; per-job latency minus the models' own time;
5. where the CPU goes: CPU milliseconds per job of each process group during the
   batched run (read from /proc; Linux only).

The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PG = os.environ.get("SCOREGATE_TEST_DATABASE_URL",
                    "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("SCOREGATE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
TOPICS = ["pasta", "trains", "python lists", "tax forms", "gardening", "the moon", "email",
          "budgets", "guitars", "running shoes"]


def make_jobs(n: int) -> list[dict[str, Any]]:
    """Short, distinct jobs (no two pairs alike, so no cache hit flatters the figures)."""
    jobs = []
    for i in range(n):
        topic = TOPICS[i % len(TOPICS)]
        jobs.append({"request": {
            "query": f"Give me one tip about {topic} (#{i}).",
            "content": f"Tip {i}: keep notes about {topic} and review them weekly.",
            "constraints": [{"kind": "max_words", "value": 60}],
        }})
    return jobs


def fresh_db() -> str:
    url = sa.engine.make_url(PG)
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text('DROP DATABASE IF EXISTS "scoregate_bench" WITH (FORCE)'))
        conn.execute(sa.text('CREATE DATABASE "scoregate_bench"'))
    admin.dispose()
    return str(url.set(database="scoregate_bench").render_as_string(hide_password=False))


def bench_env(db: str, batch: int) -> dict[str, str]:
    keep = ("SCOREGATE_SCORING_CONFIG", "SCOREGATE_DEVICE", "SCOREGATE_CPU_BACKEND",
            "SCOREGATE_TASK_EVENTS")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_") or k in keep}
    env.update({"SCOREGATE_BROKER_URL": REDIS, "SCOREGATE_DATABASE_URL": db,
                "SCOREGATE_BATCH_SIZE": str(batch), "SCOREGATE_BATCH_INTERVAL_S": "0.05",
                "SCOREGATE_EMBEDDING_CACHE_TTL_S": "0", "HF_HUB_OFFLINE": "1",
                # Two model processes on this machine: one intra-op thread each.
                "SCOREGATE_TORCH_THREADS": str(max(1, (os.cpu_count() or 2) // 2)),
                "PYTHONPATH": str(ROOT)})
    return env


def start_workers(env: dict[str, str], logdir: Path) -> list[subprocess.Popen[bytes]]:
    procs = []
    for pool, conc in (("semantic", 1), ("precision", 1), ("reward,fusion,control", 2)):
        log = (logdir / f"{pool.split(',')[0]}.log").open("wb")
        cmd = [sys.executable, "-m", "celery", "-A", "scoregate.workers", "worker", "-Q", pool,
               "-c", str(conc), "-n", f"{pool.split(',')[0]}@%h", "-l", "WARNING",
               "--prefetch-multiplier", "256", "--without-gossip", "--without-mingle"]
        procs.append(subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log,
                                      stderr=subprocess.STDOUT))
    return procs


def _proc_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


def _pids(pattern: str) -> list[int]:
    out = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    return [int(x) for x in out.stdout.split()]


def process_groups(procs: list[subprocess.Popen[bytes]]) -> dict[str, list[int]]:
    """Worker processes (each with its pool children), Redis and Postgres."""
    groups: dict[str, list[int]] = {}
    for proc, name in zip(procs, ("semantic worker", "precision worker",
                                  "reward+fusion+control worker"), strict=True):
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                  text=True, check=False).stdout.split()
        groups[name] = [proc.pid, *map(int, children)]
    groups["redis-server"] = _pids("redis-server")
    groups["postgres"] = _pids("postgres")
    return groups


def cpu_ms(groups: dict[str, list[int]]) -> dict[str, float]:
    """CPU milliseconds used so far by each group, plus this process (the orchestrator)."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    out = {name: sum(_proc_ticks(p) for p in pids) * tick_ms for name, pids in groups.items()}
    t = os.times()
    out["orchestrator (submit + polling)"] = (t.user + t.system) * 1000
    return out


def stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()


def configure(env: dict[str, str]) -> None:
    """Point this process (the orchestrator) at the same broker and database."""
    os.environ.update({k: v for k, v in env.items() if k.startswith("SCOREGATE_")})
    from scoregate.config.settings import get_scoring_config, get_settings
    from scoregate.pipelines.api import client_context
    from scoregate.workers.app import get_app
    from scoregate.workers.runtime import get_context, redis_client

    for fn in (get_settings, get_scoring_config, client_context, get_context, redis_client):
        fn.cache_clear()
    # A new app: the old one's producer pool stays connected to the previous broker URL.
    get_app.cache_clear()


def warm_up(engine: sa.Engine) -> None:
    """One job through every pool so model loading is not timed."""
    import scoregate

    scoregate.submit({"query": "warm up", "content": "warming up the models"})
    wait_done(engine, 1, timeout=300)


def wait_done(engine: sa.Engine, n: int, timeout: float) -> float:
    """Wait until ``n`` jobs are final; returns the time it took."""
    start = time.perf_counter()
    final = "('completed','accepted','rejected','escalated','failed','awaiting_review')"
    while time.perf_counter() - start < timeout:
        with engine.connect() as c:
            done = c.execute(sa.text(f"SELECT count(*) FROM jobs WHERE status IN {final}"))
            if int(done.scalar_one()) >= n:
                return time.perf_counter() - start
        time.sleep(0.2)
    raise TimeoutError(f"jobs not final after {timeout}s")


def latencies(engine: sa.Engine, since: Any) -> list[dict[str, float]]:
    q = sa.text(
        "SELECT EXTRACT(EPOCH FROM (i.decided_at - j.created_at)) * 1000 AS ms, i.timings "
        "FROM jobs j JOIN iterations i ON i.job_id = j.id WHERE j.created_at >= :since")
    with engine.connect() as c:
        return [{"ms": float(r.ms or 0), **(r.timings or {})}
                for r in c.execute(q, {"since": since})]


def run_pipeline(db: str, batch: int, jobs: int, logdir: Path, sequential: int = 0
                 ) -> dict[str, Any]:
    """Start workers, submit ``jobs`` at once (then ``sequential`` one by one), measure."""
    import redis

    import scoregate

    redis.Redis.from_url(REDIS).flushdb()
    env = bench_env(db, batch)
    configure(env)
    from scoregate.storage.db import upgrade

    upgrade(db)
    engine = sa.create_engine(db)
    procs = start_workers(env, logdir)
    try:
        warm_up(engine)
        return _measure(engine, jobs, sequential, scoregate, process_groups(procs))
    finally:
        stop_workers(procs)
        engine.dispose()


def _measure(engine: sa.Engine, jobs: int, sequential: int, scoregate: Any,
             groups: dict[str, list[int]]) -> dict[str, Any]:
    with engine.connect() as c:
        since = c.execute(sa.text("SELECT now()")).scalar_one()
        base = int(c.execute(sa.text("SELECT count(*) FROM jobs")).scalar_one())
    bodies = make_jobs(jobs)
    groups["postgres"] = _pids("postgres")  # backends forked for this run's connections
    cpu_before = cpu_ms(groups)
    start = time.perf_counter()
    for i in range(0, jobs, 500):
        scoregate.submit_many([b["request"] for b in bodies[i:i + 500]])
    wall = wait_done(engine, base + jobs, timeout=3600) + 0.0
    wall = max(wall, time.perf_counter() - start)
    cpu_after = cpu_ms(groups)
    lat = sorted(x["ms"] for x in latencies(engine, since))
    out: dict[str, Any] = {
        "jobs_per_s": jobs / wall, "p50_ms": statistics.median(lat),
        "p95_ms": lat[int(0.95 * len(lat)) - 1], "wall_s": wall,
        "cpu_ms_per_job": {k: (cpu_after[k] - cpu_before[k]) / jobs for k in cpu_before},
    }
    if sequential:
        out["overhead_p50_ms"] = _sequential_overhead(engine, sequential, base + jobs, scoregate)
    return out


def _sequential_overhead(engine: sa.Engine, n: int, done_before: int, scoregate: Any) -> float:
    with engine.connect() as c:
        since = c.execute(sa.text("SELECT now()")).scalar_one()
    for i, body in enumerate(make_jobs(n)):
        body["request"]["query"] += " (sequential)"
        scoregate.submit(body["request"])
        wait_done(engine, done_before + i + 1, timeout=120)
    rows = latencies(engine, since)
    # Outside the models: latency minus the slower model track (they run in parallel).
    return statistics.median(r["ms"] - max(r.get("semantic", 0), r.get("precision", 0))
                             for r in rows)


def raw_throughput(jobs: int, batch: int) -> float:
    """The ceiling: both models over the same pairs in a plain loop, same batch size."""
    from scoregate.config.settings import get_scoring_config
    from scoregate.scoring.engine import LocalModels

    backend = os.environ.get("SCOREGATE_CPU_BACKEND", "torch")
    models = LocalModels(get_scoring_config(), device="auto", backend=backend)
    pairs = [(b["request"]["query"], b["request"]["content"]) for b in make_jobs(jobs)]
    for track in ("semantic", "precision"):
        models.score_pairs(track, pairs[:batch])
    start = time.perf_counter()
    for track in ("semantic", "precision"):
        for i in range(0, len(pairs), batch):
            models.score_pairs(track, pairs[i:i + batch])
    return jobs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--unbatched-jobs", type=int, default=None)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--sequential", type=int, default=30)
    parser.add_argument("--logdir", type=Path, default=Path("/tmp/scoregate-bench"))
    args = parser.parse_args()
    args.logdir.mkdir(parents=True, exist_ok=True)
    unbatched_jobs = args.unbatched_jobs or max(50, args.jobs // 4)
    raw = raw_throughput(args.jobs, args.batch)
    print(f"raw models (semantic + precision, batch {args.batch}): {raw:.1f} jobs/s")
    db = fresh_db()
    batched = run_pipeline(db, args.batch, args.jobs, args.logdir, args.sequential)
    print(f"pipeline batched  ({args.jobs} jobs): {batched['jobs_per_s']:.1f} jobs/s, "
          f"p50 {batched['p50_ms']:.0f} ms, p95 {batched['p95_ms']:.0f} ms")
    print(f"per-job overhead outside the models (sequential, p50): "
          f"{batched['overhead_p50_ms']:.1f} ms")
    cpu = batched["cpu_ms_per_job"]
    print(f"CPU per job during the batched run ({os.cpu_count()} cores; raw models: "
          f"{1000 * (os.cpu_count() or 1) / raw:.1f} core-ms per job at most):")
    for name, ms in cpu.items():
        print(f"  {name:34} {ms:6.1f} ms")
    print(f"  {'total':34} {sum(cpu.values()):6.1f} ms")
    unbatched = run_pipeline(db, 1, unbatched_jobs, args.logdir)
    print(f"pipeline unbatched ({unbatched_jobs} jobs): {unbatched['jobs_per_s']:.1f} jobs/s, "
          f"p50 {unbatched['p50_ms']:.0f} ms, p95 {unbatched['p95_ms']:.0f} ms")
    print(f"pipeline_over_raw={batched['jobs_per_s'] / raw:.3f} "
          f"batched_over_unbatched={batched['jobs_per_s'] / unbatched['jobs_per_s']:.3f} "
          f"overhead_p50_ms={batched['overhead_p50_ms']:.2f} "
          f"jobs_per_s={batched['jobs_per_s']:.1f}")


if __name__ == "__main__":
    main()
