"""The API review's findings (twenty-second session), in process: SQLite, fake models, the
HTTP app and the Python API on one embedded pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.cli.wait import approved as cli_approved
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.output import JobListOutput, JobOutput
from scoregate.server import ApiService, create_app
from scoregate.server.bodies import JobDetail, JobState, JobSummary
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels, Recorder
from tests.server_client import AppClient

QUERY = "Write a helpful answer."
HOOKS = {"on_pass": "on_pass", "on_loop_exit": "on_exit"}
AGENT = {"agent": "agent"}
ROOT = Path(__file__).parents[2]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'review22.db'}"))
    tasks = {
        "agent": Recorder(returns=BAD),
        "on_pass": Recorder(),
        "on_exit": Recorder(),
        "research": Recorder(returns=BAD),
    }
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    app = create_app(ApiService(ctx, inline))
    return {"ctx": ctx, "inline": inline, "app": app, "client": AppClient(app), **tasks}


def submit(env: dict[str, Any], content: str, **extra: Any) -> str:
    body = {"request": {"query": QUERY, "content": content}, **extra}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    return str(r.json()["id"])


def review(env: dict[str, Any], job_id: str, verdict: str, who: str) -> None:
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": verdict, "reviewer": who})
    assert r.status_code == 200, r.text


# --- finding 3: one rule for "may this answer be used", whoever decided ---------------------

OFF = {"enabled": False}
GATED = {"enabled": False, "gating": True}
ON = {"enabled": True, "threshold": 0.8, "max_iterations": 1}
ON_NO_HIL = {**ON, "hil": False}

#: (content, loop, extra, a person's verdict) -> (status, final action, approved, reviewed_by)
CASES = {
    "loop off, accept": (GOOD, OFF, {}, None, ("completed", "accept", True, None)),
    "loop off, review": (MEH, OFF, {}, None, ("completed", "review", False, None)),
    "loop off, reject": (BAD, OFF, {}, None, ("completed", "reject", False, None)),
    "gate auto-proceeds": (GOOD, GATED, {}, None, ("accepted", "accept", True, None)),
    "gate, person approves": (MEH, GATED, {}, "approve", ("accepted", "review", True, "alice")),
    "gate, person rejects": (MEH, GATED, {}, "reject", ("rejected", None, False, "alice")),
    "gate, low, approved": (BAD, GATED, {}, "approve", ("accepted", "reject", True, "alice")),
    "loop on, accept": (GOOD, ON, AGENT, None, ("accepted", "accept", True, None)),
    "loop on, escalated": (BAD, ON, AGENT, None, ("escalated", None, False, None)),
    "escalated, approved": (BAD, ON, AGENT, "approve", ("accepted", "reject", True, "alice")),
    "escalated, rejected": (BAD, ON, AGENT, "reject", ("rejected", "reject", False, "alice")),
    "loop on, hil off": (BAD, ON_NO_HIL, AGENT, None, ("rejected", "reject", False, None)),
    "cancelled by a person": (MEH, GATED, {}, "cancel", ("cancelled", None, False, None)),
}


@pytest.mark.parametrize("case", CASES)
def test_approved_tells_whether_the_answer_may_be_used_whoever_decided(env, case):
    content, loop, extra, verdict, expected = CASES[case]
    job_id = submit(env, content, loop=loop, **HOOKS, **extra)
    if verdict is not None:
        review(env, job_id, verdict, "alice")
    status, action, approved, reviewed_by = expected
    client = env["client"]
    detail = client.get(f"/v1/jobs/{job_id}").json()
    state = client.get(f"/v1/jobs/{job_id}/status").json()
    (item,) = client.get("/v1/jobs").json()["jobs"]
    python = api.get_job(job_id)
    (row,) = api.list_jobs()
    for seen in (detail, state, item, python, row):
        got = (seen["status"], seen["action"] if "action" in seen else None)
        if "final_result" in seen:
            got = (seen["status"], (seen["final_result"] or {}).get("action"))
        assert got == (status, action), (case, seen)
        assert (seen["approved"], seen["reviewed_by"]) == (approved, reviewed_by), (case, seen)
    # the same rule as `scoregate submit --wait`'s exit status
    assert cli_approved(python) is approved
    # every shape declared: the HTTP models and the CLI's --json documents
    JobDetail.model_validate(detail)
    JobState.model_validate(state)
    JobSummary.model_validate(item)
    assert JobOutput.model_validate(python).approved is approved
    assert JobListOutput.model_validate({"jobs": [row]}).jobs[0].reviewed_by == reviewed_by
    # on_pass is sent when a job becomes accepted (not for a completed one: no loop ran)
    assert bool(env["on_pass"].calls) is (status == "accepted")


def test_openapi_declares_approved_and_reviewed_by(env):
    schemas = env["client"].get("/openapi.json").json()["components"]["schemas"]
    for name in ("JobDetail", "JobState", "JobSummary"):
        props = schemas[name]["properties"]
        assert "approved" in props and "reviewed_by" in props, name
        assert "gate on this" in props["approved"]["description"]


def test_readme_gates_on_one_rule_that_counts_a_persons_approval():
    readme = (ROOT / "README.md").read_text()
    assert 'Gate on `final_result.action == "accept"` with the loop off' not in readme
    assert "`approved`" in readme and "`reviewed_by`" in readme
    doc = (ROOT / "docs" / "json-output.md").read_text()
    assert "`approved`" in doc and "`reviewed_by`" in doc


# --- finding 4: an id in upper case names the job, through Python too -------------------------


def test_get_job_takes_an_upper_case_id_or_id_start(env):
    job_id = submit(env, GOOD)
    assert api.get_job(job_id.upper())["id"] == job_id
    assert api.get_job(job_id[:8].upper())["id"] == job_id
    assert env["client"].get(f"/v1/jobs/{job_id.upper()}/status").json()["id"] == job_id
    api.record_outcome(job_id.upper(), accepted=True, actor="alice")


def test_a_key_is_still_matched_as_written(env):
    body = {"request": {"query": QUERY, "content": GOOD}, "idempotency_key": "order-1"}
    job_id = env["client"].post("/v1/jobs", json=body).json()["id"]
    assert api.get_job("order-1")["id"] == job_id
    with pytest.raises(LookupError, match="no job 'ORDER-1'"):
        api.get_job("ORDER-1")


# --- finding 1: a body that is not JSON is unreadable (400), not a field's fault (422) ------------


@pytest.mark.parametrize("route", ["/v1/score", "/v1/jobs"])
@pytest.mark.parametrize("body", ['{"query": ', '{"query": "a",}', "{'query': 'a'}"])
def test_a_body_that_is_not_json_is_an_unreadable_body(env, route, body):
    r = env["client"].post(route, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    problem = r.json()
    assert problem["type"] == "/problems/unreadable-body"
    assert problem["detail"].startswith("the body is not valid JSON: ")
    assert " at character " in problem["detail"] and "errors" not in problem
    assert "fix these fields" not in problem["detail"]


def test_a_wrong_field_is_still_a_validation_problem(env):
    r = env["client"].post("/v1/score", json={"query": "a", "contnet": "b"})
    assert r.status_code == 422 and r.json()["type"] == "/problems/validation"


# --- finding 2: OpenAPI declares the 411 that POST /v1/score answers ------------------------------


def test_openapi_declares_411_for_score(env):
    async def parts() -> Any:
        yield b'{"query": "Write a haiku", "content": "abc"}'

    chunked = env["client"].post(
        "/v1/score", content=parts(), headers={"content-type": "application/json"}
    )
    assert chunked.status_code == 411, chunked.text
    spec = env["client"].get("/openapi.json").json()
    declared = spec["paths"]["/v1/score"]["post"]["responses"]
    assert "411" in declared, sorted(declared)
    assert "length-required" in declared["411"]["description"]
    assert "/problems/length-required" in str(declared["411"]["content"])
    assert "JSON" in spec["paths"]["/v1/jobs"]["post"]["responses"]["400"]["description"]


# --- finding 5: a misspelt metadata key is refused with the key meant; keys of one's own kept ----


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("rol", "role"),
        ("Role", "role"),
        ("task_typ", "task_type"),
        ("taskType", "task_type"),
        ("task-type", "task_type"),
        ("requred_topic", "required_topics"),
        ("expected_word_cnt", "expected_word_count"),
    ],
)
def test_a_metadata_key_close_to_a_known_one_is_refused_naming_it(env, key, meant):
    request = {"query": QUERY, "content": GOOD, "metadata": {key: "admin"}}
    for route, body in (("/v1/score", request), ("/v1/jobs", {"request": request})):
        r = env["client"].post(route, json=body)
        assert r.status_code == 422, (route, r.text)
        problem = r.json()
        assert f"did you mean {meant!r}" in problem["detail"], problem
        assert problem["errors"][0]["loc"].endswith("metadata"), problem
    with pytest.raises(ValueError, match=f"did you mean {meant!r}"):
        api.submit(request)
    assert env["client"].get("/v1/jobs").json()["jobs"] == []


@pytest.mark.parametrize("key", ["tenant", "note", "mode", "code", "team", "language", "topic"])
def test_metadata_keys_of_ones_own_are_kept(env, key):
    request = {"query": QUERY, "content": GOOD, "metadata": {"role": "admin", key: "x"}}
    assert env["client"].post("/v1/score", json=request).status_code == 200
    job_id = api.submit(request)
    assert api.get_job(job_id)["request"]["metadata"][key] == "x"


# --- finding 6: a hook given at the top and under `hooks` as two tasks is refused ----------------


@pytest.mark.parametrize("role", ["on_pass", "on_loop_exit"])
def test_a_hook_given_twice_as_two_tasks_is_refused(env, role):
    body = {
        "request": {"query": QUERY, "content": GOOD},
        role: "on_pass",
        "hooks": {role: {"task": "on_exit"}},
    }
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["type"] == "/problems/validation"
    assert problem["errors"][0]["loc"] == f"body.hooks.{role}"
    assert "'on_pass'" in problem["detail"] and "'on_exit'" in problem["detail"]
    assert "send one of them" in problem["detail"]
    with pytest.raises(ValueError, match=f"{role} is given twice"):
        api.submit(body["request"], **{role: "on_pass", "hooks": body["hooks"]})
    assert env["client"].get("/v1/jobs").json()["jobs"] == []


def test_the_same_hook_in_both_places_is_taken(env):
    body = {
        "request": {"query": QUERY, "content": GOOD},
        "on_pass": "on_pass",
        "hooks": {"on_pass": {"task": "on_pass"}, "on_loop_exit": {"task": "on_exit"}},
    }
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    hooks = api.get_job(r.json()["id"])["hooks"]
    assert hooks["on_pass"]["task"] == "on_pass" and hooks["on_loop_exit"]["task"] == "on_exit"


# --- finding 7: the 413 and README name the limit on an answer, not only the body's --------------


def test_the_413_of_score_names_the_answer_limit_a_job_takes(env):
    big = {"query": QUERY, "content": "x" * (40 * 1024)}
    r = env["client"].post("/v1/score", json=big)
    assert r.status_code == 413, r.text
    detail = r.json()["detail"]
    assert "2,000,000 characters" in detail and "32 MiB" in detail
    too_long = {"request": {"query": QUERY, "content": "x" * 2_000_001}}
    r = env["client"].post("/v1/jobs", json=too_long)
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == "body.request.content"
    readme = (ROOT / "README.md").read_text()
    assert "(`POST /v1/jobs` takes up to 32 MiB)" not in readme
    assert "an answer of up to 2,000,000 characters, in a body of up to 32 MiB" in readme


# --- finding 8: /metrics counts the scores of POST /v1/score ------------------------------------


def _sample(text: str, line_start: str) -> float:
    found = [ln for ln in text.splitlines() if ln.startswith(line_start + " ")]
    return float(found[0].split()[-1]) if found else 0.0


@pytest.mark.parametrize("mode", ["embedded", "celery"])
def test_each_score_of_the_route_is_counted_by_band(env, mode):
    import dataclasses

    from tests.unit.test_http_edges import BrokerUp

    client = env["client"]
    if mode == "celery":  # as `scoregate serve` runs with a broker: no in-process worker
        ctx = dataclasses.replace(env["ctx"], dispatcher=BrokerUp())
        client = AppClient(create_app(ApiService(ctx), broker_check=lambda: True))
    green = 'scoregate_scores_total{band="GREEN"}'
    before = client.get("/metrics").text
    for _ in range(2):
        r = client.post("/v1/score", json={"query": QUERY, "content": GOOD})
        assert r.status_code == 200 and r.json()["band"] == "GREEN", r.text
    after = client.get("/metrics").text
    assert _sample(after, green) - _sample(before, green) == 2
    count = "scoregate_score_count"
    assert _sample(after, count) - _sample(before, count) == 2


# --- finding 9: two different keys are refused; a Basic Authorization is named, not "missing" ----


@pytest.fixture
def keyed(env):
    from scoregate.server.auth import new_key, parse_keys

    reader, ci = new_key(), new_key()
    app = create_app(env["app"].state.service, parse_keys(f"reader:read:{reader},ci:all:{ci}"))
    return {"client": AppClient(app), "reader": reader, "ci": ci}


def test_two_different_keys_in_one_request_are_refused(keyed):
    headers = {"X-API-Key": keyed["reader"], "Authorization": f"Bearer {keyed['ci']}"}
    body = {"request": {"query": QUERY, "content": GOOD}}
    r = keyed["client"].post("/v1/jobs", json=body, headers=headers)
    assert r.status_code == 401, r.text
    assert r.json()["type"] == "/problems/unauthorized"
    detail = r.json()["detail"]
    assert "two different API keys" in detail and "'X-API-Key'" in detail
    assert "Authorization: Bearer" in detail
    assert keyed["reader"] not in detail and keyed["ci"] not in detail
    same = {"X-API-Key": keyed["ci"], "Authorization": f"Bearer {keyed['ci']}"}
    r = keyed["client"].post("/v1/jobs", json=body, headers=same)
    assert r.status_code == 202, r.text
    (job,) = keyed["client"].get("/v1/jobs", headers=same).json()["jobs"]
    assert keyed["client"].get(job["url"], headers=same).json()["submitted_by"] == "ci"


@pytest.mark.parametrize(
    ("authorization", "says"),
    [
        ("Basic {key}", "uses the Basic scheme"),
        ("{key}", "holds no scheme"),
        ("Bearer", "says Bearer but holds no key"),
        ("Custom {key}", "uses a scheme other than Bearer"),
    ],
)
def test_an_authorization_that_is_not_bearer_is_named(keyed, authorization, says):
    sent = authorization.format(key=keyed["ci"])
    r = keyed["client"].get("/v1/jobs", headers={"Authorization": sent})
    assert r.status_code == 401, r.text
    detail = r.json()["detail"]
    assert says in detail and "'Authorization: Bearer KEY'" in detail
    assert keyed["ci"] not in detail
    assert "is missing:" in detail


def test_a_request_with_no_key_still_says_missing(keyed):
    r = keyed["client"].get("/v1/jobs")
    assert r.status_code == 401
    assert r.json()["detail"].startswith("the API key is missing: send it as")


# --- finding 10: a result backend that is down does not hold or fail the server's publishing -----


def test_the_server_publishes_without_subscribing_to_results(env):
    import dataclasses
    import time

    from scoregate.pipelines.dispatch import CeleryDispatcher
    from scoregate.server.serve import publishing_app

    # a Redis result backend where nothing listens: each send used to subscribe to its
    # task's result there, retrying ~20 s before a RuntimeError (500, job unknown to caller)
    settings = Settings(
        broker_url=SecretStr("memory://"), result_backend=SecretStr("redis://127.0.0.1:1/1")
    )
    app = publishing_app(settings)
    assert type(app.backend).__name__ == "DisabledBackend"
    ctx = dataclasses.replace(env["ctx"], dispatcher=CeleryDispatcher(app))
    client = AppClient(create_app(ApiService(ctx), broker_check=lambda: True))
    started = time.monotonic()
    r = client.post("/v1/jobs", json={"request": {"query": QUERY, "content": GOOD}})
    assert r.status_code == 202 and r.json()["published"] == "queued", r.text
    assert time.monotonic() - started < 5


# --- finding 30: an agent-error report sent again over HTTP can count once ------------------------


def _waiting_for_agent(env: dict[str, Any]) -> str:
    body = {"agent": "external", "loop": {"threshold": 0.8, "max_iterations": 3}}
    job_id = submit(env, BAD, **body)
    assert api.get_job(job_id)["status"] == "awaiting_agent"
    return job_id


def test_an_idempotency_key_header_makes_a_retried_agent_error_count_once(env):
    job_id = _waiting_for_agent(env)
    report = {"iteration": 2, "error_type": "TimeoutError", "message": "slow"}
    url = f"/v1/jobs/{job_id}/agent-error"
    headers = {"Idempotency-Key": "failure-1"}
    first = env["client"].post(url, json=report, headers=headers)
    again = env["client"].post(url, json=report, headers=headers)
    assert first.status_code == 202 and first.json()["outcome"] == "retried", first.text
    assert again.json()["outcome"] == "duplicate", again.text
    r = env["client"].post(url, json={**report, "task_id": "other"}, headers=headers)
    assert r.status_code == 422 and "differ" in r.json()["detail"]
    spec = env["client"].get("/openapi.json").json()
    task_id = spec["components"]["schemas"]["AgentErrorBody"]["properties"]["task_id"]
    assert "counts once" in task_id["description"]


# --- findings 20 and 26: an invisible query is blank; raw_metrics is strict as every flag --------


@pytest.mark.parametrize("query", ["   ", "\u200b", "\ufeff \u200b", "\u202e\u200d"])
def test_a_query_of_invisible_characters_is_blank(env, query):
    r = env["client"].post("/v1/score", json={"query": query, "content": "Boil pasta"})
    assert r.status_code == 422, r.text
    assert "query is blank" in r.json()["detail"]


@pytest.mark.parametrize("value", ["yes", 1, "0"])
def test_raw_metrics_is_a_strict_boolean(env, value):
    body = {"query": QUERY, "content": GOOD, "raw_metrics": value}
    r = env["client"].post("/v1/score", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == "body.raw_metrics"
    ok = env["client"].post("/v1/score", json={**body, "raw_metrics": True})
    assert ok.status_code == 200, ok.text


# --- finding 19: a job whose body was refused matches the declared JobDetail ----------------------


def test_a_refused_body_job_matches_the_openapi_job_detail(env):
    import jsonschema

    from scoregate.pipelines.intake import submit_message

    job_id = submit_message(
        env["ctx"], {"request": {"query": "q"}, "idempotency_key": "bad-1"}, "m"
    )
    assert job_id is not None
    r = env["client"].get("/v1/jobs/bad-1")
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "failed" and job["request"] == {}
    assert "content" in job["failure_reason"]
    spec = env["client"].get("/openapi.json").json()
    schema = {"$ref": "#/components/schemas/JobDetail", "components": spec["components"]}
    jsonschema.validate(job, schema, cls=jsonschema.Draft202012Validator)
    JobDetail.model_validate(job)
    with pytest.raises(jsonschema.ValidationError):  # an empty object only, not any object
        jsonschema.validate({**job, "request": {"x": 1}}, schema)


# --- finding 14: a UTF-8 Idempotency-Key header names the same key as the body --------------------


def test_a_non_ascii_idempotency_key_header_is_read_as_utf8(env):
    key = "ключ-🔑"
    body = {"request": {"query": QUERY, "content": GOOD}}
    first = env["client"].post("/v1/jobs", json={**body, "idempotency_key": key})
    assert first.status_code == 202, first.text
    header = {"Idempotency-Key": key.encode()}  # the UTF-8 bytes on the wire
    again = env["client"].post("/v1/jobs", json=body, headers=header)
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"], again.text
    both = env["client"].post("/v1/jobs", json={**body, "idempotency_key": key}, headers=header)
    assert both.status_code == 200, both.text
    assert api.get_job(first.json()["id"])["idempotency_key"] == key
    latin1 = {"Idempotency-Key": b"cl\xe9"}  # a byte that is no UTF-8
    r = env["client"].post("/v1/jobs", json=body, headers=latin1)
    assert r.status_code == 422 and "not UTF-8" in r.json()["detail"], r.text


def test_a_body_key_with_edge_spaces_is_refused(env):
    body = {"request": {"query": QUERY, "content": GOOD}, "idempotency_key": "  padded  "}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == "body.idempotency_key"
    assert "remove them" in r.json()["detail"]


# --- finding 22: cancelling a job no person waits on needs `submit`, through /review as /cancel ---


def test_a_review_key_cancels_only_a_job_waiting_for_a_person(env):
    from scoregate.server.auth import new_key, parse_keys

    alice, ci = new_key(), new_key()
    keys = parse_keys(f"alice:review+read:{alice},ci:submit+read:{ci}")
    client = AppClient(create_app(env["app"].state.service, keys))
    as_alice, as_ci = {"X-API-Key": alice}, {"X-API-Key": ci}
    running = {
        "request": {"query": QUERY, "content": BAD},
        "agent": "external",
        "loop": {"threshold": 0.8, "max_iterations": 3},
    }
    job_id = client.post("/v1/jobs", json=running, headers=as_ci).json()["id"]
    assert api.get_job(job_id)["status"] == "awaiting_agent"
    url = f"/v1/jobs/{job_id}/review"
    r = client.post(url, json={"verdict": "cancel"}, headers=as_alice)
    assert r.status_code == 403, r.text
    assert "'submit' scope" in r.json()["detail"] and r.json()["type"] == "/problems/forbidden"
    assert client.post(f"/v1/jobs/{job_id}/cancel", headers=as_alice).status_code == 403
    assert api.get_job(job_id)["status"] == "awaiting_agent"
    # a job waiting for a person: the review key may cancel it
    gated = {"request": {"query": QUERY, "content": MEH}, "loop": GATED}
    waiting = client.post("/v1/jobs", json=gated, headers=as_ci).json()["id"]
    r = client.post(f"/v1/jobs/{waiting}/review", json={"verdict": "cancel"}, headers=as_alice)
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.text
    # and a submit key cancels the running one through /review too (no keys: anyone does)
    r = client.post(url, json={"verdict": "cancel"}, headers=as_ci)
    assert r.status_code == 403  # ci lacks `review`: the route's own scope
    declared = client.get("/openapi.json").json()["paths"]["/v1/jobs/{job_id}/review"]["post"]
    assert "submit" in declared["responses"]["403"]["description"]


# --- finding 11: an escalated job shows no final result, whichever way it escalated --------------


def test_an_escalated_job_has_no_action_until_a_person_decides(env):
    ran_out = submit(env, BAD, agent="external", loop={"threshold": 0.9, "max_iterations": 1})
    failing = _waiting_for_agent(env)
    for attempt in range(2):  # the agent fails on every try: escalated with hil on
        report = {"iteration": 2, "message": "down", "task_id": f"t{attempt}"}
        env["client"].post(f"/v1/jobs/{failing}/agent-error", json=report)
    client = env["client"]
    items = {j["id"]: j for j in client.get("/v1/jobs?status=escalated").json()["jobs"]}
    assert set(items) == {ran_out, failing}
    for job_id in (ran_out, failing):
        state = client.get(f"/v1/jobs/{job_id}/status").json()
        detail = client.get(f"/v1/jobs/{job_id}").json()
        python = api.get_job(job_id)
        assert state["status"] == "escalated"
        assert state["action"] is None and state["final_result"] is None, state
        assert detail["final_result"] is None and python["final_result"] is None
        assert items[job_id]["action"] is None and items[job_id]["score"] is not None
        assert [r["action"] for r in api.list_jobs() if r["id"] == job_id] == [None]
        review(env, job_id, "approve", "alice")
        after = client.get(f"/v1/jobs/{job_id}/status").json()
        assert after["approved"] is True and after["final_result"] is not None


# --- finding 12: a 422 that recorded an agent failure says so, and what the job is now -----------


def test_an_agent_result_422_says_whether_it_changed_the_job(env):
    job_id = _waiting_for_agent(env)
    url = f"/v1/jobs/{job_id}/agent-result"
    untouched = env["client"].post(url, json={"iteration": 2, "output": "x", "job_id": "abc"})
    assert untouched.status_code == 422 and "agent_failure_recorded" not in untouched.json()
    missing = env["client"].post(url, json={"iteration": 2})
    assert missing.status_code == 422, missing.text
    body = missing.json()
    assert body["agent_failure_recorded"] is True
    assert (body["job_status"], body["current_iteration"]) == ("awaiting_agent", 1)
    assert body["detail"].startswith("`output` is missing (or null): send the answer")
    assert "NoneType" not in body["detail"]
    escalating = env["client"].post(url, json={"iteration": 2, "output": 42}).json()
    assert escalating["agent_failure_recorded"] is True
    assert escalating["job_status"] == "escalated"
    declared = env["client"].get("/openapi.json").json()["paths"]
    problem = declared["/v1/jobs/{job_id}/agent-result"]["post"]["responses"]["422"]
    schema = problem["content"]["application/problem+json"]["schema"]
    assert {"agent_failure_recorded", "job_status", "current_iteration"} <= set(
        schema["properties"]
    )


# --- finding 18: NAME@QUEUE in a body, as the CLI and workflow file write it; plain locs ---------


def test_a_task_may_be_given_as_name_at_queue(env):
    body = {
        "request": {"query": QUERY, "content": BAD},
        "agent": "agent@agents",
        "loop": {"threshold": 0.8, "max_iterations": 2},
        "hooks": {"on_loop_exit": "on_exit@hooks"},
    }
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    job = api.get_job(r.json()["id"])
    assert job["agent"] == {"task": "agent", "queue": "agents"}
    assert job["hooks"]["on_loop_exit"] == {"task": "on_exit", "queue": "hooks"}
    python = api.get_job(api.submit(body["request"], agent="agent@agents", loop=body["loop"]))
    assert python["agent"] == {"task": "agent", "queue": "agents"}


@pytest.mark.parametrize(
    ("value", "loc"),
    [("bad name@gpu", "body.agent.task"), ("agent@", "body.agent.queue"), (7, "body.agent")],
)
def test_a_bad_task_is_refused_at_its_part(env, value, loc):
    body = {"request": {"query": QUERY, "content": BAD}, "agent": value}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 422, r.text
    locs = [e["loc"] for e in r.json()["errors"]]
    assert locs and all(x.startswith(loc) for x in locs), locs
    assert "TaskRef" not in r.json()["detail"] and "constrained-str" not in r.json()["detail"]


# --- finding 24: OpenAPI does not declare `enabled: false` a default; the body is described ------


def test_openapi_leaves_enabled_without_a_default_and_describes_the_job(env):
    schemas = env["client"].get("/openapi.json").json()["components"]["schemas"]
    enabled = schemas["LoopPolicy"]["properties"]["enabled"]
    assert "default" not in enabled and "absent" in enabled["description"]
    for name in ("threshold", "max_iterations", "hil", "gating"):
        assert schemas["LoopPolicy"]["properties"][name]["description"], name
    job = schemas["JobSubmission"]["properties"]
    for name in ("request", "loop", "agent", "hooks", "on_pass", "on_loop_exit", "research"):
        assert job[name].get("description"), name
    assert '"external"' in job["agent"]["description"]
    request = schemas["ScoreRequest"]["properties"]
    assert all(request[name].get("description") for name in request), request
    # what a client that fills in every other declared default sends still loops
    loop = {
        k: v["default"] for k, v in schemas["LoopPolicy"]["properties"].items() if "default" in v
    }
    r = env["client"].post(
        "/v1/jobs",
        json={"request": {"query": QUERY, "content": BAD}, "loop": {**loop, "threshold": 0.8}},
    )
    assert r.status_code == 202, r.text
    assert api.get_job(r.json()["id"])["policy"]["enabled"] is True


# --- finding 17: a verdict that lost a race is answered as a later one, naming who decided -------


def test_a_late_verdict_and_a_lost_race_get_one_type_and_the_decider(env, monkeypatch):
    from scoregate.pipelines import control

    job_id = submit(env, MEH, loop=GATED)
    review(env, job_id, "approve", "r1")
    late = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "approve"})
    # a lost race: the open review was seen, then another verdict resolved it first
    second = submit(env, MEH, loop=GATED)
    real = control.review

    def racing(ctx: Any, jid: str, *args: Any) -> str:
        real(ctx, jid, "approve", "r1", "first")
        return real(ctx, jid, *args)

    monkeypatch.setattr(control, "review", racing)
    lost = env["client"].post(f"/v1/jobs/{second}/review", json={"verdict": "approve"})
    for r in (late, lost):
        assert r.status_code == 409, r.text
        body = r.json()
        assert body["type"] == "/problems/job-final", body
        assert body["decided"]["verdict"] == "approve" and body["decided"]["actor"] == "r1"
        assert body["decided"]["at"].endswith("Z")
        assert "approve by r1 at " in body["detail"]
    assert lost.json()["decided"]["rationale"] == "first"


# --- finding 23: a database that is gone or refuses the server is no "try again in 5 s" ----------


@pytest.mark.parametrize(
    "said",
    [
        'FATAL:  database "rev_api2" does not exist',
        'FATAL:  password authentication failed for user "scoregate"',
        'FATAL:  role "scoregate" does not exist',
    ],
)
def test_a_misconfigured_database_is_500_without_retry_after(env, said):
    from sqlalchemy.exc import OperationalError

    from tests.unit.test_http_edges import database_down

    def refused() -> Any:
        raise OperationalError("SELECT 1", {}, Exception(said))
        yield

    client = database_down(env["ctx"], refused)
    r = client.get("/v1/jobs")
    assert r.status_code == 500, r.text
    assert "Retry-After" not in r.headers
    assert "misconfigured" in r.json()["detail"] and "retrying will not help" in r.json()["detail"]
    assert "rev_api2" not in r.text and 'scoregate"' not in r.text


# --- finding 29: each operation says which scope its key needs ----------------------------------


def test_each_operation_declares_its_scope(env):
    paths = env["client"].get("/openapi.json").json()["paths"]
    expected = {
        ("post", "/v1/score"): "submit",
        ("post", "/v1/jobs"): "submit",
        ("get", "/v1/jobs"): "read",
        ("get", "/v1/jobs/{job_id}"): "read",
        ("get", "/v1/jobs/{job_id}/status"): "read",
        ("post", "/v1/jobs/{job_id}/review"): "review",
        ("post", "/v1/jobs/{job_id}/cancel"): "submit",
        ("post", "/v1/jobs/{job_id}/agent-result"): "submit",
        ("post", "/v1/jobs/{job_id}/agent-error"): "submit",
    }
    for (method, path), scope in expected.items():
        op = paths[path][method]
        assert op["x-scoregate-scope"] == scope, (method, path)
        assert f"Scope: an API key with `{scope}`" in op["description"], (method, path)
    readme = (ROOT / "README.md").read_text()
    assert "every `GET /v1/...` needs `read`" in readme


# --- finding 13: a hook the job will not send is said at submit -----------------------------------


def test_submit_says_when_on_pass_will_never_be_sent(env):
    body = {"request": {"query": QUERY, "content": GOOD}, "on_pass": "on_pass"}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    (said,) = r.json()["warnings"]
    assert said.startswith("on_pass will not be sent: with the loop and gating off")
    assert api.get_job(r.json()["id"])["status"] == "completed" and not env["on_pass"].calls
    with pytest.warns(UserWarning, match="on_pass will not be sent"):
        api.submit(body["request"], on_pass="on_pass")
    for loop in ({"threshold": 0.8}, {"enabled": False, "gating": True}):
        r = env["client"].post("/v1/jobs", json={**body, "loop": loop, "agent": "agent"})
        assert r.status_code == 202 and r.json()["warnings"] == [], r.text


# --- finding 16: the small boundary answers -------------------------------------------------------


def test_small_boundaries(env):
    client = env["client"]
    job_id = submit(env, GOOD)
    # a trailing slash is no job with an empty id
    r = client.get("/v1/jobs/")
    assert r.status_code == 404 and r.json()["type"] == "/problems/no-route", r.text
    assert "GET /v1/jobs (no trailing slash)" in r.json()["detail"]
    # HEAD /healthz, as load balancers probe
    assert client.request("HEAD", "/healthz").status_code == 200
    # a long id is not echoed whole
    r = client.get("/v1/jobs/" + "a" * 5000 + "/status")
    assert r.status_code == 404 and len(r.text) < 1000, len(r.text)
    # a refusal names its field
    r = client.post(f"/v1/jobs/{submit(env, MEH, loop=GATED)}/review", json={"verdict": "research"})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == "body.verdict", r.text
    body = {"request": {"query": QUERY, "content": GOOD}}
    for extra, loc in (
        ({"submitted_by": "a\u0000b"}, "body.submitted_by"),
        ({"idempotency_key": "a\u0000b"}, "body.idempotency_key"),
    ):
        r = client.post("/v1/jobs", json={**body, **extra})
        assert r.status_code == 422 and r.json()["errors"][0]["loc"] == loc, r.text
    nul = {"request": {"query": QUERY, "content": GOOD, "metadata": {"role": "a\u0000"}}}
    r = client.post("/v1/jobs", json=nul)
    assert r.json()["errors"][0]["loc"] == "body.request.metadata.role", r.text
    # NaN (which Python's JSON reads) is not a number in range
    r = client.post(
        "/v1/jobs",
        content=b'{"request": {"query": "q", "content": "a"}, "loop": {"threshold": NaN}}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422 and "finite" in r.json()["detail"], r.text
    # a compressed body is named for its Content-Encoding
    r = client.post(
        "/v1/jobs",
        content=b"\x1f\x8b\x08\x00",
        headers={"content-type": "application/json", "content-encoding": "gzip"},
    )
    assert r.status_code == 415 and "Content-Encoding 'gzip'" in r.json()["detail"], r.text
    # an unknown query parameter is refused, with the one meant
    r = client.get(f"/v1/jobs/{job_id}/status?wiat=10")
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == "query.wiat"
    assert "did you mean 'wait'" in r.json()["detail"]
    assert client.get(f"/v1/jobs/{job_id}/status?wait=0").status_code == 200
    assert client.get("/v1/jobs?status=completed&limit=5").status_code == 200
    # a cache-buster a browser library adds (`_=<time>`) is let through
    assert client.get(f"/v1/jobs/{job_id}/status?_=1733059200").status_code == 200


# --- finding 34: a LoopPolicy given to scoregate.submit follows the rule a dict does -------------


def test_a_loop_policy_model_loops_as_the_same_dict_does(env):
    from scoregate.schemas.loop import LoopPolicy, TaskRef

    request = {"query": QUERY, "content": BAD}
    for loop in (
        {"threshold": 0.5, "max_iterations": 2},
        LoopPolicy(threshold=0.5, max_iterations=2),
        LoopPolicy.model_validate({"threshold": 0.5}),
    ):
        job_id = api.submit(request, loop=loop, agent="external")
        assert api.get_job(job_id)["policy"]["enabled"] is True, loop
    off = api.submit(request, loop=LoopPolicy(enabled=False, threshold=0.5), agent="external")
    assert api.get_job(off)["policy"]["enabled"] is False
    typed = api.submit(request, agent=TaskRef(task="agent", queue="agents"))
    assert api.get_job(typed)["agent"] == {"task": "agent", "queue": "agents"}


# --- finding 33: a research verdict answers the runs left this clock hour -------------------------


def test_a_research_verdict_answers_the_quota_left(env):
    job_id = submit(env, MEH, loop={"enabled": False, "gating": True}, research="research")
    assert api.get_job(job_id)["status"] == "awaiting_review"
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "research"})
    assert r.status_code == 200, r.text
    quota = r.json()["research_quota"]
    # the runs left as the CLI reads them (the research answer, scored low, ran it again)
    assert (quota["remaining"], quota["limit"]) == api.research_quota(), quota
    assert quota["remaining"] < 5
    other = submit(env, MEH, loop=GATED)
    done = env["client"].post(f"/v1/jobs/{other}/review", json={"verdict": "approve"}).json()
    assert "research_quota" not in done
    assert "clock hour" in (ROOT / "README.md").read_text()


# --- finding 35: a request that brings its key in a header is judged by the key, not its Origin --


def test_a_keyed_request_from_a_page_is_judged_by_its_key(keyed):
    body = {"request": {"query": QUERY, "content": GOOD}}
    page = {"Origin": "https://scoregate.example.com", "Sec-Fetch-Site": "same-site"}
    for key_header in ({"X-API-Key": keyed["ci"]}, {"Authorization": f"Bearer {keyed['ci']}"}):
        r = keyed["client"].post("/v1/jobs", json=body, headers={**page, **key_header})
        assert r.status_code == 202, r.text
    # the cookie a browser sends by itself is still refused cross-site
    cookie = {**page, "Cookie": f"scoregate_key={keyed['ci']}"}
    r = keyed["client"].post("/v1/jobs", json=body, headers=cookie)
    assert r.status_code == 403 and "cross-site" in r.json()["detail"], r.text
    # a wrong key from a page is refused for its key
    r = keyed["client"].post("/v1/jobs", json=body, headers={**page, "X-API-Key": "nope"})
    assert r.status_code == 401


# --- finding 21: the Python API does what an orchestrator does over HTTP ------------------------


def test_the_python_api_lists_waits_answers_reviews_and_cancels(env):
    import threading
    import time

    import scoregate

    assert {"list_jobs", "wait_job", "cancel", "review", "agent_result", "agent_error"} <= set(
        scoregate.__all__
    )
    request = {"query": QUERY, "content": BAD}
    loop = {"threshold": 0.8, "max_iterations": 3}
    job_id = scoregate.submit(request, agent="external", loop=loop)
    job = scoregate.wait_job(job_id, timeout=0)
    assert job["status"] == "awaiting_agent" and job["agent_request"]["iteration"] == 2
    # an answer sent while another thread waits on the job: the wait returns at the change
    later = threading.Timer(0.3, lambda: scoregate.agent_result(job_id, 2, GOOD))
    started = time.monotonic()
    later.start()
    done = scoregate.wait_job(job_id, timeout=10, since_status="awaiting_agent", since_iteration=1)
    later.join()
    assert time.monotonic() - started < 5
    assert done["status"] == "accepted" and done["approved"] is True
    assert scoregate.agent_result(job_id, 2, GOOD) == "duplicate"
    failing = scoregate.submit(request, agent="external", loop=loop)
    assert scoregate.agent_error(failing, 2, message="down", task_id="t1") == "retried"
    assert scoregate.agent_error(failing, 2, message="down", task_id="t1") == "duplicate"
    assert scoregate.cancel(failing, "ops") == "awaiting_agent"
    gated = scoregate.submit({"query": QUERY, "content": MEH}, loop=GATED)
    assert [j["id"] for j in scoregate.list_jobs(waiting=True)] == [gated]
    assert scoregate.review(gated, "approve", "alice") == "accepted"
    assert scoregate.list_jobs(limit=1)[0]["reviewed_by"] == "alice"
    with pytest.raises(LookupError):
        scoregate.wait_job("no-such-job", timeout=0)


# --- finding 15: a Python caller can learn that the broker did not take its job ------------------


def test_submit_strict_says_the_broker_did_not_take_the_job(env, monkeypatch):
    import dataclasses

    from scoregate.pipelines.dispatch import JobsNotPublished, PublishError
    from tests.unit.test_http_edges import BrokerDown

    down = dataclasses.replace(env["ctx"], dispatcher=BrokerDown())
    monkeypatch.setattr(api, "client_context", lambda: (down, None))
    request = {"query": QUERY, "content": GOOD}
    quiet = api.submit(request)  # recorded; the sweeper publishes it later
    with pytest.raises(JobsNotPublished) as raised:
        api.submit(request, strict=True)
    assert isinstance(raised.value, PublishError) and len(raised.value.job_ids) == 1
    with pytest.raises(JobsNotPublished):
        api.submit_many([request, request], strict=True)
    with down.session() as s:
        from scoregate.storage import repository as repo

        assert repo.get_job(s, job_id=quiet) is not None
        assert repo.get_job(s, job_id=raised.value.job_ids[0]) is not None


# --- finding 16 (the Node client): --help, and its events read by name -------------------------


def test_the_node_client_prints_its_options():
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = ROOT / "interop" / "scoregate-client.js"
    shown = subprocess.run(
        [node, str(script), "--help"], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0, shown.stderr
    assert "--broker URL" in shown.stdout and "--agent-throws MESSAGE" in shown.stdout
    wrong = subprocess.run([node, str(script), "--bogus", "x"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "--help lists them" in wrong.stderr
    assert "read the lines by their" in script.read_text()
