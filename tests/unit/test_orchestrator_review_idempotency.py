"""Findings 3 and 4: an idempotency key means one job, one request, one creator.

The same key with a different request is refused on every surface (Python ValueError
with HTTP's 409 wording; a raw Celery submission logged and noted on the job holding the
key); ``submit_many`` gives each request a key of its own; and of concurrent identical
POSTs only the one whose insert created the job answers 202 (``replayed: false``).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

import scoregate
from scoregate.pipelines import intake, steps
from scoregate.server import ApiService, create_app
from scoregate.storage import jobs as job_rows
from scoregate.storage import repository as repo
from tests.fakes import GOOD, embedded_client
from tests.server_client import AppClient

R1 = {"query": "Write a helpful answer.", "content": GOOD}
R2 = {"query": "Write a helpful answer about the sea.", "content": GOOD}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    ctx, inline = embedded_client(tmp_path, monkeypatch, {})
    client = AppClient(create_app(ApiService(ctx, inline)))
    return {"ctx": ctx, "inline": inline, "client": client}


def test_python_refuses_a_key_reused_for_a_different_request(env):
    first = scoregate.submit(R1, idempotency_key="order-77")
    assert scoregate.submit(R1, idempotency_key="order-77") == first  # a replay
    with pytest.raises(ValueError, match="idempotency key 'order-77' already holds job"):
        scoregate.submit(R2, idempotency_key="order-77")
    with pytest.raises(ValueError, match="different policy"):
        scoregate.submit(R1, idempotency_key="order-77", loop={"threshold": 0.9})
    assert scoregate.get_job("order-77")["request"]["query"] == R1["query"]


def test_python_and_http_say_the_same(env):
    scoregate.submit(R1, idempotency_key="order-78")
    r = env["client"].post("/v1/jobs", json={"request": R2, "idempotency_key": "order-78"})
    assert r.status_code == 409
    with pytest.raises(ValueError) as exc:
        scoregate.submit(R2, idempotency_key="order-78")
    assert str(exc.value) == r.json()["detail"]


def test_submit_many_gives_each_request_its_own_key(env):
    ids = scoregate.submit_many([R1, R2], idempotency_key="order-88")
    assert len(set(ids)) == 2
    assert [scoregate.get_job(f"order-88:{i}")["id"] for i in range(2)] == ids
    assert scoregate.submit_many([R1, R2], idempotency_key="order-88") == ids  # a replay


def test_a_raw_celery_submission_reusing_a_key_is_refused_and_noted(env, caplog):
    ctx = env["ctx"]
    first = intake.submit_message(ctx, {"request": R1, "idempotency_key": "celery-good-1"}, "m1")
    assert first is not None
    with caplog.at_level(logging.ERROR):
        got = intake.submit_message(ctx, {"request": R2, "idempotency_key": "celery-good-1"}, "m2")
    assert got is None  # not the old job's id: the request was not taken
    assert "already holds job" in caplog.text and "m2" in caplog.text
    job = scoregate.get_job(first)
    assert job["request"]["query"] == R1["query"]
    (note,) = [d for d in job["decisions"] if d["action"] == "submit_refused"]
    assert "m2" in note["rationale"] and "different request" in note["rationale"]


def test_the_loser_of_an_insert_race_is_told_it_replayed(env, monkeypatch):
    """Another request with the same key commits between this one's start and its insert."""
    body = {"request": R1, "idempotency_key": "race-1"}
    rival = steps.build_spec(env["ctx"], body).job_fields()
    real = job_rows.dialect_insert
    raced: list[str] = []

    def racing_insert(session: Any, model: Any) -> Any:
        if not raced:
            raced.append("")  # the rival's own insert is not raced again
            with env["ctx"].session() as other:
                raced[0] = repo.create_job(other, **rival).id
        return real(session, model)

    monkeypatch.setattr(job_rows, "dialect_insert", racing_insert)
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["replayed"] is True and r.json()["id"] == raced[0]


def test_exactly_one_of_repeated_posts_says_created(env):
    body = {"request": R1, "idempotency_key": "race-2"}
    answers = [env["client"].post("/v1/jobs", json=body) for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 200, 200]
    assert [a.json()["replayed"] for a in answers] == [False, True, True]
