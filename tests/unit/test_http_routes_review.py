"""The HTTP routes an HTTP-only orchestrator needs (node-integrator review): the verdict in
listings, cancel, the agent's answer and failure, long-poll, keys with "/", several statuses,
the light status form, an OpenAPI schema that matches every response, and problem types."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.agent_errors import REFUSED_OUTPUT
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.loop import EXTERNAL_AGENT
from scoregate.server import ApiService, create_app
from scoregate.server.auth import new_key, parse_keys
from scoregate.server.bodies import JobDetail
from scoregate.storage.tables import JOB_STATUSES, JobStatus
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels, Recorder
from tests.server_client import AppClient
from tests.unit.test_http_edges import BrokerDown, BrokerUp

QUERY = "Write a helpful answer."
LOOP = {"threshold": 0.8, "max_iterations": 3}
HOOKS = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'api.db'}"))
    tasks = {
        "agent": Recorder(returns=BAD),
        "on_pass": Recorder(),
        "on_exit": Recorder(),
        "research": Recorder(returns=BAD),
    }
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    service = ApiService(ctx, inline)
    app = create_app(service)
    return {"ctx": ctx, "inline": inline, "service": service, "app": app, **tasks} | {
        "client": AppClient(app)
    }


def job_body(content: str, **extra: Any) -> dict[str, Any]:
    return {"request": {"query": QUERY, "content": content}, **extra}


def submit(env: dict[str, Any], content: str, **extra: Any) -> str:
    r = env["client"].post("/v1/jobs", json=job_body(content, **extra))
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


def waiting(env: dict[str, Any], **extra: Any) -> str:
    """A job waiting for its agent's answer to iteration 2 (the agent never runs: an
    orchestrator's agent, answering over HTTP)."""
    inline = env["inline"]
    send = inline.send
    inline.send = lambda m: None if m.task == "agent" else send(m)
    try:
        job_id = submit(env, BAD, loop=LOOP, **HOOKS, **extra)
    finally:
        inline.send = send
    assert job(env, job_id)["status"] == "awaiting_agent"
    return job_id


def job(env: dict[str, Any], ref: str, **params: Any) -> dict[str, Any]:
    r = env["client"].get(f"/v1/jobs/{ref}", params=params)
    assert r.status_code == 200, r.text
    return dict(r.json())


def problem(r: httpx.Response, status: int, kind: str, *needles: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = dict(r.json())
    assert body["type"] == f"/problems/{kind}", body
    for needle in needles:
        assert needle in body["detail"], body["detail"]
    return body


def actions(detail: dict[str, Any]) -> list[str]:
    return [d["action"] for d in detail["decisions"]]


# --- finding 1: the gate's verdict in the listing ------------------------------------------------


def test_a_listed_job_carries_the_gates_action_once_final(env):
    rejected = submit(env, BAD)  # the loop off: completed, though the gate says reject
    accepted = submit(env, GOOD)
    waits = waiting(env)
    rows = {j["id"]: j for j in env["client"].get("/v1/jobs").json()["jobs"]}
    assert (rows[rejected]["status"], rows[rejected]["action"]) == ("completed", "reject")
    assert (rows[accepted]["status"], rows[accepted]["action"]) == ("completed", "accept")
    assert rows[waits]["action"] is None  # not final: no verdict yet
    assert job(env, rejected)["final_result"]["action"] == "reject"


# --- finding 3: cancel over HTTP -----------------------------------------------------------------


def test_cancel_route_cancels_a_job_waiting_for_its_agent(env):
    job_id = waiting(env)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/cancel", json={"actor": "reviewer-node", "note": "agent threw"}
    )
    assert r.status_code == 200, r.text
    assert r.json() == {
        "id": job_id,
        "previous_status": "awaiting_agent",
        "actor": "reviewer-node",
        "status": "cancelled",
        "published": "queued",
    }
    detail = job(env, job_id)
    assert detail["status"] == "cancelled"
    last = detail["decisions"][-1]
    assert (last["action"], last["actor"], last["rationale"]) == (
        "cancel",
        "reviewer-node",
        "agent threw",
    )
    assert [c["reason"] for c in env["on_exit"].calls] == ["cancelled"]


def test_cancel_route_needs_no_body_and_records_the_caller(env):
    job_id = waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/cancel")
    assert r.status_code == 200, r.text
    assert r.json()["actor"] == "local" and r.json()["status"] == "cancelled"


def test_review_cancel_verdict_cancels_a_job_waiting_for_its_agent(env):
    job_id = waiting(env)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/review", json={"verdict": "cancel", "note": "agent threw; cleanup"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "cancelled"
    assert job(env, job_id)["decisions"][-1]["rationale"] == "agent threw; cleanup"


