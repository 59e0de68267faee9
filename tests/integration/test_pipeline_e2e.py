"""The distributed pipeline end to end: real Redis, Postgres, worker processes and models.

Every assertion reads the database rows (through ``scoregate.get_job``) or what the
orchestrator's hook tasks recorded.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
import redis

import scoregate
from tests.integration.conftest import ROOT, wait_final

pytestmark = [pytest.mark.integration, pytest.mark.model]

RECIPE = "Give me a simple tomato pasta recipe for dinner, without any nuts."
FAITHFUL = (
    "Boil spaghetti in salted water. Meanwhile simmer chopped tomatoes with garlic "
    "and olive oil for fifteen minutes, then toss the pasta in the sauce and top it "
    "with basil and parmesan."
)
WITH_NUTS = (
    "Boil spaghetti. Blend basil, pine nuts, walnuts and parmesan into a pesto, "
    "then toss it with the pasta."
)
OFF_TOPIC = "The train to Lyon leaves at nine and the museum closes on Mondays."
LOOP = {"enabled": True, "threshold": 0.6, "max_iterations": 3}
HOOKS = {
    "agent": {"task": "testagent.write", "queue": "agents"},
    "on_pass": {"task": "testagent.on_pass", "queue": "agents"},
    "on_loop_exit": {"task": "testagent.on_loop_exit", "queue": "agents"},
}
NO_NUTS = {"kind": "not_regex", "value": r"\bnuts?\b|walnut", "flags": "i", "hard": True}


def _request(content: str, query: str = RECIPE, **extra: Any) -> dict[str, Any]:
    return {"query": query, "content": content, "constraints": [NO_NUTS], **extra}


def _hooks(redis_url: str, job_id: str) -> list[dict[str, Any]]:
    client = redis.Redis.from_url(redis_url)
    return [json.loads(x) for x in client.lrange(f"testhooks:{job_id}", 0, -1)]


def _hooks_once(
    redis_url: str, job_id: str, kind: str, timeout: float = 30.0
) -> list[dict[str, Any]]:
    """The job's hooks once one of ``kind`` has come: a hook is its own task, sent after the
    job's status is written, so it may land a moment after ``wait_final`` returns."""
    deadline = time.monotonic() + timeout
    hooks = _hooks(redis_url, job_id)
    while kind not in [h["kind"] for h in hooks] and time.monotonic() < deadline:
        time.sleep(0.2)
        hooks = _hooks(redis_url, job_id)
    return hooks


def _drafts(redis_url: str, query: str, drafts: list[str]) -> None:
    redis.Redis.from_url(redis_url).set(f"testagent:{query}", json.dumps(drafts))


def _unique(query: str) -> str:
    return f"{query} (ref {uuid.uuid4().hex[:6]})"


def test_accepted_on_first_iteration(stack, redis_url):
    job = wait_final(scoregate.submit(_request(FAITHFUL), loop=LOOP, **HOOKS))
    assert job["status"] == "accepted", job
    assert [it["n"] for it in job["iterations"]] == [1]
    tracks = job["iterations"][0]["result"]["tracks"]
    assert {"semantic", "precision", "reward"} <= set(tracks)
    assert [d["action"] for d in job["decisions"]] == ["accept"]
    assert [h["kind"] for h in _hooks_once(redis_url, job["id"], "on_pass")] == ["on_pass"]


def test_agent_improves_and_is_accepted_at_iteration_two_or_three(stack, redis_url):
    query = _unique(RECIPE)
    _drafts(redis_url, query, [WITH_NUTS, WITH_NUTS, FAITHFUL])
    job = wait_final(scoregate.submit(_request(WITH_NUTS, query), loop=LOOP, **HOOKS))
    assert job["status"] == "accepted", job
    assert len(job["iterations"]) in (2, 3)
    scores = [it["score"] for it in job["iterations"]]
    assert scores[-1] >= 0.6 > scores[0]
    assert job["decisions"][-1]["action"] == "accept"
    agent_calls = [h for h in _hooks(redis_url, job["id"]) if h["kind"] == "agent"]
    assert agent_calls[0]["feedback"]["failed_constraints"], "agent got no feedback"


def test_exhausts_iterations_fires_on_loop_exit_and_escalates(stack, redis_url):
    query = _unique(RECIPE)
    _drafts(redis_url, query, [WITH_NUTS])
    job = wait_final(scoregate.submit(_request(WITH_NUTS, query), loop=LOOP, **HOOKS))
    assert job["status"] == "escalated", job
    assert len(job["iterations"]) == 3
    assert all(it["score"] <= 0.5 for it in job["iterations"])  # the hard cap
    kinds = [h["kind"] for h in _hooks(redis_url, job["id"])]
    assert "on_pass" not in kinds
    hooks = _hooks_once(redis_url, job["id"], "on_loop_exit")
    exit_hook = [h for h in hooks if h["kind"] == "on_loop_exit"]
    assert exit_hook and exit_hook[0]["reason"] == "max_iterations_reached"
    assert [e["status"] for e in job["escalations"]] == ["open"]
    assert [d["action"] for d in job["decisions"]] == ["iterate", "iterate", "exit"]


def test_loop_disabled_scores_once(stack, redis_url):
    # an agent given alone turns the loop on: this job turns it off
    job = wait_final(scoregate.submit(_request(OFF_TOPIC), loop={"enabled": False}, **HOOKS))
    assert job["status"] == "completed"
    assert len(job["iterations"]) == 1
    assert job["final_result"]["action"] in ("reject", "iterate", "review", "accept")
    assert _hooks(redis_url, job["id"]) == []


def test_medium_tier_waits_for_review_and_cli_resumes_it(stack, redis_url):
    req = _request(FAITHFUL, self_reported_confidence="medium")
    job = wait_final(scoregate.submit(req, loop={"gating": True, "enabled": False}, **HOOKS))
    assert job["status"] == "awaiting_review"
    assert job["escalations"][0]["kind"] == "review"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoregate.cli",
            "review",
            job["id"],
            "--approve",
            "--actor",
            "alice",
        ],
        env=stack["env"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    job = wait_final(job["id"])
    assert job["status"] == "accepted"
    actions = [(d["action"], d["actor"]) for d in job["decisions"]]
    assert actions == [("review", "system"), ("approve", "alice")]
    assert job["decisions"][0]["tier"] == "medium"
    assert "on_pass" in [h["kind"] for h in _hooks_once(redis_url, job["id"], "on_pass")]


def test_an_answer_the_models_cannot_read_goes_to_a_human_not_back_to_its_agent(stack, redis_url):
    german = (
        "Für eine Tageswanderung packst du feste Wanderschuhe, eine Regenjacke, zwei Liter"
        " Wasser, ein paar Snacks und eine Karte ein. Eine kleine Erste-Hilfe-Tasche und"
        " Sonnencreme gehören auch dazu."
    )
    query = _unique("Was soll ich für eine Tageswanderung einpacken?")
    job = wait_final(scoregate.submit({"query": query, "content": german}, loop=LOOP, **HOOKS))
    assert job["status"] == "awaiting_review", job
    assert len(job["iterations"]) == 1
    first = job["iterations"][0]
    assert first["action"] == "review" and first["result"]["dashboard"]["unverified"] is True
    assert [e["kind"] for e in job["escalations"]] == ["review"]
    assert "not verified" in job["decisions"][-1]["rationale"]
    assert [h["kind"] for h in _hooks(redis_url, job["id"])] == []  # the agent never called
