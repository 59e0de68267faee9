"""Recovery time under faults, with the default sweeper and visibility timeouts.

Prints one row per fault: what `submit` said, the seconds from the fault's end (broker
or worker back) to every job final, jobs lost and duplicate decisions. Loopback only:
a private Redis on a free port (stopped and started here, never the shared one), a vhost
of its own on the local RabbitMQ (its broker is never stopped), a fresh Postgres
database. Workers score with fake models (``tests.integration.faults``) so the figures
are the pipeline's, not a model's.

    PYTHONPATH=. python benchmarks/faults.py [--jobs 5] [--only redis-down,...]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN = os.environ.get(
    "SCOREGATE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
RABBITMQ = os.environ.get("SCOREGATE_TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//")
VHOST = "scoregate_bench_faults"
FINAL = ("accepted", "completed", "rejected", "escalated", "failed", "cancelled")
DEADLINE_S = 240.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Redis:
    """A private, empty redis-server: stop() is the broker going away."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until(lambda: port_open(self.port), 20, "redis up")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc = None


class RabbitMQ:
    """A private RabbitMQ node (own name, ports and data directory); stop() is the broker
    going away. Its data survives a restart, as a real node's does."""

    def __init__(self, base: Path) -> None:
        self.port, self.dist = free_port(), free_port()
        self.node = f"sgfaults{self.port}@localhost"
        os.chmod(base, 0o755)  # the node runs as the rabbitmq user
        self.base = base / "rabbitmq"
        self.proc: subprocess.Popen[bytes] | None = None
        (self.base / "mnesia").mkdir(parents=True)
        (self.base / "log").mkdir()
        (self.base / "plugins").write_text("[].\n")
        # The server script runs the node as the rabbitmq user.
        subprocess.run(["chown", "-R", "rabbitmq:rabbitmq", str(self.base)], check=False)

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def start(self) -> None:
        env = {
            **os.environ,
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(self.dist),
            "RABBITMQ_MNESIA_BASE": str(self.base / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.base / "log"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.base / "plugins"),
            "RABBITMQ_PID_FILE": str(self.base / "pid"),
            "RABBITMQ_FEATURE_FLAGS_FILE": str(self.base / "feature_flags"),
            "RABBITMQ_CONFIG_FILE": str(self.base / "none"),
        }
        self.proc = subprocess.Popen(
            ["rabbitmq-server"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        until(lambda: port_open(self.port), 90, "rabbitmq up")

    def stop(self) -> None:
        # By node name: never the machine's own node.
        if self.proc is None:
            return
        subprocess.run(["rabbitmqctl", "-n", self.node, "stop"], capture_output=True, timeout=60)
        until(lambda: not port_open(self.port), 60, "rabbitmq down")
        self.proc.wait(timeout=60)
        self.proc = None


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def until(check: Callable[[], bool], timeout: float, what: str) -> float:
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.2)
    return time.monotonic() - start


class Stack:
    """A fresh database and one `--pool all` worker (own process group) on ``broker``."""

    def __init__(self, name: str, broker: str, tmp: Path, **env: str) -> None:
        admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        db = f"scoregate_faults_{name.replace('-', '_')}"
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
            conn.execute(sa.text(f'CREATE DATABASE "{db}"'))
        admin.dispose()
        self.db_url = sa.engine.make_url(PG_ADMIN).set(database=db).render_as_string(False)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
        self.env.update(
            SCOREGATE_BROKER_URL=broker,
            SCOREGATE_DATABASE_URL=self.db_url,
            SCOREGATE_TEST_FAKE_MODELS="1",
            HF_HUB_OFFLINE="1",
            PYTHONPATH=str(ROOT),
            **env,
        )
        subprocess.run(
            [sys.executable, "-m", "scoregate.cli", "db", "upgrade"],
            env=self.env,
            check=True,
            capture_output=True,
        )
        self.engine = sa.create_engine(self.db_url, poolclass=NullPool)
        self.tmp = tmp
        self.name = name
        self.worker: subprocess.Popen[bytes] | None = None

    def start_worker(self) -> float:
        """Start the worker (as `scoregate worker --pool all` would); seconds to ready."""
        from scoregate.workers.command import worker_argv

        log = self.tmp / f"{self.name}.log"
        argv = worker_argv("all", concurrency=2)
        cmd = [sys.executable, "-m", "celery", "-A", "scoregate.workers", *argv]
        cmd += ["--include", "tests.integration.faults"]
        offset = log.stat().st_size if log.exists() else 0
        self.worker = subprocess.Popen(
            cmd,
            env=self.env,
            cwd=ROOT,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return until(lambda: "ready." in log.read_text(errors="replace")[offset:], 90, "ready")

    def kill_worker(self) -> None:
        assert self.worker is not None
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait()

    def stop(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGTERM)
            try:
                self.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.worker.pid, signal.SIGKILL)
        self.engine.dispose()

    def submit(self, jobs: int) -> tuple[int, str, list[str]]:
        """`scoregate submit --file` of ``jobs`` jobs: exit status, stderr, job ids."""
        path = self.tmp / f"{self.name}-jobs.jsonl"
        lines = [
            {"request": {"query": f"Name colour {i}.", "content": f"Colour {i} is blue."}}
            for i in range(jobs)
        ]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        out = subprocess.run(
            [sys.executable, "-m", "scoregate.cli", "submit", "--file", str(path)],
            env={**self.env, "COLUMNS": "400"},  # one line per message
            capture_output=True,
            text=True,
            timeout=300,
        )
        return out.returncode, out.stderr.strip(), out.stdout.split()

    def final(self, ids: list[str]) -> int:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT count(*) FROM jobs WHERE id = ANY(:ids) AND status = ANY(:f)"),
                {"ids": ids, "f": list(FINAL)},
            )
            return int(rows.scalar_one())

    def duplicate_decisions(self) -> int:
        sql = "SELECT count(*) - count(DISTINCT (job_id, n)) FROM decisions"
        with self.engine.connect() as conn:
            return int(conn.execute(sa.text(sql)).scalar_one())

    def wait_final(self, ids: list[str]) -> float | None:
        try:
            return until(lambda: self.final(ids) == len(ids), DEADLINE_S, "all final")
        except TimeoutError:
            return None


