"""A Node.js client (celery-node 0.5.9) submits a job and acts as its agent.

``interop/scoregate-client.js`` sends ``scoregate.control.submit`` and serves the agent
task on its own queue, answering with ``scoregate.control.agent_result``, or, when the
agent throws, with ``scoregate.control.agent_error`` (celery-node ignores ``link_error``).
A real worker serves every pool (the model pools score with fakes: the protocol is under
test here, not the models) and the job must finish accepted at iteration 2, the agent's
answer, or escalated within seconds when the agent throws. Over Redis
(``SCOREGATE_TEST_REDIS_URL``) and over RabbitMQ (``SCOREGATE_TEST_RABBITMQ_URL``, default
guest on 127.0.0.1; in a vhost of this test's own when ``rabbitmqctl`` can make one, so no
other test's worker takes its messages), in Celery protocols 2 and 1.
Needs ``npm ci`` in ``interop/`` (``.ci/run`` does it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_service
from tests.integration.conftest import (
    ROOT,
    client_pointed_at,
    fresh_database,
    service_env,
    stop,
    wait_final,
)

pytestmark = pytest.mark.integration

INTEROP = ROOT / "interop"
CLIENT = INTEROP / "scoregate-client.js"
AGENT_TASK = "nodeagent.write"
AMQP_VHOST = "scoregate_node_it"
AMQP_URL = os.environ.get("SCOREGATE_TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//")
QUERY = "Give me a short tomato pasta recipe for dinner."
# The hard constraint fails on this first draft, so the loop must ask the Node agent.
DRAFT = "Boil spaghetti, simmer tomatoes with garlic, toss together. DRAFT"


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (INTEROP / "node_modules" / "celery-node").is_dir():
        reason = "node is not installed" if node is None else "run `npm ci` in interop/"
        if os.environ.get("CI"):
            pytest.fail(f"the Node interop test cannot run: {reason}")
        pytest.skip(f"the Node interop test cannot run: {reason}")
    return node


def _start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    cmd = [
        *(sys.executable, "-m", "celery", "-A", "scoregate.workers", "worker"),
        *("-Q", "semantic,precision,reward,fusion,control", "-c", "2", "-E"),
        *("-n", f"node-it-{uuid.uuid4().hex[:6]}@%h", "--include", "tests.integration.faults"),
        *("-l", "INFO"),
    ]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited: {log.read_text()[-3000:]}")
        if "ready." in log.read_text(errors="replace"):
            return proc
        time.sleep(0.3)
    stop(proc)
    raise RuntimeError(f"worker not ready in 90s: {log.read_text()[-3000:]}")


def _own_vhost(url: str) -> str:
    """``url`` on vhost :data:`AMQP_VHOST`, made with ``rabbitmqctl``; ``url`` if it cannot."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    user = parts.username or "guest"
    ctl = shutil.which("rabbitmqctl")
    if ctl is None:
        return url
    made = subprocess.run([ctl, "add_vhost", AMQP_VHOST], capture_output=True, timeout=60)
    exists = made.returncode == 0 or b"already exists" in made.stderr + made.stdout
    perms = [ctl, "set_permissions", "-p", AMQP_VHOST, user, ".*", ".*", ".*"]
    if not exists or subprocess.run(perms, capture_output=True, timeout=60).returncode != 0:
        return url
    return urlunsplit(parts._replace(path=f"/{AMQP_VHOST}"))


def _amqp_broker() -> str:
    """The RabbitMQ URL the test uses, reachable (else skip, or fail in CI)."""
    import kombu

    url = _own_vhost(AMQP_URL)
    try:
        with kombu.Connection(url, connect_timeout=5) as conn:
            conn.ensure_connection(max_retries=1)
    except Exception as exc:
        require_service("RabbitMQ", exc)
    return url


#: The Redis database of this module (``SCOREGATE_TEST_NODE_REDIS_DB`` names another one).
NODE_REDIS_DB = int(os.environ.get("SCOREGATE_TEST_NODE_REDIS_DB", "11"))


def _own_redis_db(url: str, db: int) -> str:
    """``url`` pointed at Redis database ``db``, emptied."""
    import redis

    own = f"{url.rsplit('/', 1)[0]}/{db}"
    redis.Redis.from_url(own).flushdb()
    return own