def test_cancel_of_a_final_job_says_it_is_final_and_in_which_status(env):
    job_id = submit(env, GOOD)
    for r in (
        env["client"].post(f"/v1/jobs/{job_id}/cancel", json={"note": "late"}),
        env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "cancel"}),
    ):
        body = problem(r, 409, "job-final", "is completed", "final")
        assert "approve" not in body["detail"]


def test_approving_a_job_that_waits_for_its_agent_points_to_cancel(env):
    job_id = waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "approve"})
    problem(r, 409, "not-reviewable", "is awaiting_agent", "nothing to approve", "/cancel")


# --- finding 2: the agent's answer and failure over HTTP -----------------------------------------


def test_agent_result_route_runs_the_loop(env):
    job_id = waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": GOOD})
    assert r.status_code == 202, r.text
    # embedded: the answer is scored and decided before the call returns
    assert r.json() == {
        "id": job_id,
        "iteration": 2,
        "status": "accepted",
        "current_iteration": 2,
        "outcome": "scoring",
        "published": "queued",
    }
    detail = job(env, job_id, content="true")
    assert detail["iterations"][1]["content"] == GOOD
    assert [c["iteration"] for c in env["on_pass"].calls] == [2]


def test_agent_result_route_takes_the_object_form(env):
    job_id = waiting(env)
    output = {"content": GOOD, "self_reported_confidence": "high"}
    r = env["client"].post(
        f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": output}
    )
    assert r.status_code == 202, r.text
    it = job(env, job_id, content="true")["iterations"][1]
    assert it["request"]["self_reported_confidence"] == "high"


def test_agent_result_for_another_iteration_is_refused_and_audited(env):
    job_id = waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 3, "output": GOOD})
    problem(r, 409, "not-waiting-for-agent", "iteration 3", "waiting for iteration 2")
    detail = job(env, job_id)
    assert detail["status"] == "awaiting_agent"
    assert actions(detail)[-1] == "agent_result_refused"


def test_agent_result_for_a_final_job_is_refused(env):
    job_id = submit(env, GOOD)
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": GOOD})
    problem(r, 409, "not-waiting-for-agent", "completed at iteration 1", "final")


def test_an_answer_that_cannot_be_scored_is_an_agent_failure(env):
    job_id = waiting(env)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": "bad\x00text"}
    )
    body = problem(r, 422, "validation", "rejected", "NUL", "agent failure")
    assert body["errors"][0]["loc"] == "body.output"
    assert "agent_error" in actions(job(env, job_id))


def test_agent_result_body_is_checked_before_the_job_is_touched(env):
    job_id = waiting(env)
    for bad in ({"iteration": "2", "output": GOOD}, {"output": GOOD}):
        r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json=bad)
        problem(r, 422, "validation")
    assert "agent_error" not in actions(job(env, job_id))


def test_agent_error_route_retries_then_escalates(env):
    job_id = waiting(env)
    inline = env["inline"]
    send = inline.send
    inline.send = lambda m: None if m.task == "agent" else send(m)
    try:
        first = env["client"].post(
            f"/v1/jobs/{job_id}/agent-error",
            json={"iteration": 2, "error_type": "QuotaError", "message": "LLM quota exceeded"},
        )
        assert first.status_code == 202, first.text
        assert first.json()["outcome"] == "retried"
        assert first.json()["status"] == "awaiting_agent"
        second = env["client"].post(
            f"/v1/jobs/{job_id}/agent-error", json={"iteration": 2, "message": "again"}
        )
    finally:
        inline.send = send
    assert second.status_code == 202, second.text
    assert second.json()["outcome"] == "escalated" and second.json()["status"] == "escalated"
    detail = job(env, job_id)
    assert actions(detail).count("agent_error") == 2
    assert (
        "LLM quota exceeded"
        in detail["decisions"][actions(detail).index("agent_error")]["rationale"]
    )
    assert [c["reason"] for c in env["on_exit"].calls] == ["agent_failed"]


def test_agent_error_for_a_job_not_waiting_is_noted_and_refused(env):
    job_id = submit(env, GOOD)
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-error", json={"iteration": 2})
    problem(r, 409, "not-waiting-for-agent", "ignored")
    assert (
        "(ignored: the job is completed at iteration 1)"
        in job(env, job_id)["decisions"][-1]["rationale"]
    )
    # sent again and again, it is noted once: the trail of a job does not grow without end
    body = {"iteration": 2, "message": "x" * 10_000}
    for _ in range(3):
        r = env["client"].post(f"/v1/jobs/{job_id}/agent-error", json=body)
        assert r.status_code == 409
    assert actions(job(env, job_id)).count("agent_error") == 1


