"""The HTTP API and the review pages in process: httpx's ASGI transport, SQLite, fake models."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

import scoregate
from scoregate.cli import app as cli_app
from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.server.auth import digest, find_key, new_key, parse_keys, settings_entry
from scoregate.server.diff import word_diff
from scoregate.server.serve import check_host
from scoregate.storage import repository as repo
from scoregate.storage.paging import decode_cursor
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels, Recorder
from tests.server_client import AppClient

LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 2}
QUERY = "Write a helpful answer."


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
    return {"ctx": ctx, "service": service, "client": AppClient(create_app(service)), **tasks}


def keyed(env: dict[str, Any], entries: str, key: str | None = None) -> AppClient:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return AppClient(create_app(env["service"], parse_keys(entries)), headers)


def job_body(content: str, **extra: Any) -> dict[str, Any]:
    return {"request": {"query": QUERY, "content": content}, **extra}


def escalated(env: dict[str, Any]) -> str:
    """A job whose loop ran out of iterations and waits for a human."""
    body = job_body(BAD, loop=LOOP, agent="agent", on_pass="on_pass", on_loop_exit="on_exit")
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "escalated"
    return str(r.json()["id"])


def test_a_listed_job_waiting_for_a_human_shows_its_latest_score(env):
    job_id = escalated(env)
    detail = env["client"].get(f"/v1/jobs/{job_id}").json()
    last = [it for it in detail["iterations"] if it["score"] is not None][-1]
    [row] = [j for j in env["client"].get("/v1/jobs").json()["jobs"] if j["id"] == job_id]
    assert (row["score"], row["band"]) == (last["score"], last["band"])
    assert row["score"] is not None


@pytest.mark.parametrize("loop", [{"threshold": 0.8}, {"max_iterations": 2}])
def test_a_loop_given_without_enabled_runs_as_a_submit_message_does(env, loop):
    # the README: a loop that gives threshold or max_iterations and no enabled is enabled
    body = job_body(BAD, loop=loop, agent="agent", on_loop_exit="on_exit")
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    job = env["client"].get(f"/v1/jobs/{r.json()['id']}").json()
    assert job["status"] == "escalated" and job["policy"]["enabled"] is True
    assert len(env["agent"].calls) >= 1


def assert_problem(r: Any, status: int, *needles: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["status"] == status and body["title"] and body["type"].startswith("/problems/")
    for needle in needles:
        assert needle in body["detail"], body["detail"]
    return dict(body)


# --- score and submit ----------------------------------------------------------------------------


def test_score_returns_the_breakdown_without_a_job(env):
    r = env["client"].post("/v1/score", json={"query": QUERY, "content": GOOD})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["band"] == "GREEN" and body["action"] == "accept"
    assert body["tracks"]["semantic"]["score"] == pytest.approx(SCORES[GOOD])
    assert env["client"].get("/v1/jobs").json()["jobs"] == []


def test_invalid_body_is_a_problem_naming_each_field(env):
    r = env["client"].post("/v1/score", json={"content": GOOD, "colour": "red"})
    body = assert_problem(r, 422, "body.query: Field required", "fix these fields")
    assert {e["loc"] for e in body["errors"]} == {"body.query", "body.colour"}


def test_malformed_json_is_a_problem(env):
    r = env["client"].post(
        "/v1/jobs", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert_problem(r, 400, "the body is not valid JSON", "at character 1")


def test_submit_returns_the_id_and_the_job_reads_back(env):
    r = env["client"].post("/v1/jobs", json=job_body(GOOD, loop=LOOP, on_pass="on_pass"))
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    assert r.headers["location"] == f"/v1/jobs/{job_id}"
    job = env["client"].get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "accepted" and job["submitted_by"] == "local"
    assert set(job["iterations"][0]["result"]["tracks"]) >= {"semantic", "precision"}
    assert job["iterations"][0]["score"] >= 0.8
    assert [d["action"] for d in job["decisions"]] == ["accept"]
    assert "content" not in job["iterations"][0]
    with_text = env["client"].get(f"/v1/jobs/{job_id}?content=true").json()
    assert with_text["iterations"][0]["content"] == GOOD


def test_idempotency_key_header_returns_the_first_job(env):
    headers = {"Idempotency-Key": "order-42"}
    first = env["client"].post("/v1/jobs", json=job_body(GOOD), headers=headers)
    again = env["client"].post("/v1/jobs", json=job_body(GOOD), headers=headers)
    assert first.status_code == 202 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and again.json()["replayed"] is True
    assert len(env["client"].get("/v1/jobs").json()["jobs"]) == 1


def test_a_key_reused_for_another_request_is_a_conflict_not_a_silent_replay(env):
    headers = {"Idempotency-Key": "order-43"}
    first = env["client"].post("/v1/jobs", json=job_body(GOOD), headers=headers)
    other = env["client"].post("/v1/jobs", json=job_body(BAD), headers=headers)
    assert first.status_code == 202
    assert_problem(other, 409, "'order-43' already holds job", "different request")
    assert len(env["client"].get("/v1/jobs").json()["jobs"]) == 1


def test_a_header_key_and_a_body_key_that_differ_are_refused(env):
    body = {**job_body(GOOD), "idempotency_key": "k-B"}
    r = env["client"].post("/v1/jobs", json=body, headers={"Idempotency-Key": "k-A"})
    assert_problem(r, 422, "'k-A'", "'k-B'", "differ")
    assert env["client"].get("/v1/jobs").json()["jobs"] == []


def test_submit_applies_the_queue_allow_list(env):
    r = env["client"].post("/v1/jobs", json=job_body(GOOD, agent="evil.task"))
    assert_problem(r, 422, "'evil.task' is not allowed", "SCOREGATE_ALLOWED_TASKS")


def test_submit_refuses_text_postgres_cannot_store(env):
    r = env["client"].post("/v1/jobs", json=job_body("bad \x00 byte"))
    assert_problem(r, 422, "NUL character")


def test_oversized_body_is_refused_before_it_is_read(env):
    r = env["client"].post(
        "/v1/jobs",
        content=b"{}",
        headers={"content-type": "application/json", "content-length": str(64 * 1024 * 1024)},
    )
    assert_problem(r, 413, "larger than 32 MiB")


def test_chunked_body_is_cut_off_once_over_the_limit(env):
    sent = []

    async def chunks():  # no Content-Length: the size is only known as it arrives
        for _ in range(48):
            sent.append(1)
            yield b" " * (1024 * 1024)

    r = env["client"].post(
        "/v1/jobs", content=chunks(), headers={"content-type": "application/json"}
    )
    assert "content-length" not in r.request.headers
    assert_problem(r, 413, "larger than 32 MiB")
    assert len(sent) < 48  # refused before the rest was read
    # /v1/score scores while the caller waits: its small limit is checked on the length
    # sent, so a chunked body (no length) is refused before any of it is read
    sent.clear()
    r = env["client"].post(
        "/v1/score", content=chunks(), headers={"content-type": "application/json"}
    )
    assert_problem(r, 411, "needs a Content-Length")
    assert len(sent) <= 1


def test_body_that_is_not_utf8_is_a_clear_problem(env):
    r = env["client"].post(
        "/v1/jobs", content=b"\xff\x1b", headers={"content-type": "application/json"}
    )
    assert_problem(r, 400, "send one JSON object, encoded as UTF-8")


def test_unknown_job_and_route_are_problems(env):
    assert_problem(env["client"].get("/v1/jobs/nope"), 404, "no job 'nope'")
    assert_problem(env["client"].get("/v2/jobs"), 404, "see /docs")


# --- listing -------------------------------------------------------------------------------------


def test_list_pages_with_an_opaque_cursor(env):
    ids = [env["client"].post("/v1/jobs", json=job_body(GOOD)).json()["id"] for _ in range(5)]
    seen, cursor, pages = [], None, 0
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = env["client"].get("/v1/jobs", params=params).json()
        seen += [j["id"] for j in page["jobs"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3
    assert seen == list(reversed(ids))  # newest first, each job once


def test_list_filters_by_status_and_checks_parameters(env):
    escalated(env)
    env["client"].post("/v1/jobs", json=job_body(GOOD))
    page = env["client"].get("/v1/jobs", params={"status": "escalated"}).json()
    assert [j["status"] for j in page["jobs"]] == ["escalated"]
    assert_problem(env["client"].get("/v1/jobs?status=done"), 422, "not one of")
    assert_problem(env["client"].get("/v1/jobs?limit=0"), 422, "query.limit")
    assert_problem(env["client"].get("/v1/jobs?cursor=garbage"), 422, "leave cursor out")


def test_cursor_decoding_refuses_tampering():
    with pytest.raises(ValueError, match="not one this API returned"):
        decode_cursor("WyJub3QgYSBkYXRlIiwgMV0")


# --- review --------------------------------------------------------------------------------------


def test_review_approve_resumes_the_job_and_records_the_verdict(env):
    job_id = escalated(env)
    body = {"verdict": "approve", "note": "fine by me", "reviewer": "alice"}
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json=body)
    assert r.status_code == 200, r.text
    assert r.json() == {
        "id": job_id,
        "verdict": "approve",
        "reviewer": "alice",
        "status": "accepted",
        "published": "queued",
    }
    assert env["on_pass"].calls[0]["job_id"] == job_id
    job = env["client"].get(f"/v1/jobs/{job_id}").json()
    assert job["decisions"][-1]["actor"] == "alice"
    assert job["decisions"][-1]["rationale"] == "fine by me"
    with env["ctx"].session() as s:
        verdicts = repo.list_verdicts(s)
    assert [(v.job_id, v.accepted, v.actor) for v in verdicts] == [(job_id, True, "alice")]


def test_review_of_a_job_not_waiting_is_a_conflict(env):
    job_id = env["client"].post("/v1/jobs", json=job_body(GOOD)).json()["id"]
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "approve"})
    assert_problem(r, 409, "nothing is waiting for review")
    r = env["client"].post("/v1/jobs/nope/review", json={"verdict": "approve"})
    assert_problem(r, 404, "no job")
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "maybe"})
    assert_problem(r, 422, "body.verdict")


def test_review_note_with_a_nul_is_the_callers_to_fix(env):
    job_id = escalated(env)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/review", json={"verdict": "approve", "note": "ok\x00"}
    )
    assert_problem(r, 422, "note: contains a NUL character")
    assert env["client"].get(f"/v1/jobs/{job_id}").json()["status"] == "escalated"


# --- auth ----------------------------------------------------------------------------------------


def test_keys_gate_every_route_by_scope(env):
    reader, reviewer = new_key(), new_key()
    entries = f"ci:read:{reader},{settings_entry('alice', ['review', 'read'], reviewer)}"
    assert_problem(keyed(env, entries).get("/v1/jobs"), 401, "missing")
    wrong = keyed(env, entries, "sgk_" + "x" * 40).get("/v1/jobs")
    assert_problem(wrong, 401, "not a configured key")
    assert wrong.headers["www-authenticate"] == "Bearer"
    assert keyed(env, entries, reader).get("/v1/jobs").status_code == 200
    r = keyed(env, entries, reader).post("/v1/jobs", json=job_body(GOOD))
    assert_problem(r, 403, "'submit' scope", "scoregate api-key")
    job_id = escalated(env)
    r = keyed(env, entries, reviewer).post(f"/v1/jobs/{job_id}/review", json={"verdict": "reject"})
    assert r.status_code == 200 and r.json()["reviewer"] == "alice"
    x_api = AppClient(create_app(env["service"], parse_keys(entries)), {"X-API-Key": reader})
    assert x_api.get(f"/v1/jobs/{job_id}").json()["status"] == "rejected"


def test_key_entries_parse_hash_and_explain_mistakes():
    key = new_key()
    (parsed,) = parse_keys(settings_entry("ci", ["submit", "read"], key))
    assert parsed.scopes == {"submit", "read"} and parsed.digest == digest(key)
    assert find_key([parsed], key) is parsed and find_key([parsed], key + "x") is None
    assert parse_keys(f"ops:all:{key}")[0].scopes == {"submit", "read", "review"}
    with pytest.raises(ValueError, match="unknown scope.*admin"):
        parse_keys(f"ci:admin:{key}")
    with pytest.raises(ValueError, match="NAME:SCOPES:KEY") as info:
        parse_keys("just-a-key")
    with pytest.raises(ValueError, match="64 hex digits"):
        parse_keys("ci:read:sha256:abc")
    with pytest.raises(ValueError, match="shorter than 16"):
        parse_keys("ci:read:short")
    with pytest.raises(ValueError, match="more than once"):
        parse_keys(f"ci:read:{key},ci:submit:{new_key()}")
    assert key not in str(info.value)


def test_without_keys_only_loopback_may_be_bound():
    for host in ("127.0.0.1", "localhost", "::1"):
        check_host(host, [])
    with pytest.raises(ValueError, match="127.0.0.1 only.*SCOREGATE_API_KEYS"):
        check_host("0.0.0.0", [])
    check_host("0.0.0.0", parse_keys(f"ci:read:{new_key()}"))


def test_cli_api_key_prints_a_working_hashed_entry():
    result = CliRunner().invoke(cli_app, ["api-key", "ci", "--scope", "submit", "-s", "read"])
    assert result.exit_code == 0, result.output
    key = re.search(r"sgk_[A-Za-z0-9_-]+", result.output).group()
    entry = result.output.strip().splitlines()[-1]
    assert entry.startswith("ci:submit+read:sha256:") and key not in entry
    assert find_key(parse_keys(entry), key) is not None


def test_cli_serve_refuses_a_public_host_without_keys(monkeypatch):
    monkeypatch.delenv("SCOREGATE_API_KEYS", raising=False)
    from scoregate.config.settings import get_settings

    get_settings.cache_clear()
    result = CliRunner().invoke(cli_app, ["serve", "--host", "0.0.0.0"])
    get_settings.cache_clear()
    assert result.exit_code == 2
    assert "127.0.0.1 only" in result.output


# --- operations and docs -------------------------------------------------------------------------


def test_healthz_metrics_and_openapi(env):
    health = env["client"].get("/healthz")
    assert health.status_code == 200
    assert health.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "in-process",
        "mode": "embedded",
        "version": scoregate.__version__,
    }
    job_id = env["client"].post("/v1/jobs", json=job_body(GOOD)).json()["id"]
    env["client"].get(f"/v1/jobs/{job_id}")
    metrics = env["client"].get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    assert re.search(r'^scoregate_scores_total\{band="GREEN"\} [1-9]', metrics.text, re.M)
    route = r'method="POST",route="/v1/jobs",status="202"'
    assert re.search(r"^scoregate_http_requests_total\{" + route + r"\} [1-9]", metrics.text, re.M)
    assert 'route="/v1/jobs/{job_id}"' in metrics.text and job_id not in metrics.text
    schema = env["client"].get("/openapi.json").json()
    assert {"/v1/score", "/v1/jobs", "/v1/jobs/{job_id}", "/v1/jobs/{job_id}/review"} <= set(
        schema["paths"]
    )
    # the schema route is counted under its own path, not as "unmatched" (the registry is
    # the process's: other tests' requests are in it too, so only this route is read)
    metrics = env["client"].get("/metrics").text
    assert 'route="/openapi.json",status="200"' in metrics
    assert "/review" not in schema["paths"]


def test_docs_page_is_served_locally(env):
    page = env["client"].get("/docs")
    assert page.status_code == 200
    assert "/v1/jobs/{job_id}/review" in page.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text)


# --- review pages --------------------------------------------------------------------------------


def test_queue_lists_waiting_jobs_oldest_first(env):
    first, second = escalated(env), escalated(env)
    env["client"].post("/v1/jobs", json=job_body(GOOD))
    page = env["client"].get("/review")
    assert page.status_code == 200
    assert re.findall(r'href="/review/([0-9a-f-]{36})"', page.text) == [first, second]
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text)


def test_job_page_shows_answers_diff_chart_reasons_and_buttons(env):
    env["agent"].returns = BAD + " Extra words now."
    job_id = escalated(env)
    page = env["client"].get(f"/review/{job_id}")
    assert page.status_code == 200
    text = page.text
    assert QUERY in text and "data:image/png;base64," in text
    assert "<ins> Extra words now.</ins>" in text
    assert "fake precision" in text  # the iteration's reasons
    for verdict in ("approve", "reject"):
        assert f'value="{verdict}"' in text
    assert 'value="research"' not in text  # the job has no research task to run
    assert '<script src="/static/review.js">' in text
    js = env["client"].get("/static/review.js").text
    assert '"a"' in js and '"r"' in js


def test_job_page_charts_a_loop_at_the_accept_cut(env):
    body = job_body(BAD, loop={"enabled": True, "max_iterations": 2}, agent="agent")
    job_id = env["client"].post("/v1/jobs", json=body).json()["id"]
    assert "data:image/png;base64," in env["client"].get(f"/review/{job_id}").text


def test_verdict_form_resumes_the_job(env):
    job_id = escalated(env)
    page = env["client"].get(f"/review/{job_id}").text
    token = re.search(r'name="token" value="([0-9a-f]+)"', page).group(1)
    form = {"verdict": "approve", "token": token, "note": "ok", "reviewer": "bob"}
    r = env["client"].post(f"/review/{job_id}", data=form)
    assert r.status_code == 303 and r.headers["location"] == f"/review/{job_id}?done=approve"
    assert env["on_pass"].calls[0]["job_id"] == job_id
    done = env["client"].get(r.headers["location"]).text
    assert 'id="job-status" class="status accepted"' in done
    assert 'id="approve"' not in done  # nothing left to decide
    assert f'href="/review/{job_id}"' not in env["client"].get("/review").text


def test_research_is_offered_only_where_a_research_task_can_run(env):
    gated = {"gating": True}
    with_task = (
        env["client"]
        .post("/v1/jobs", json=job_body(MEH, loop=gated, research="research"))
        .json()["id"]
    )
    without = env["client"].post("/v1/jobs", json=job_body(MEH, loop=gated)).json()["id"]
    assert {env["service"].status_of(j) for j in (with_task, without)} == {"awaiting_review"}
    assert 'value="research"' in env["client"].get(f"/review/{with_task}").text
    assert 'value="research"' not in env["client"].get(f"/review/{without}").text
    decisions = env["client"].get(f"/v1/jobs/{without}").json()["decisions"]
    assert decisions[-1]["rationale"].endswith("(yes / no)")
    r = env["client"].post(f"/v1/jobs/{without}/review", json={"verdict": "research"})
    assert_problem(r, 422, "has no research task to run")
    assert env["service"].status_of(without) == "awaiting_review"  # nothing changed


def test_verdict_form_refuses_a_forged_token(env):
    job_id = escalated(env)
    r = env["client"].post(f"/review/{job_id}", data={"verdict": "approve", "token": "0" * 64})
    assert r.status_code == 400 and "or came from another site" in r.text
    assert env["on_pass"].calls == []


def test_pages_need_a_review_key_when_keys_are_configured(env):
    key, reader = new_key(), new_key()
    client = keyed(env, f"alice:review:{key},bob:read:{reader}")
    assert client.get("/review").headers["location"] == "/review/login?next=%2Freview"
    refused = client.post("/review/login", data={"key": reader})
    assert refused.status_code == 401 and "lacks the review scope" in refused.text
    r = client.post("/review/login", data={"key": key})
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    signed_in = AppClient(client.app, {"Cookie": f"scoregate_key={key}"})
    assert "signed in as alice" in signed_in.get("/review").text


def test_with_keys_a_verdict_is_recorded_under_the_key_that_sent_it(env):
    key, submitter = new_key(), new_key()
    entries = f"alice:review+read:{key},ci:submit+read:{submitter}"
    job_id = escalated(env)
    signed_in = AppClient(
        create_app(env["service"], parse_keys(entries)), {"Cookie": f"scoregate_key={key}"}
    )
    page = signed_in.get(f"/review/{job_id}").text
    token = re.search(r'name="token" value="([0-9a-f]+)"', page).group(1)
    form = {"verdict": "reject", "token": token, "reviewer": "bob"}
    assert signed_in.post(f"/review/{job_id}", data=form).status_code == 303
    job = env["client"].get(f"/v1/jobs/{job_id}").json()
    assert job["decisions"][-1]["actor"] == "bob (key alice)"
    with env["ctx"].session() as s:
        assert [v.actor for v in repo.list_verdicts(s)] == ["bob (key alice)"]
    ci = keyed(env, entries, submitter)
    r = ci.post("/v1/jobs", json=job_body(GOOD, submitted_by="mallory"))
    assert env["client"].get(r.headers["location"]).json()["submitted_by"] == "mallory (key ci)"
    r = ci.post("/v1/jobs", json=job_body(GOOD + " again"))
    assert env["client"].get(r.headers["location"]).json()["submitted_by"] == "ci"


def test_word_diff_marks_insertions_and_deletions():
    runs = word_diff("boil the pasta with nuts", "boil the pasta, no nuts")
    assert "".join(t for op, t in runs if op != "del") == "boil the pasta, no nuts"
    assert ("del", "with") in runs and ("add", "no") in runs
    assert ("same", "boil the ") == runs[0] and runs[-1] == ("same", " nuts")


def test_serve_demo_runs_one_job_to_acceptance_and_one_to_the_queue(tmp_path):
    import io

    from rich.console import Console

    from scoregate.cli.demo import RECIPE_DRAFTS
    from scoregate.server.demo import demo_service

    out = io.StringIO()
    service, ids = demo_service(
        Console(file=out, width=200),
        database_url=f"sqlite:///{tmp_path / 'demo.db'}",
        models=FakeModels(dict.fromkeys(RECIPE_DRAFTS, 0.95), default=0.9),
    )
    assert [service.status_of(i) for i in ids] == ["accepted", "escalated"]
    assert [j["id"] for j in service.queue()] == [ids[1]]
    assert f"on_pass fired: job {ids[0]}" in out.getvalue()
    client = AppClient(create_app(service))
    r = client.post(f"/v1/jobs/{ids[1]}/review", json={"verdict": "approve"})
    assert r.json()["status"] == "accepted"
    assert f"on_pass fired: job {ids[1]}" in out.getvalue()