@pytest.fixture(scope="module", params=["redis", "rabbitmq"])
def node_stack(
    request: pytest.FixtureRequest, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """A worker for every pool with fake models, on the broker; results kept in Redis."""
    from scoregate.storage.db import upgrade

    node = _node()
    # A Redis database of its own: a session worker of another module on the shared test
    # database would take the Node client's messages and record them elsewhere.
    redis_url = _own_redis_db(redis_url, NODE_REDIS_DB)
    broker = redis_url if request.param == "redis" else _amqp_broker()
    pg_url = fresh_database(f"scoregate_node_it_{request.param}")
    try:
        upgrade(pg_url)
    except Exception as exc:
        require_service("Postgres", exc)
    env = service_env(
        pg_url,
        redis_url,
        SCOREGATE_ALLOWED_TASKS=AGENT_TASK,
        SCOREGATE_RESULT_BACKEND=redis_url,
        SCOREGATE_TEST_FAKE_MODELS="1",
    )
    env["SCOREGATE_BROKER_URL"] = broker
    log = tmp_path_factory.mktemp("node") / "worker.log"
    proc = _start_worker(env, log)
    with client_pointed_at(env):
        yield {"env": env, "log": log, "node": node}
    stop(proc)


def _run_client(
    stack: dict[str, Any], protocol: int, key: str, *extra: str
) -> subprocess.Popen[str]:
    args = [
        stack["node"],
        str(CLIENT),
        *("--broker", stack["env"]["SCOREGATE_BROKER_URL"]),
        *("--backend", stack["env"]["SCOREGATE_RESULT_BACKEND"]),
        *("--query", QUERY, "--content", DRAFT, "--hard-not-contains", "DRAFT"),
        *("--agent-task", AGENT_TASK, "--protocol", str(protocol), "--key", key),
        *("--serve-seconds", "120", "--result-timeout", "5"),
        *extra,
    ]
    return subprocess.Popen(
        args, cwd=INTEROP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


class _Lines:
    """The client's stdout, read line by line on a thread (its JSON lines are events)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self._thread.start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in list(self.lines) if line.startswith("{")]

    def wait_for(self, event: str, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [e for e in self.events() if e["event"] == event]
            if found:
                return found[0]
            time.sleep(0.2)
        return None

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _job_by_key(key: str, timeout: float = 30.0) -> str:
    from scoregate.pipelines.api import client_context
    from scoregate.storage.tables import Job

    ctx, _ = client_context()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with ctx.session() as s:
            job = s.query(Job).filter_by(idempotency_key=key).one_or_none()
            if job is not None and job.current_iteration >= 1:
                return job.id
        time.sleep(0.3)
    raise AssertionError(f"no job with idempotency key {key!r} after {timeout:.0f}s")


@pytest.mark.parametrize("protocol", [2, 1])
def test_node_client_submits_and_its_agent_answer_is_accepted(node_stack, protocol):
    key = f"node-it-{uuid.uuid4()}"
    client = _run_client(node_stack, protocol, key)
    out = _Lines(client)
    try:
        job = wait_final(_job_by_key(key), timeout=120)
        submitted = out.wait_for("submitted", timeout=20)
    finally:
        client.terminate()
        client.wait(timeout=30)
    assert job["status"] == "accepted", (job["status"], job.get("failure_reason"), out.text)
    assert [it["n"] for it in job["iterations"]] == [1, 2]
    # The DRAFT broke the hard constraint, so the loop asked the Node agent; its answer passed.
    assert job["iterations"][0]["action"] != "accept"
    assert job["decisions"][-1]["action"] == "accept" and job["decisions"][-1]["n"] == 2
    answered = [e for e in out.events() if e["event"] == "agent_task"]
    assert [(e["job_id"], e["iteration"]) for e in answered] == [(job["id"], 2)], out.text
    assert "DRAFT" not in answered[0]["output"]
    # The submit task's return value reaches the client when the workers keep it (a result
    # backend and a submit task that stores its result); else the client says null.
    assert submitted is not None, out.text
    assert submitted["idempotency_key"] == key and submitted["protocol"] == protocol
    assert submitted["job_id"] in (None, job["id"]), out.text


def test_a_node_agent_that_throws_escalates_its_job_in_seconds_not_30_minutes(node_stack):
    # celery-node ignores link_error: the client itself reports the error (agent_error),
    # the job asks the agent once more (SCOREGATE_AGENT_ERROR_RETRIES=1), then escalates.
    key = f"node-it-throws-{uuid.uuid4()}"
    client = _run_client(node_stack, 2, key, "--agent-throws", "LLM quota exceeded")
    out = _Lines(client)
    try:
        job_id = _job_by_key(key)
        started = time.monotonic()
        job = wait_final(job_id, timeout=90)
        took = time.monotonic() - started
    finally:
        client.terminate()
        client.wait(timeout=30)
    assert job["status"] == "escalated", (job["status"], job.get("failure_reason"), out.text)
    assert took < 90, out.text  # the agent timeout (30 minutes) played no part
    errors = [d for d in job["decisions"] if d["action"] == "agent_error"]
    assert [d["n"] for d in errors] == [2, 2], out.text
    assert all("raised Error: LLM quota exceeded" in d["rationale"] for d in errors)
    assert "no retry left" in (job["failure_reason"] or ""), job["failure_reason"]
    reported = [e for e in out.events() if e["event"] == "agent_error"]
    assert [(e["job_id"], e["iteration"], e["error_type"]) for e in reported] == [
        (job_id, 2, "Error"),
        (job_id, 2, "Error"),
    ], out.text
    assert not [e for e in out.events() if e["event"] == "agent_task"]


#: serveAgent with stand-ins for celery-node's worker and client: what it sends, as JSON.
SERVE_AGENT_PROBE = """
const { serveAgent } = require(process.argv[1]);
const sent = [];
let handler;
const worker = { register: (name, h) => { handler = h; } };
const control = { sendTask: (task, args, kwargs) => sent.push({ task, kwargs }) };
serveAgent(worker, control, "nodeagent.write", async () => RETURNS);
handler({ job_id: "j1", iteration: 2 })
  .catch(() => {})
  .then(() => process.stderr.write(JSON.stringify(sent)));
"""


@pytest.mark.parametrize("returns", ["undefined", "null"])
def test_serve_agent_reports_an_answer_of_nothing_as_an_agent_error(returns):
    """JSON.stringify drops an undefined `output`, which scoregate could not tie to its
    job: serveAgent sends agent_error instead. Importing the file starts nothing."""
    probe = SERVE_AGENT_PROBE.replace("RETURNS", returns)
    out = subprocess.run(
        [_node(), "-e", probe, str(CLIENT)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=INTEROP,
    )
    assert out.returncode == 0, out.stderr
    sent = json.loads(out.stderr.strip().splitlines()[-1])
    assert [s["task"] for s in sent] == ["scoregate.control.agent_error"]
    assert sent[0]["kwargs"]["job_id"] == "j1" and sent[0]["kwargs"]["iteration"] == 2
    assert f"returned {returns}" in sent[0]["kwargs"]["message"]