def test_an_answer_without_output_is_an_agent_failure(env):
    """`{"iteration": 2}`: what JSON.stringify leaves of `output: undefined`."""
    job_id = waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2})
    assert r.status_code == 422, r.text
    assert "recorded as an agent failure" in r.json()["detail"]
    assert "agent_error" in actions(job(env, job_id))


def test_agent_routes_need_the_submit_scope(env):
    job_id = waiting(env)
    reader, submitter = new_key(), new_key()
    keys = parse_keys(f"r:read:{reader},s:submit+read:{submitter}")
    app = create_app(env["service"], keys)
    body = {"iteration": 2, "output": GOOD}
    as_reader = AppClient(app, {"Authorization": f"Bearer {reader}"})
    problem(as_reader.post(f"/v1/jobs/{job_id}/agent-result", json=body), 403, "forbidden")
    problem(as_reader.post(f"/v1/jobs/{job_id}/cancel"), 403, "forbidden")
    as_submitter = AppClient(app, {"Authorization": f"Bearer {submitter}"})
    assert as_submitter.post(f"/v1/jobs/{job_id}/agent-result", json=body).status_code == 202


# --- finding 2: long-poll ------------------------------------------------------------------------


def together(app: Any, *calls: tuple[float, str, str, dict[str, Any]]) -> list[Any]:
    """Run requests concurrently on one event loop, each after its delay; returns each
    one's (response, seconds it took)."""

    async def one(client: httpx.AsyncClient, delay: float, method: str, url: str, kw: Any) -> Any:
        await asyncio.sleep(delay)
        start = time.monotonic()
        r = await client.request(method, url, **kw)
        return r, time.monotonic() - start

    async def go() -> list[Any]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return list(await asyncio.gather(*(one(client, *c) for c in calls)))

    return asyncio.run(go())


def test_wait_returns_as_soon_as_the_job_changes(env):
    job_id = waiting(env)
    (polled, took), _ = together(
        env["app"],
        (0, "GET", f"/v1/jobs/{job_id}/status?wait=20", {}),
        (
            0.6,
            "POST",
            f"/v1/jobs/{job_id}/agent-result",
            {"json": {"iteration": 2, "output": GOOD}},
        ),
    )
    assert polled.status_code == 200, polled.text
    assert polled.json()["status"] == "accepted" and polled.json()["action"] == "accept"
    assert 0.5 < took < 10


def test_wait_on_the_full_job_returns_when_it_changes(env):
    job_id = waiting(env)
    (polled, took), _ = together(
        env["app"],
        (0, "GET", f"/v1/jobs/{job_id}?wait=20", {}),
        (0.6, "POST", f"/v1/jobs/{job_id}/cancel", {}),
    )
    assert polled.json()["status"] == "cancelled" and took < 10


def test_wait_answers_at_once_for_a_final_job_or_a_status_the_client_has_not_seen(env):
    final = submit(env, GOOD)
    job_id = waiting(env)
    for url in (
        f"/v1/jobs/{final}/status?wait=20",
        f"/v1/jobs/{job_id}/status?wait=20&since_status=running",
        f"/v1/jobs/{job_id}/status?wait=20&since_iteration=0",
    ):
        [(r, took)] = together(env["app"], (0, "GET", url, {}))
        assert r.status_code == 200 and took < 5, (url, took)


def test_wait_gives_up_after_the_time_asked_and_is_bounded(env):
    job_id = waiting(env)
    [(r, took)] = together(env["app"], (0, "GET", f"/v1/jobs/{job_id}/status?wait=0.6", {}))
    assert r.json()["status"] == "awaiting_agent" and 0.5 < took < 5
    problem(env["client"].get(f"/v1/jobs/{job_id}?wait=31"), 422, "validation", "query.wait")


# --- findings 10, 11, 15: keys with "/", an empty key, an upper-case id --------------------------


def test_a_key_with_a_slash_names_its_job_on_every_route(env):
    inline = env["inline"]
    send = inline.send
    inline.send = lambda m: None if m.task == "agent" else send(m)
    try:
        r = env["client"].post(
            "/v1/jobs",
            json=job_body(BAD, loop=LOOP, **HOOKS),
            headers={"Idempotency-Key": "tenant/order-77"},
        )
    finally:
        inline.send = send
    job_id = r.json()["id"]
    assert job(env, "tenant%2Forder-77")["id"] == job_id
    assert job(env, "tenant/order-77")["id"] == job_id
    state = env["client"].get("/v1/jobs/tenant%2Forder-77/status")
    assert state.status_code == 200 and state.json()["id"] == job_id
    r = env["client"].post("/v1/jobs/tenant%2Forder-77/cancel", json={"note": "by key"})
    assert r.status_code == 200 and r.json()["id"] == job_id, r.text
    r = env["client"].post("/v1/jobs/tenant%2Forder-77/review", json={"verdict": "approve"})
    problem(r, 409, "job-final", "cancelled")
    problem(env["client"].get("/v1/jobs/tenant%2Forder-78"), 404, "not-found", "tenant/order-78")