def row(fault: str, said: str, seconds: float | None, stack: Stack, ids: list[str]) -> dict:
    return {
        "fault": fault,
        "submit said": said,
        "s to all final": None if seconds is None else round(seconds, 1),
        "jobs": len(ids),
        "lost": len(ids) - stack.final(ids),
        "duplicate decisions": stack.duplicate_decisions(),
    }


def broker_down(tmp: Path, jobs: int, outage_s: float, broker: Redis | RabbitMQ) -> dict:
    """The broker stops; jobs are submitted meanwhile; it comes back (Redis: empty)."""
    kind = type(broker).__name__
    broker.start()
    stack = Stack(f"{kind.lower()}-down", broker.url, tmp)
    try:
        stack.start_worker()
        broker.stop()
        began = time.monotonic()
        code, said, ids = stack.submit(jobs)
        time.sleep(max(0.0, outage_s - (time.monotonic() - began)))
        down = time.monotonic() - began
        broker.start()
        seconds = stack.wait_final(ids)
        message = said[said.find("broker unreachable") :].splitlines()[0] if said else ""
        label = f"{kind} broker down {down:.0f} s, jobs submitted meanwhile"
        return row(label, f"exit {code}: {message}", seconds, stack, ids)
    finally:
        stack.stop()
        broker.stop()


def kill_worker(tmp: Path, jobs: int, broker: str, name: str) -> dict:
    """SIGKILL the worker (and its pool) mid-batch; start a new one at once."""
    stack = Stack(name, broker, tmp, SCOREGATE_TEST_BATCH_DELAY_S="3")
    try:
        stack.start_worker()
        code, said, ids = stack.submit(jobs)
        time.sleep(1.5)  # the first batches are being scored
        stack.kill_worker()
        stack.start_worker()
        seconds = stack.wait_final(ids)  # from the new worker's `ready`
        label = f"worker kill -9 mid-job ({name.split('-')[-1]})"
        return row(label, f"exit {code}", seconds, stack, ids)
    finally:
        stack.stop()


def rabbitmq_vhost() -> str:
    from urllib.parse import urlsplit, urlunsplit

    def ctl(*args: str) -> str:
        return subprocess.run(
            ["rabbitmqctl", *args], capture_output=True, text=True, check=True, timeout=60
        ).stdout

    if VHOST in ctl("list_vhosts", "name").split():
        ctl("delete_vhost", VHOST)
    ctl("add_vhost", VHOST)
    ctl("set_permissions", "-p", VHOST, urlsplit(RABBITMQ).username or "guest", ".*", ".*", ".*")
    parts = urlsplit(RABBITMQ)
    return urlunsplit((parts.scheme, parts.netloc, "/" + VHOST, "", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=5)
    parser.add_argument("--outage", type=float, default=10.0, help="seconds the broker is down")
    parser.add_argument(
        "--only", default="redis-down,rabbitmq-down,kill-redis,kill-rabbitmq", help="faults"
    )
    args = parser.parse_args()
    chosen = set(args.only.split(","))
    rows = []
    with tempfile.TemporaryDirectory(prefix="sg-faults-") as name:
        tmp = Path(name)
        if "redis-down" in chosen:
            rows.append(broker_down(tmp, args.jobs, args.outage, Redis()))
        if "rabbitmq-down" in chosen:
            rows.append(broker_down(tmp, args.jobs, args.outage, RabbitMQ(tmp)))
        if "kill-redis" in chosen:
            redis = Redis()
            redis.start()
            try:
                rows.append(kill_worker(tmp, args.jobs, redis.url, "kill-redis"))
            finally:
                redis.stop()
        if "kill-rabbitmq" in chosen:
            try:
                rows.append(kill_worker(tmp, args.jobs, rabbitmq_vhost(), "kill-rabbitmq"))
            finally:
                subprocess.run(["rabbitmqctl", "delete_vhost", VHOST], capture_output=True)
        for r in rows:
            print(json.dumps(r))
        keep = os.environ.get("SCOREGATE_FAULTS_LOGS")
        if keep:
            for log in tmp.glob("*.log"):
                Path(keep).mkdir(parents=True, exist_ok=True)
                (Path(keep) / log.name).write_bytes(log.read_bytes())
    print("\n| fault | submit said | s to all final | jobs | lost | duplicate decisions |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(v) for v in r.values()) + " |")


if __name__ == "__main__":
    main()
