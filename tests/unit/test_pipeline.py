"""The whole pipeline in process: SQLite, the inline worker and fake models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import context as names
from scoregate.pipelines import control, steps
from scoregate.pipelines.dispatch import Message
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import BAD, GOOD, MEH, SCORES, DictCache, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'p.db'}"))
    models = FakeModels(SCORES)
    tasks = {
        "agent": Recorder(),
        "on_pass": Recorder(),
        "on_exit": Recorder(),
        "research": Recorder(),
    }
    ctx, inline = embedded_context(settings, models=models, local_tasks=dict(tasks))
    return {"ctx": ctx, "inline": inline, "models": models, **tasks}


LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 3}
HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


def test_loop_disabled_scores_once_and_completes(env):
    job = _job(env, _submit(env, BAD, loop={"enabled": False}, **HOOKS))  # an agent alone loops
    assert job["status"] == "completed"
    assert len(job["iterations"]) == 1
    assert [d["action"] for d in job["decisions"]] == ["complete"]
    assert env["agent"].calls == [] and env["on_pass"].calls == []


def test_accepted_first_iteration_fires_on_pass(env):
    job = _job(env, _submit(env, GOOD, loop=LOOP, **HOOKS))
    assert job["status"] == "accepted"
    assert len(job["iterations"]) == 1 and job["iterations"][0]["score"] >= 0.8
    assert len(env["on_pass"].calls) == 1
    assert env["on_pass"].calls[0]["job_id"] == job["id"]


def test_agent_improves_and_is_accepted_at_iteration_three(env):
    drafts = iter([BAD, GOOD])
    env["agent"].returns = lambda **kw: next(drafts)
    job = _job(env, _submit(env, BAD, loop=LOOP, **HOOKS))
    assert job["status"] == "accepted"
    assert [it["n"] for it in job["iterations"]] == [1, 2, 3]
    feedback = env["agent"].calls[0]["feedback"]
    assert feedback["score"] < 0.8 and feedback["reasons"]
    assert env["agent"].calls[0]["iteration"] == 2
    assert [d["action"] for d in job["decisions"]] == ["iterate", "iterate", "accept"]


def test_max_iterations_never_approves_and_escalates(env):
    env["agent"].returns = BAD
    job = _job(env, _submit(env, BAD, loop=LOOP, **HOOKS))
    assert job["status"] == "escalated"
    assert len(job["iterations"]) == 3
    assert env["on_pass"].calls == []
    assert env["on_exit"].calls[0]["reason"] == "max_iterations_reached"
    assert [e["status"] for e in job["escalations"]] == ["open"]
    assert job["decisions"][-1]["action"] == "exit"


def test_an_answer_the_models_cannot_read_goes_to_a_human_not_back_to_its_agent(env):
    german = (
        "Für eine Tageswanderung packst du feste Wanderschuhe, eine Regenjacke, zwei Liter"
        " Wasser, ein paar Snacks und eine Karte ein. Eine kleine Erste-Hilfe-Tasche und"
        " Sonnencreme gehören auch dazu."
    )
    job_id = _submit(env, german, loop=LOOP, **HOOKS)
    job = _job(env, job_id)
    assert job["status"] == "awaiting_review"
    assert env["agent"].calls == []  # a rewrite could not be judged either
    assert len(job["iterations"]) == 1
    first = job["iterations"][0]
    assert first["action"] == "review" and first["result"]["dashboard"]["unverified"] is True
    assert [e["kind"] for e in job["escalations"]] == ["review"]
    assert "not verified" in job["decisions"][-1]["rationale"]
    assert control.review(env["ctx"], job_id, "approve", "alice") == "accepted"


def test_medium_tier_waits_for_review_then_approve_resumes(env):
    job_id = _submit(env, MEH, loop={"gating": True}, **HOOKS)
    assert _job(env, job_id)["status"] == "awaiting_review"
    status = control.review(env["ctx"], job_id, "approve", "alice")
    env["inline"].drain()
    job = _job(env, job_id)
    assert status == "accepted" and job["status"] == "accepted"
    assert job["decisions"][-1]["actor"] == "alice"
    assert len(env["on_pass"].calls) == 1


def test_a_verdict_that_loses_the_race_to_another_changes_nothing(env, monkeypatch):
    from scoregate.pipelines import review as review_module

    job_id = _submit(env, MEH, loop={"gating": True}, **HOOKS)
    before = _job(env, job_id)
    # What the loser of two concurrent verdicts sees: the escalation is gone when it
    # tries to resolve it.
    monkeypatch.setattr(review_module.repo, "resolve_escalation", lambda *a, **k: None)
    with pytest.raises(ValueError, match="resolved by a concurrent verdict"):
        control.review(env["ctx"], job_id, "approve", "bob")
    env["inline"].drain()
    after = _job(env, job_id)
    assert after["status"] == "awaiting_review" and after["decisions"] == before["decisions"]
    assert env["on_pass"].calls == []


def test_research_sent_from_a_review_restarts_the_agent_wait(env):
    from datetime import timedelta

    from sqlalchemy import update

    from scoregate.storage.recovery import stale_agent_waits
    from scoregate.storage.tables import Iteration, utcnow

    job_id = _submit(env, MEH, loop={"gating": True}, research="research", **HOOKS)
    long_ago = utcnow() - timedelta(hours=2)  # the reviewer took two hours
    with env["ctx"].session() as s:
        s.execute(update(Iteration).values(decided_at=long_ago, published_at=long_ago))
    assert control.review(env["ctx"], job_id, "research", "alice") == "researching"
    timeout = timedelta(seconds=env["ctx"].settings.agent_timeout_s)
    with env["ctx"].session() as s:
        # Not overdue: the research task was asked just now, not two hours ago.
        assert stale_agent_waits(s, older_than=utcnow() - timeout) == []


@pytest.mark.parametrize("status", ["cancelled", "failed", "running"])
def test_a_late_agent_answer_starts_nothing(env, status):
    from scoregate.storage import repository as repo

    send = env["inline"].send
    # The request to the agent is lost: the job waits for an answer.
    env["inline"].send = lambda m: None if m.task == "agent" else send(m)
    job_id = _submit(env, BAD, loop=LOOP, **HOOKS)
    assert _job(env, job_id)["status"] == "awaiting_agent"
    with env["ctx"].session() as s:
        repo.set_job_status(s, job_id=job_id, status=status)
    sent = len(env["inline"].sent)
    control.agent_result(env["ctx"], GOOD, job_id, 2)
    control.agent_result(env["ctx"], GOOD, job_id, 7)  # not even the next iteration
    job = _job(env, job_id)
    assert job["status"] == status and [it["n"] for it in job["iterations"]] == [1]
    assert len(env["inline"].sent) == sent  # no track scored for it


def test_low_tier_triggers_research_until_quota_then_review(env):
    env["research"].returns = GOOD
    ids = [_submit(env, BAD, loop={"gating": True}, research="research", **HOOKS) for _ in range(6)]
    statuses = [_job(env, j)["status"] for j in ids]
    assert statuses[:5] == ["accepted"] * 5  # research, retried with findings, high tier
    assert statuses[5] == "awaiting_review"
    last = _job(env, ids[5])["decisions"][0]
    assert "quota exceeded" in last["rationale"].lower()
    first = _job(env, ids[0])["decisions"][0]
    assert first["action"] == "research" and first["quota_used"] == 1


def test_duplicate_track_delivery_fuses_and_decides_once(env):
    job_id = _submit(env, GOOD, loop=LOOP, **HOOKS)
    pair = {"job_id": job_id, "n": 1, "query": "Write a helpful answer.", "content": GOOD}
    env["ctx"].dispatcher.send(Message(names.SEMANTIC, pair, "semantic"))
    env["ctx"].dispatcher.send(Message(names.FUSE, {"job_id": job_id, "n": 1}, "fusion"))
    env["ctx"].dispatcher.send(Message(names.DECIDE, {"job_id": job_id, "n": 1}, "control"))
    env["inline"].drain()
    job = _job(env, job_id)
    assert len(job["iterations"]) == 1 and len(job["decisions"]) == 1
    assert len(env["on_pass"].calls) == 1


def test_failed_model_track_is_fused_without_it(env):
    env["models"].fail_track = "precision"
    job = _job(env, _submit(env, GOOD, loop=LOOP, **HOOKS))
    result = job["iterations"][0]["result"]
    assert result["tracks"]["precision"]["status"] == "failed"
    assert "precision" not in result["weights"]
    assert any("precision track failed" in r for r in result["reasons"])


def test_agent_not_on_allow_list_is_refused(env):
    with pytest.raises(ValueError, match="not allowed"):
        steps.build_spec(
            env["ctx"], {"request": {"query": "q", "content": "c"}, "agent": "evil.task"}
        )


def test_bad_agent_output_fails_the_job_with_a_reason(env):
    env["agent"].returns = {"content": 42}
    job = _job(env, _submit(env, BAD, loop={**LOOP, "hil": False}, **HOOKS))
    assert job["status"] == "failed"  # an agent failure: retried, then (no hil) failed
    assert "agent output" in job["failure_reason"]


def test_sweeper_republishes_lost_track_messages(env):
    spec = steps.build_spec(env["ctx"], {"request": {"query": "q", "content": GOOD}})
    job_id = steps.submit_jobs(env["ctx"], [spec])[0]
    env["inline"].queue.clear()  # the broker lost every message
    assert control.sweep(env["ctx"], older_than_s=0) == 3
    env["inline"].drain()
    assert _job(env, job_id)["status"] == "completed"


def test_identical_pairs_are_scored_once(env):
    env["ctx"].pair_cache = DictCache()
    for _ in range(3):
        _submit(env, GOOD, loop=LOOP, **HOOKS)
    semantic_calls = [c for c in env["models"].calls if c[0] == "semantic"]
    assert semantic_calls == [("semantic", 1)], "later jobs reused the cached pair"


def test_pair_cache_key_follows_the_track_config(env):
    ctx = env["ctx"]
    key = steps.pair_key(ctx, "precision", "q", "c")
    assert key == steps.pair_key(ctx, "precision", "q", "c")
    assert key != steps.pair_key(ctx, "semantic", "q", "c")
    assert key != steps.pair_key(ctx, "precision", "qc", "")
    other = ctx.config.model_copy(
        update={"precision": ctx.config.precision.model_copy(update={"exclusion_penalty": 0.9})}
    )
    ctx.config = other
    assert steps.pair_key(ctx, "precision", "q", "c") != key, "a new setting misses the cache"


def test_pair_cache_key_follows_the_model_files(env, tmp_path):
    from scoregate.scoring.encoders import model_fingerprint

    model = tmp_path / "ce"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"old weights")
    ctx = env["ctx"]
    ctx.config = ctx.config.model_copy(
        update={"precision": ctx.config.precision.model_copy(update={"model": str(model)})}
    )
    key = steps.pair_key(ctx, "precision", "q", "c")
    (model / "model.safetensors").write_bytes(b"retrained weights")
    model_fingerprint.cache_clear()  # a worker started after the retraining
    assert steps.pair_key(ctx, "precision", "q", "c") != key, "new weights miss the cache"


def test_pair_cache_key_follows_the_number_format(env, monkeypatch):
    from scoregate.scoring.encoders import numerics

    ctx = env["ctx"]
    monkeypatch.setattr(ctx.settings, "device", "cpu")
    fp32 = steps.pair_key(ctx, "precision", "q", "c")
    monkeypatch.setattr(ctx.settings, "cpu_backend", "int8")
    assert steps.pair_key(ctx, "precision", "q", "c") != fp32, "int8 scores stay apart"
    assert (numerics("cpu", "torch"), numerics("cpu", "int8")) == ("cpu-fp32", "cpu-int8")
    assert numerics("cuda:1", "int8") == "cuda-fp16"  # int8 is a CPU backend only


def test_workflow_eval_metric_weights_reach_the_metrics_track(env):
    request = {
        "query": "q",
        "content": GOOD,
        "eval_metrics": [{"name": "coverage", "value": 1.0}, {"name": "clarity", "value": 0.0}],
    }
    loop = {"eval_metric_weights": {"coverage": 3.0, "clarity": 1.0}}
    spec = steps.build_spec(env["ctx"], {"request": request, "loop": loop})
    job_id = steps.submit_jobs(env["ctx"], [spec])[0]
    env["inline"].drain()
    metrics = _job(env, job_id)["iterations"][0]["result"]["tracks"]["metrics"]
    assert metrics["score"] == 0.75