def test_the_openapi_paths_and_metrics_keep_the_plain_job_template(env):
    paths = env["client"].get("/openapi.json").json()["paths"]
    assert "/v1/jobs/{job_id}" in paths and not [p for p in paths if ":path" in p]
    job_id = submit(env, GOOD)
    job(env, job_id)
    metrics = env["client"].get("/metrics").text
    assert 'route="/v1/jobs/{job_id}"' in metrics


@pytest.mark.parametrize("key", ["", "  "])
def test_an_empty_idempotency_key_header_is_refused(env, key):
    r = env["client"].post("/v1/jobs", json=job_body(GOOD), headers={"Idempotency-Key": key})
    body = problem(r, 422, "validation", "Idempotency-Key header is empty")
    assert body["errors"][0]["loc"] == "header.idempotency-key"
    assert env["client"].get("/v1/jobs").json()["jobs"] == []


def test_an_upper_case_id_names_the_job(env):
    job_id = waiting(env)
    assert job(env, job_id.upper())["id"] == job_id
    r = env["client"].post(f"/v1/jobs/{job_id.upper()}/cancel")
    assert r.status_code == 200 and r.json()["id"] == job_id


def test_an_idempotency_key_is_matched_as_written(env):
    """Ids are folded to lower case, keys never: ORDER-1 must not name order-1's job."""
    r = env["client"].post("/v1/jobs", json=job_body(GOOD), headers={"Idempotency-Key": "order-1"})
    assert r.status_code == 202
    assert env["client"].get("/v1/jobs/order-1").status_code == 200
    assert env["client"].get("/v1/jobs/ORDER-1").status_code == 404


# --- finding 12: several statuses, content once, the light form ----------------------------------


