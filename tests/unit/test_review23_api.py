"""The integrator's review of the HTTP API, the review queue and operations (twenty-third
session), in process: SQLite, fake models, the HTTP app on one embedded pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import Settings
from scoregate.pipelines import agent_errors, api
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.storage.quota import RedisQuota
from tests.fakes import BAD, MEH, SCORES, FakeModels, Recorder
from tests.server_client import AppClient

QUERY = "Write a helpful answer."
ROOT = Path(__file__).parents[2]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'review23.db'}"))
    tasks = {"on_exit": Recorder(), "research": Recorder(returns=MEH)}
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    app = create_app(ApiService(ctx, inline))
    return {"ctx": ctx, "inline": inline, "app": app, "client": AppClient(app), **tasks}


def submit(env: dict[str, Any], content: str, **extra: Any) -> str:
    body = {"request": {"query": QUERY, "content": content}, **extra}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


# --- finding 1: a report sent again after it escalated or failed its job is a duplicate ---------


def _waiting_for_agent(env: dict[str, Any], *, hil: bool = True) -> str:
    loop = {"threshold": 0.8, "max_iterations": 3, "hil": hil}
    job_id = submit(env, BAD, agent="external", loop=loop, on_loop_exit="on_exit")
    assert api.get_job(job_id)["status"] == "awaiting_agent"
    return job_id


def _audit(job_id: str) -> list[tuple[str, str]]:
    return [(d["action"], d["rationale"]) for d in api.get_job(job_id)["decisions"]]


#: how the report names itself: in the body's task_id, or in the Idempotency-Key header
KEYED = {
    "body task_id": lambda key: ({"task_id": key}, {}),
    "Idempotency-Key header": lambda key: ({}, {"Idempotency-Key": key}),
}


@pytest.mark.parametrize("hil", [True, False], ids=["escalated", "failed"])
@pytest.mark.parametrize("how", KEYED)
def test_a_report_resent_after_it_ended_the_wait_is_a_duplicate(env, how, hil):
    job_id = _waiting_for_agent(env, hil=hil)
    url = f"/v1/jobs/{job_id}/agent-error"

    def send(key: str) -> Any:
        extra, headers = KEYED[how](key)
        body = {"iteration": 2, "error_type": "TimeoutError", "message": "slow", **extra}
        return env["client"].post(url, json=body, headers=headers)

    assert send("first").json()["outcome"] == "retried"
    last = send("second")
    ended = "escalated" if hil else "failed"
    assert last.status_code == 202 and last.json()["outcome"] == ended, last.text
    trail = _audit(job_id)
    exits = len(env["on_exit"].calls)
    # the answer to the report that ended the wait was lost: the client sends it again
    for key in ("second", "first"):
        again = send(key)
        assert again.status_code == 202, again.text
        assert again.json()["outcome"] == "duplicate", again.text
        assert again.json()["status"] == ended
    assert _audit(job_id) == trail  # nothing more noted, no "(ignored: ...)" line
    assert len(env["on_exit"].calls) == exits
    # a report of a failure not seen before is still refused: the job waits for no agent
    other = send("third")
    assert other.status_code == 409, other.text
    assert other.json()["type"].endswith("/not-waiting-for-agent")


def test_the_celery_errback_resent_after_the_job_failed_is_a_duplicate(env):
    job_id = _waiting_for_agent(env, hil=False)
    ctx = env["ctx"]

    def report(task_id: str) -> Any:
        body = {"job_id": job_id, "iteration": 2, "error_type": "E", "message": "m"}
        return agent_errors.parse_report({**body, "task_id": task_id})

    assert agent_errors.record_agent_error(ctx, report("c1")) == "retried"
    assert agent_errors.record_agent_error(ctx, report("c2")) == "failed"
    trail = _audit(job_id)
    assert agent_errors.record_agent_error(ctx, report("c2")) == "duplicate"
    assert _audit(job_id) == trail
    assert agent_errors.record_agent_error(ctx, report("c3")) == "ignored"


# --- findings 3 and 4: Redis down, the review queue still works; research is 503, not 500 ------


class DownRedis:
    """A Redis client whose server does not answer (an outage)."""

    def register_script(self, _script: str) -> Any:
        def run(**_kwargs: Any) -> Any:
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6399.")

        return run

    def get(self, _key: str) -> Any:
        raise redis.exceptions.TimeoutError("Timeout reading from 127.0.0.1:6399")


@pytest.fixture
def redis_down(env: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    down = RedisQuota(DownRedis())
    monkeypatch.setattr(env["ctx"], "quota", down)  # the CLI's and the Python API's
    monkeypatch.setattr(env["app"].state.service.ctx, "quota", down)  # the server's
    return env


def _awaiting_review(env: dict[str, Any], **extra: Any) -> str:
    job_id = submit(env, MEH, loop={"gating": True}, **extra)
    assert api.get_job(job_id)["status"] == "awaiting_review"
    return job_id


def test_with_redis_down_every_review_page_opens(redis_down):
    env = redis_down
    plain = _awaiting_review(env)
    escalated = submit(env, BAD, agent="external", loop={"threshold": 0.8, "max_iterations": 1})
    researchable = _awaiting_review(env, research="research")
    for job_id in (plain, escalated, researchable):
        page = env["client"].get(f"/review/{job_id}")
        assert page.status_code == 200, page.text
        assert page.headers["content-type"].startswith("text/html")
        assert 'value="approve"' in page.text and 'value="research"' not in page.text
    page = env["client"].get(f"/review/{researchable}").text
    assert "research quota unknown" in page and "approve or reject" in page
    assert "research quota" not in env["client"].get(f"/review/{plain}").text


def test_with_redis_down_a_research_verdict_is_503_and_changes_nothing(redis_down):
    env = redis_down
    job_id = _awaiting_review(env, research="research")
    before = api.get_job(job_id)["decisions"]
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "research"})
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"].endswith("/unavailable") and int(r.headers["Retry-After"]) > 0
    assert "research quota" in r.json()["detail"] and "approve or reject" in r.json()["detail"]
    assert "6399" not in r.json()["detail"]  # where Redis is goes to the server log only
    job = api.get_job(job_id)
    assert job["status"] == "awaiting_review" and job["decisions"] == before
    assert env["research"].calls == []
    spec = env["client"].get("/openapi.json").json()
    assert "503" in spec["paths"]["/v1/jobs/{job_id}/review"]["post"]["responses"]
    # approve needs no Redis
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "approve"})
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.text


def test_with_redis_down_the_review_page_keeps_the_note_of_a_research_verdict(redis_down):
    env = redis_down
    job_id = _awaiting_review(env, research="research")
    page = env["client"].get(f"/review/{job_id}").text
    token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
    form = {"verdict": "research", "token": token, "note": "check the refund rules"}
    r = env["client"].post(f"/review/{job_id}", data=form)
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert "research quota" in r.text and "check the refund rules" in r.text
    assert f'href="/review/{job_id}"' in r.text
    assert api.get_job(job_id)["status"] == "awaiting_review"


def test_with_redis_down_cli_research_is_one_line_and_exit_1(redis_down, monkeypatch):
    env = redis_down
    monkeypatch.setenv("COLUMNS", "300")
    job_id = _awaiting_review(env, research="research")
    out = CliRunner().invoke(cli, ["review", job_id, "--research"])
    assert out.exit_code == 1, out.output
    assert "research quota" in out.output and "Traceback" not in out.output
    assert "Error 111 connecting to 127.0.0.1:6399" in " ".join(out.output.split())  # why
    assert api.get_job(job_id)["status"] == "awaiting_review"


# --- finding 5: a job's paths answer a wrong method or an unknown action as such -------------


@pytest.mark.parametrize("action", ["cancel", "review", "agent-result", "agent-error"])
def test_get_on_a_jobs_post_action_is_405_allow_post(env, action):
    job_id = _awaiting_review(env)
    for ref in (job_id, job_id[:8]):
        r = env["client"].get(f"/v1/jobs/{ref}/{action}")
        assert r.status_code == 405, r.text
        assert r.headers["allow"] == "POST"
        assert r.json()["type"].endswith("/method-not-allowed")
        assert "no job" not in r.json()["detail"] and "POST" in r.json()["detail"]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_an_unknown_action_of_a_job_is_404_no_route(env, method):
    job_id = _awaiting_review(env)
    r = env["client"].request(method, f"/v1/jobs/{job_id}/approve", json={})
    assert r.status_code == 404, r.text
    assert r.json()["type"].endswith("/no-route")
    detail = r.json()["detail"]
    assert "no job" not in detail and "/review" in detail and "/cancel" in detail


def test_a_key_with_a_slash_still_names_its_job_and_a_missing_one_is_no_job(env):
    body = {"request": {"query": QUERY, "content": MEH}, "idempotency_key": "tenant/order-77"}
    job_id = env["client"].post("/v1/jobs", json=body).json()["id"]
    r = env["client"].get("/v1/jobs/tenant%2Forder-77")
    assert r.status_code == 200 and r.json()["id"] == job_id, r.text
    r = env["client"].get("/v1/jobs/tenant%2Forder-77/cancel")
    assert r.status_code == 405 and r.headers["allow"] == "POST", r.text
    r = env["client"].post("/v1/jobs/tenant%2Forder-77")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD", r.text
    r = env["client"].get("/v1/jobs/no-such-job/cancel")
    assert r.status_code == 404 and r.json()["type"].endswith("/not-found"), r.text


def test_405_allows_every_method_of_the_path_and_head_works_where_get_does(env):
    job_id = _awaiting_review(env)
    r = env["client"].request("OPTIONS", "/v1/jobs")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, POST", r.text
    assert "GET, HEAD, POST" in r.json()["detail"]
    r = env["client"].request("DELETE", f"/v1/jobs/{job_id}")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD", r.text
    r = env["client"].request("PUT", f"/v1/jobs/{job_id}/cancel")
    assert r.status_code == 405 and r.headers["allow"] == "POST", r.text
    for path in ("/v1/jobs", f"/v1/jobs/{job_id}", f"/v1/jobs/{job_id}/status", "/review"):
        r = env["client"].request("HEAD", path)
        assert r.status_code == 200, (path, r.status_code)
    spec = env["client"].get("/openapi.json").json()
    assert not any("head" in ops for ops in spec["paths"].values())


# --- finding 2: /metrics files a request a middleware refused under its route --------------------


def _counted(method: str, route: str, status: int) -> float:
    from prometheus_client import REGISTRY

    labels = {"method": method, "route": route, "status": str(status)}
    return REGISTRY.get_sample_value("scoregate_http_requests_total", labels) or 0.0


def test_requests_refused_before_routing_are_counted_under_their_route(env):
    job_id = _awaiting_review(env)
    client = env["client"]
    cases = [
        ("/v1/score", 415, {"content": b"{}", "headers": {"content-type": "text/plain"}}),
        ("/v1/jobs", 413, {"content": b"{}", "headers": {"content-length": str(40 << 20)}}),
        (
            "/v1/jobs/{job_id}/review",
            403,
            {"json": {"verdict": "approve"}, "headers": {"origin": "http://evil.example"}},
        ),
    ]
    for template, status, kwargs in cases:
        before = _counted("POST", template, status), _counted("POST", "unmatched", status)
        path = template.replace("{job_id}", job_id)
        r = client.post(path, **kwargs)
        assert r.status_code == status, (path, r.text)
        after = _counted("POST", template, status), _counted("POST", "unmatched", status)
        assert after == (before[0] + 1, before[1]), (template, before, after)
    before = _counted("GET", "unmatched", 404)
    assert client.get("/wp-login.php").status_code == 404
    assert _counted("GET", "unmatched", 404) == before + 1  # a path of no route stays there