def test_list_takes_several_statuses_and_an_empty_one_is_no_filter(env):
    done = [submit(env, GOOD) for _ in range(2)]
    waits = [waiting(env) for _ in range(2)]
    submit(env, MEH, loop={"threshold": 0.9, "max_iterations": 1}, on_loop_exit="on_exit")
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"status": ["awaiting_agent", "completed"], "limit": 1}
        if cursor:
            params["cursor"] = cursor
        page = env["client"].get("/v1/jobs", params=params).json()
        seen += [j["id"] for j in page["jobs"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [*reversed(waits), *reversed(done)]  # newest first, each once
    everything = env["client"].get("/v1/jobs?status=&limit=50").json()["jobs"]
    assert len(everything) == 5
    problem(env["client"].get("/v1/jobs?status=completed&status=done"), 422, "validation", "done")


def test_content_comes_once_per_iteration(env):
    text = "a so-so answer that is long enough to count " * 50
    job_id = submit(env, text)
    full = env["client"].get(f"/v1/jobs/{job_id}?content=true")
    assert full.text.count("long enough to count") == 2 * 50  # the request and iteration 1
    it = full.json()["iterations"][0]
    assert it["content"] == text and "content" not in it["request"]
    assert it["request"]["query"] == QUERY
    plain = env["client"].get(f"/v1/jobs/{job_id}")
    assert plain.text.count("long enough to count") == 50


def test_status_form_is_light(env):
    job_id = submit(env, BAD)
    r = env["client"].get(f"/v1/jobs/{job_id}/status")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {
        "id",
        "status",
        "current_iteration",
        "updated_at",
        "action",
        "approved",
        "reviewed_by",
        "final_result",
        "failure_reason",
        "url",
    }
    assert (body["status"], body["action"], body["current_iteration"]) == ("completed", "reject", 1)
    assert body["url"] == f"/v1/jobs/{job_id}"


# --- finding 5: the OpenAPI schema describes every response exactly ------------------------------


def closed(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with every object schema closed (additionalProperties: false) where it
    declares properties and says nothing of others: a field the schema does not name fails."""
    spec = copy.deepcopy(spec)

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(spec["components"])
    close(spec["paths"])
    return spec


class SpecChecker:
    def __init__(self, client: AppClient) -> None:
        self.spec = closed(client.get("/openapi.json").json())
        self.checked: set[tuple[str, str, str]] = set()

    def check(self, method: str, template: str, r: httpx.Response) -> None:
        op = self.spec["paths"][template][method.lower()]
        status = str(r.status_code)
        assert status in op["responses"], f"{method} {template} does not declare {status}"
        media = r.headers["content-type"].split(";")[0]
        content = op["responses"][status].get("content", {})
        assert media in content, f"{method} {template} {status}: {media} not declared"
        schema = {**content[media]["schema"], "components": self.spec["components"]}
        jsonschema.validate(r.json(), schema, cls=jsonschema.Draft202012Validator)
        self.checked.add((method, template, status))


def test_every_route_answers_what_the_openapi_schema_declares(env):
    client, spec = env["client"], SpecChecker(env["client"])
    jobs, one = "/v1/jobs", "/v1/jobs/{job_id}"
    check = spec.check
    check("POST", "/v1/score", client.post("/v1/score", json={"query": QUERY, "content": GOOD}))
    bad_regex = {"query": QUERY, "content": GOOD, "constraints": [{"kind": "regex", "value": "("}]}
    check("POST", "/v1/score", client.post("/v1/score", json=bad_regex))
    body = job_body(BAD, loop=LOOP, **HOOKS, idempotency_key="spec-1")
    first = client.post(jobs, json=body)
    check("POST", jobs, first)
    check("POST", jobs, client.post(jobs, json=body))  # 200 replayed
    check("POST", jobs, client.post(jobs, json={**body, "request": {"query": "q", "content": "x"}}))
    escalated = first.json()["id"]
    check("GET", jobs, client.get(jobs))
    check("GET", jobs, client.get(f"{jobs}?cursor=nope"))
    for params in ("", "?content=true"):
        check("GET", one, client.get(f"{jobs}/{escalated}{params}"))
    check("GET", one, client.get(f"{jobs}/no-such-job"))
    check("GET", f"{one}/status", client.get(f"{jobs}/{escalated}/status"))
    check(
        "POST",
        f"{one}/review",
        client.post(f"{jobs}/{escalated}/review", json={"verdict": "approve"}),
    )
    check(
        "POST",
        f"{one}/review",
        client.post(f"{jobs}/{escalated}/review", json={"verdict": "reject"}),
    )
    check("GET", one, client.get(f"{jobs}/{escalated}?content=true"))  # with final_result
    waits = waiting(env)
    answer = {"iteration": 3, "output": GOOD}
    check("POST", f"{one}/agent-result", client.post(f"{jobs}/{waits}/agent-result", json=answer))
    nul = {"iteration": 2, "output": {"content": "x\x00"}}
    check("POST", f"{one}/agent-result", client.post(f"{jobs}/{waits}/agent-result", json=nul))
    waits = waiting(env)
    good = {"iteration": 2, "output": GOOD}
    check("POST", f"{one}/agent-result", client.post(f"{jobs}/{waits}/agent-result", json=good))
    check("GET", one, client.get(f"{jobs}/{waits}?content=true"))  # two iterations, dispatches
    waits = waiting(env)
    error = {"iteration": 2, "message": "boom"}
    check("POST", f"{one}/agent-error", client.post(f"{jobs}/{waits}/agent-error", json=error))
    check("POST", f"{one}/cancel", client.post(f"{jobs}/{waits}/cancel"))
    check("POST", f"{one}/cancel", client.post(f"{jobs}/{waits}/cancel"))  # 409
    check("POST", f"{one}/agent-error", client.post(f"{jobs}/{waits}/agent-error", json=error))
    key = new_key()
    keyed = AppClient(create_app(env["service"], parse_keys(f"r:read:{key}")))
    check("GET", jobs, keyed.get(jobs))  # 401
    as_reader = AppClient(keyed.app, {"X-API-Key": key})
    check("POST", jobs, as_reader.post(jobs, json=job_body(GOOD)))  # 403
    statuses = {s for _, _, s in spec.checked}
    assert {"200", "202", "401", "403", "404", "409", "422"} <= statuses


def test_job_detail_declares_every_field_the_route_returns(env):
    job_id = waiting(env)
    env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": GOOD})
    raw = env["service"].job(job_id, include_content=True)
    assert set(raw) == set(JobDetail.model_fields)
    # the 18 the review found, agent_request, and approved and reviewed_by (review 22)
    assert len(JobDetail.model_fields) == 21
    spec = closed(env["client"].get("/openapi.json").json())
    schema = {"$ref": "#/components/schemas/JobDetail", "components": spec["components"]}
    jsonschema.validate(raw, schema, cls=jsonschema.Draft202012Validator)
    iteration = spec["components"]["schemas"]["IterationOut"]["properties"]
    assert {"score", "band", "action", "reasons", "result"} <= set(iteration)


def test_statuses_are_enums_and_match_the_store(env):
    from typing import get_args

    assert get_args(JobStatus) == JOB_STATUSES
    schemas = env["client"].get("/openapi.json").json()["components"]["schemas"]
    for name in ("JobAccepted", "JobSummary", "JobDetail", "JobState", "ReviewDone", "Cancelled"):
        assert schemas[name]["properties"]["status"]["enum"] == list(JOB_STATUSES), name


def test_every_declared_problem_has_the_problem_schema(env):
    spec = env["client"].get("/openapi.json").json()
    for path, ops in spec["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, op in ops.items():
            for status, response in op["responses"].items():
                if int(status) >= 400:
                    schema = response["content"]["application/problem+json"]["schema"]
                    assert set(schema["required"]) >= {"type", "title", "status", "detail"}, (
                        method,
                        path,
                        status,
                    )


# --- finding 9: a stable type per problem, and the field of a semantic error ---------------------


def test_problems_carry_a_stable_type_per_kind(env):
    client = env["client"]
    body = job_body(GOOD, idempotency_key="kind-1")
    client.post("/v1/jobs", json=body)
    problem(
        client.post("/v1/jobs", json={**body, "request": {"query": "q", "content": "x"}}),
        409,
        "idempotency-conflict",
    )
    problem(client.get("/v1/jobs/nope"), 404, "not-found")
    problem(client.get("/v2/jobs"), 404, "no-route")
    problem(client.post("/v1/score", json={"content": GOOD}), 422, "validation")


@pytest.mark.parametrize(
    ("url", "body", "loc"),
    [
        (
            "/v1/jobs",
            job_body(
                GOOD,
                request={
                    "query": QUERY,
                    "content": GOOD,
                    "constraints": [{"kind": "regex", "value": "([a-z"}],
                },
            ),
            "body.request.constraints.0",
        ),
        ("/v1/jobs", job_body(GOOD, agent="evil.task"), "body.agent.task"),
        ("/v1/jobs", job_body(GOOD, on_pass={"task": "evil.task"}), "body.on_pass.task"),
        ("/v1/jobs", job_body("x\x00y"), "body.request.content"),
        ("/v1/jobs", job_body(GOOD, task_name="nope"), "body.task_name"),
        (
            "/v1/score",
            {
                "query": QUERY,
                "content": GOOD,
                "constraints": [
                    {"kind": "regex", "value": "(", "hard": True},
                    {"kind": "regex", "value": "(["},
                ],
            },
            "body.constraints.0",
        ),
    ],
)
def test_a_semantic_error_names_its_field(env, url, body, loc):
    r = env["client"].post(url, json=body)
    found = problem(r, 422, "validation")
    assert [e["loc"] for e in found["errors"]] == [loc], found


def test_a_bad_note_on_cancel_names_its_field_and_changes_nothing(env):
    job_id = waiting(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/cancel", json={"note": "ok\x00"})
    found = problem(r, 422, "validation", "note: contains a NUL character")
    assert [e["loc"] for e in found["errors"]] == ["body.note"]
    assert job(env, job_id)["status"] == "awaiting_agent"


# --- an agent outside Celery (agent "external") --------------------------------------------------

EXTERNAL = {"agent": EXTERNAL_AGENT, "on_pass": "on_pass", "on_loop_exit": "on_exit"}


def test_an_external_agent_is_asked_through_the_job_and_answers_over_http(env):
    published: list[str] = []
    inline = env["inline"]
    send = inline.send
    inline.send = lambda m: (published.append(m.task), send(m))[1]
    job_id = submit(env, BAD, loop=LOOP, **EXTERNAL)
    detail = job(env, job_id)
    assert detail["status"] == "awaiting_agent"
    assert EXTERNAL_AGENT not in published  # no Celery task named "external" is sent
    asked = detail["agent_request"]
    assert asked["iteration"] == 2
    assert asked["feedback"]["iteration"] == 1
    assert asked["feedback"]["action"] == detail["iterations"][0]["action"]
    assert asked["feedback"]["reasons"]
    # the request is recorded as published: the sweeper has nothing to send again
    (dispatch,) = [d for d in detail["dispatches"] if d["kind"] == "agent"]
    assert dispatch["task"] == EXTERNAL_AGENT and dispatch["published_at"] is not None
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": GOOD})
    assert r.status_code == 202, r.text
    done = job(env, job_id)
    assert done["status"] == "accepted" and done["agent_request"] is None
    assert [c["iteration"] for c in env["on_pass"].calls] == [2]


def test_an_external_agents_failure_asks_it_again(env):
    job_id = submit(env, BAD, loop=LOOP, **EXTERNAL)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/agent-error",
        json={"iteration": 2, "error_type": "TimeoutError", "message": "model busy"},
    )
    assert r.status_code == 202, r.text
    detail = job(env, job_id)
    assert detail["status"] == "awaiting_agent" and detail["agent_request"]["iteration"] == 2
    assert len([d for d in detail["dispatches"] if d["kind"] == "agent"]) == 2


@pytest.mark.parametrize(
    ("agent", "needle"),
    [
        ({"task": EXTERNAL_AGENT, "queue": "agents"}, "drop the queue 'agents'"),
    ],
)
def test_an_external_agent_takes_no_queue(env, agent, needle):
    r = env["client"].post(
        "/v1/jobs",
        json={"request": {"query": "q", "content": BAD}, "loop": LOOP, "agent": agent},
    )
    assert r.status_code == 422, r.text
    assert needle in r.json()["detail"]


def test_external_is_no_hook(env):
    r = env["client"].post(
        "/v1/jobs", json={"request": {"query": "q", "content": BAD}, "on_pass": EXTERNAL_AGENT}
    )
    assert r.status_code == 422, r.text
    assert "only the agent may be 'external'" in r.json()["detail"]


# --- an agent's answer sent again ----------------------------------------------------------------


def test_identical_answers_sent_together_are_taken_once_and_the_rest_are_replays(env):
    job_id = waiting(env)
    answer = {"json": {"iteration": 2, "output": GOOD}}
    replies = [
        r
        for r, _ in together(
            env["app"], *[(0, "POST", f"/v1/jobs/{job_id}/agent-result", answer)] * 8
        )
    ]
    codes = sorted(r.status_code for r in replies)
    assert codes == [200] * 7 + [202], [r.text for r in replies]
    for r in replies:
        body = r.json()
        assert body["outcome"] == ("scoring" if r.status_code == 202 else "duplicate")
        assert (body["status"], body["current_iteration"]) == ("accepted", 2)
    detail = job(env, job_id)
    assert len(detail["iterations"]) == 2 and "agent_result_refused" not in actions(detail)
    assert [c["iteration"] for c in env["on_pass"].calls] == [2]


def test_identical_answers_to_a_server_with_a_broker_are_taken_once(env):
    job_id = waiting(env)
    broker = BrokerUp()
    app = create_app(ApiService(dataclasses.replace(env["ctx"], dispatcher=broker)))
    answer = {"json": {"iteration": 2, "output": GOOD}}
    replies = together(app, *[(0, "POST", f"/v1/jobs/{job_id}/agent-result", answer)] * 8)
    assert sorted(r.status_code for r, _ in replies) == [200] * 7 + [202]
    assert {r.json()["status"] for r, _ in replies} == {"running"}
    assert len(broker.sent) == 3  # the iteration's three track tasks, once


def test_an_answer_sent_again_in_the_object_form_is_a_replay(env):
    job_id = waiting(env)
    url = f"/v1/jobs/{job_id}/agent-result"
    output = {"content": GOOD, "self_reported_confidence": "high"}
    assert env["client"].post(url, json={"iteration": 2, "output": output}).status_code == 202
    again = env["client"].post(url, json={"iteration": 2, "output": output})
    assert again.status_code == 200, again.text
    assert again.json()["outcome"] == "duplicate" and again.json()["status"] == "accepted"
    SpecChecker(env["client"]).check("POST", "/v1/jobs/{job_id}/agent-result", again)


def test_another_answer_for_an_iteration_that_holds_one_is_refused_and_audited(env):
    job_id = waiting(env)
    url = f"/v1/jobs/{job_id}/agent-result"
    assert env["client"].post(url, json={"iteration": 2, "output": GOOD}).status_code == 202
    for _ in range(2):
        r = env["client"].post(url, json={"iteration": 2, "output": MEH})
        problem(r, 409, "not-waiting-for-agent", "iteration 2 holds another answer already")
    detail = job(env, job_id, content="true")
    refused = [d for d in detail["decisions"] if d["action"] == "agent_result_refused"]
    assert len(refused) == 1 and refused[0]["n"] == 2, refused  # once per iteration
    assert "holds another answer" in refused[0]["rationale"]
    assert detail["iterations"][1]["content"] == GOOD and detail["status"] == "accepted"


# --- what an external agent reads ----------------------------------------------------------------


def test_the_agent_request_carries_what_an_agent_task_is_sent(env):
    job_id = submit(env, BAD, loop=LOOP, **EXTERNAL)
    for params in ({}, {"content": "true"}):
        asked = job(env, job_id, **params)["agent_request"]
        assert asked["query"] == QUERY and asked["previous_content"] == BAD, asked
    detail = job(env, job_id)
    assert "content" not in detail["iterations"][0] and "request" not in detail["iterations"][0]
    # the same as the agent task gets (kwargs of a Celery agent's message)
    sent: list[Any] = []
    inline = env["inline"]
    send = inline.send
    inline.send = lambda m: (sent.append(m), None)[1] if m.task == "agent" else send(m)
    try:
        celery_agent = submit(env, BAD, loop=LOOP, **HOOKS)
    finally:
        inline.send = send
    (message,) = sent
    asked = job(env, celery_agent)["agent_request"]
    assert {k: message.kwargs[k] for k in asked} == asked


def test_the_agent_request_is_typed_in_openapi(env):
    job_id = submit(env, BAD, loop=LOOP, **EXTERNAL)
    spec = closed(env["client"].get("/openapi.json").json())
    schemas = spec["components"]["schemas"]
    asked = schemas["AgentRequestOut"]["properties"]
    assert {"iteration", "query", "previous_content", "feedback"} <= set(asked)
    assert asked["feedback"] == {"$ref": "#/components/schemas/AgentFeedback"}
    feedback = schemas["AgentFeedback"]["properties"]
    assert feedback["reasons"]["items"] == {"type": "string"}
    assert feedback["weakest_factors"]["items"] == {"$ref": "#/components/schemas/WeakFactor"}
    assert feedback["band"]["enum"] == ["GREEN", "AMBER", "RED"]
    outcome = schemas["AgentReplyTaken"]["properties"]["outcome"]
    assert set(outcome["enum"]) == {"scoring", "duplicate", "retried", "escalated", "failed"}
    raw = env["service"].job(job_id)
    assert raw["agent_request"]["feedback"]["weakest_factors"], raw["agent_request"]
    schema = {"$ref": "#/components/schemas/JobDetail", "components": spec["components"]}
    jsonschema.validate(raw, schema, cls=jsonschema.Draft202012Validator)


# --- an answer the agent step refuses ------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "loc", "needle"),
    [
        (None, "body.output", "`output` is missing (or null)"),
        (42, "body.output", "got int"),
        ([GOOD], "body.output", "got list"),
        ({"content": GOOD, "bogus": 1}, "body.output.bogus", "invalid"),
        ({"content": 5}, "body.output.content", "invalid"),
        ({"content": "x\x00"}, "body.output.content", "NUL"),
        (
            {"content": GOOD, "eval_metrics": [{"name": "acc", "value": 1.5}]},
            "body.output.eval_metrics.0.value",
            "got 1.5",
        ),
        (
            {"content": GOOD, "eval_metrics": [{"name": "a", "value": 0.5}, {"name": "b\x00"}]},
            "body.output.eval_metrics.1.name",
            "NUL",
        ),
        (
            {"content": GOOD, "self_reported_confidence": "x" * 101},
            "body.output.self_reported_confidence",
            "at most 100",
        ),
    ],
)
def test_an_answer_the_agent_step_refuses_is_an_agent_failure_naming_its_field(
    env, output, loc, needle
):
    job_id = waiting(env)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": output}
    )
    body = problem(r, 422, "validation", needle, "recorded as an agent failure")
    assert [e["loc"] for e in body["errors"]] == [loc]
    failures = [d for d in job(env, job_id)["decisions"] if d["action"] == "agent_error"]
    assert failures and failures[0]["details"]["error_type"] == REFUSED_OUTPUT, failures


# --- a replayed submit publishes nothing ---------------------------------------------------------


@pytest.mark.parametrize("broker", [BrokerDown, BrokerUp])
def test_a_replayed_submit_says_it_published_nothing(env, broker):
    dispatcher = broker()
    client = AppClient(
        create_app(ApiService(dataclasses.replace(env["ctx"], dispatcher=dispatcher)))
    )
    body = job_body(GOOD, idempotency_key=f"replay-{broker.__name__}")
    first = client.post("/v1/jobs", json=body)
    assert first.status_code == 202, first.text
    assert first.json()["published"] == ("deferred" if broker is BrokerDown else "queued")
    again = client.post("/v1/jobs", json=body)
    assert again.status_code == 200 and again.json()["replayed"] is True, again.text
    assert again.json()["published"] == "none"
    assert "X-Scoregate-Published" not in again.headers
    SpecChecker(client).check("POST", "/v1/jobs", again)
