"""The HTTP server's edges in process: a database or broker that does not answer, bodies not
sent as JSON. SQLite, fake models, fake dispatchers (the real outages:
``tests/integration/test_http_outages.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

import scoregate
from scoregate.config.settings import Settings
from scoregate.pipelines.dispatch import InlineDispatcher, Message, PublishError
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.server.app import SCORE_MAX_BODY_BYTES, BrokerCheck, is_json
from tests.fakes import GOOD, SCORES, FakeModels
from tests.server_client import AppClient

BODY = {"request": {"query": "Write a helpful answer.", "content": GOOD}}
SECRET_URL = "postgresql+psycopg://scoregate:hunter2@db.internal:5432/scoregate"


@pytest.fixture
def ctx(tmp_path: Path) -> Any:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'edges.db'}"))
    made, _ = embedded_context(settings, models=FakeModels(SCORES))
    return made


class BrokerDown:
    """A dispatcher whose broker never takes a message."""

    def __init__(self) -> None:
        self.tried = 0

    def send(self, message: Message) -> None:
        self.send_many([message])

    def send_many(self, messages: Sequence[Message]) -> None:
        self.tried += len(messages)
        raise PublishError(f"cannot publish {len(messages)} message(s): Connection refused")


class BrokerUp:
    def __init__(self) -> None:
        self.sent: list[Message] = []

    def send(self, message: Message) -> None:
        self.sent.append(message)

    def send_many(self, messages: Sequence[Message]) -> None:
        self.sent += messages


def celery_client(ctx: Any, dispatcher: Any, check: Any = lambda: True) -> AppClient:
    """The app as ``scoregate serve`` runs it with a broker (no in-process worker)."""
    service = ApiService(dataclasses.replace(ctx, dispatcher=dispatcher))
    return AppClient(create_app(service, broker_check=check))


# --- a database that does not answer -------------------------------------------------------------


def unreachable() -> Iterator[Any]:
    raise OperationalError(
        "SELECT 1",
        {},
        ConnectionError('connection to server at "db.internal", port 5432 failed: refused\nIs'),
    )
    yield  # a generator, as a session scope is


def database_down(ctx: Any, fault: Any = unreachable) -> AppClient:
    settings = Settings(database_url=SecretStr(SECRET_URL))
    down = dataclasses.replace(ctx, settings=settings, session=contextmanager(fault))
    return celery_client(down, BrokerUp())


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("GET", "/v1/jobs", None), ("POST", "/v1/jobs", BODY), ("GET", "/v1/jobs/abc123", None)],
)
def test_a_database_that_does_not_answer_is_503_with_retry_after(ctx, caplog, method, path, body):
    client = database_down(ctx)
    with caplog.at_level(logging.INFO):
        r = client.request(method, path, json=body)
    assert r.status_code == 503, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.headers["Retry-After"] == "5"
    problem = r.json()
    assert problem["type"] == "/problems/unavailable"
    assert problem["detail"].startswith("the database did not answer: try again in 5 s")
    # the database's address and the driver's words stay in the server log
    assert "db.internal" not in r.text and "refused" not in r.text and "hunter2" not in r.text
    # one line in the log, no traceback
    errors = [rec for rec in caplog.records if rec.levelno >= logging.WARNING]
    assert len(errors) == 1, [rec.getMessage() for rec in errors]
    line = errors[0].getMessage()
    assert errors[0].exc_info is None and "database unreachable on" in line
    assert "db.internal:5432/scoregate" in line and "refused" in line and "hunter2" not in line


def test_a_database_down_leaves_health_degraded_not_an_error(ctx):
    r = database_down(ctx).get("/healthz")
    assert r.status_code == 503
    assert r.json()["database"] == "unreachable" and r.json()["broker"] == "ok"


def test_other_faults_of_the_database_stay_500(ctx):
    def broken() -> Iterator[Any]:
        raise RuntimeError("a bug")
        yield

    async def get() -> httpx.Response:
        # the server re-raises a 500's error after answering (for its log): not in the test
        app = database_down(ctx, broken).app
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return await c.get("/v1/jobs")

    r = asyncio.run(get())
    assert r.status_code == 500 and "Retry-After" not in r.headers
    assert r.json()["type"] == "/problems/internal"


# --- the broker ----------------------------------------------------------------------------------


def test_a_job_the_broker_did_not_take_is_accepted_and_said_deferred(ctx):
    broker = BrokerDown()
    r = celery_client(ctx, broker).post("/v1/jobs", json=BODY)
    assert r.status_code == 202, r.text
    assert broker.tried == 3  # its three track tasks, left to the sweeper
    assert r.headers["X-Scoregate-Published"] == "deferred"
    assert r.json()["status"] == "running" and r.json()["published"] == "deferred"


def test_a_job_the_broker_took_says_nothing_of_deferral(ctx):
    broker = BrokerUp()
    r = celery_client(ctx, broker).post("/v1/jobs", json=BODY)
    assert r.status_code == 202
    assert len(broker.sent) == 3 and "X-Scoregate-Published" not in r.headers
    assert r.json()["published"] == "queued"


@pytest.mark.parametrize(("reachable", "status"), [(True, 200), (False, 503)])
def test_health_reports_the_broker_probe(ctx, reachable, status):
    r = celery_client(ctx, BrokerUp(), check=lambda: reachable).get("/healthz")
    assert r.status_code == status
    assert r.json() == {
        "status": "ok" if reachable else "degraded",
        "database": "ok",
        "broker": "ok" if reachable else "unreachable",
        "mode": "celery",
        "version": scoregate.__version__,
    }


def test_the_broker_probe_is_asked_once_per_interval():
    answers = iter([False, True])
    calls: list[int] = []

    def probe() -> bool:
        calls.append(1)
        return next(answers)

    check = BrokerCheck(probe, ttl=60)
    assert [check(), check(), check()] == [False, False, False]
    assert len(calls) == 1
    fresh = BrokerCheck(probe, ttl=0)
    assert fresh() is True and len(calls) == 2


# --- bodies not sent as JSON ---------------------------------------------------------------------


@pytest.fixture
def client(ctx: Any) -> AppClient:
    return celery_client(ctx, BrokerUp())


@pytest.mark.parametrize("path", ["/v1/jobs", "/v1/score"])
@pytest.mark.parametrize(
    "content_type", ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded"]
)
def test_a_body_not_sent_as_json_is_415_naming_the_header(client, path, content_type):
    body = json.dumps(BODY).encode()
    r = client.post(path, content=body, headers={"Content-Type": content_type})
    assert r.status_code == 415, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["type"] == "/problems/unsupported-media-type"
    assert "send Content-Type: application/json" in r.json()["detail"]
    assert content_type in r.json()["detail"]


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"],
)
def test_json_with_or_without_parameters_is_read(client, content_type):
    body = json.dumps(BODY).encode()
    r = client.post("/v1/jobs", content=body, headers={"Content-Type": content_type})
    assert r.status_code == 202, r.text


def test_a_json_body_without_a_content_type_is_415(client):
    # no type is no JSON: a browser may send such a body cross-site without a preflight
    r = client.post("/v1/jobs", content=json.dumps(BODY).encode())
    assert r.status_code == 415, r.text
    assert r.json()["detail"].startswith("the body was sent without a Content-Type: send")


@pytest.mark.parametrize("headers", [{}, {"Content-Type": "text/plain"}])
def test_an_empty_post_is_not_asked_for_a_content_type(client, headers):
    job_id = client.post("/v1/jobs", json=BODY).json()["id"]
    r = client.post(f"/v1/jobs/{job_id}/cancel", headers=headers)
    assert r.status_code == 200, r.text


def test_json_media_types():
    assert is_json("application/json") and is_json("application/problem+json; charset=utf-8")
    assert not is_json("text/plain;charset=UTF-8") and not is_json("application/jsonx")
    assert not is_json("text/json+json") and not is_json("")


# --- POST /v1/score: bounded, and warm from the start ---------------------------------------------


def score_body(chars: int) -> bytes:
    return json.dumps({"query": "Is this long?", "content": "x" * chars}).encode()


def test_score_refuses_a_body_over_its_limit_and_says_to_submit_a_job(client):
    big = score_body(SCORE_MAX_BODY_BYTES)
    r = client.post("/v1/score", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.json()["detail"].startswith("POST /v1/score takes bodies up to 32 KiB")
    assert "submit a long answer as a job (POST /v1/jobs" in r.json()["detail"]
    job = {"request": {"query": "Is this long?", "content": "x" * SCORE_MAX_BODY_BYTES}}
    assert client.post("/v1/jobs", json=job).status_code == 202  # jobs take it


def test_score_takes_a_body_up_to_its_limit(client):
    fits = score_body(SCORE_MAX_BODY_BYTES - 100)
    assert len(fits) <= SCORE_MAX_BODY_BYTES
    r = client.post("/v1/score", content=fits, headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text


@pytest.fixture
def serve_cli(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """``scoregate serve`` up to the point it would listen (``run`` records instead)."""
    from scoregate.config.settings import get_settings

    monkeypatch.delenv("SCOREGATE_API_KEYS", raising=False)
    get_settings.cache_clear()
    seen: dict[str, Any] = {"run": []}

    def run(app: Any, host: str, port: int) -> None:
        seen["run"].append(list(seen["models"].calls))  # what was scored before listening

    monkeypatch.setattr("scoregate.server.serve.run", run)
    yield seen
    get_settings.cache_clear()


def invoke_serve(seen: dict[str, Any], monkeypatch: Any, service: ApiService, *args: str) -> Any:
    from typer.testing import CliRunner

    from scoregate.cli import app

    monkeypatch.setattr("scoregate.server.serve.production_service", lambda: service)
    return CliRunner().invoke(app, ["serve", *args])


def test_serve_loads_the_models_before_it_listens(ctx, serve_cli, monkeypatch):
    models = FakeModels(SCORES)
    serve_cli["models"] = models
    service = ApiService(ctx, models=models)
    result = invoke_serve(serve_cli, monkeypatch, service)
    assert result.exit_code == 0, result.output
    assert "models loaded in" in result.output
    [scored_before] = serve_cli["run"]
    assert {track for track, _ in scored_before} >= {"semantic", "precision"}
    skipped = invoke_serve(serve_cli, monkeypatch, ApiService(ctx), "--no-load-models")
    assert skipped.exit_code == 0 and "models loaded" not in skipped.output


def no_models() -> Any:
    raise OSError("no model files in the cache (HF_HUB_OFFLINE=1)")


@pytest.mark.parametrize("embedded", [True, False])
def test_serve_with_models_that_do_not_load(ctx, serve_cli, monkeypatch, embedded):
    serve_cli["models"] = FakeModels()
    broken = dataclasses.replace(ctx, models_factory=no_models)
    inline = InlineDispatcher() if embedded else None
    result = invoke_serve(serve_cli, monkeypatch, ApiService(broken, inline))
    assert "the models did not load (OSError: no model files" in result.output
    if embedded:  # its worker scores every job here: nothing would work
        assert result.exit_code == 2 and not serve_cli["run"]
    else:  # the workers score the jobs; only /v1/score needs them here
        assert result.exit_code == 0 and len(serve_cli["run"]) == 1
        assert "POST /v1/score will fail" in result.output


def test_serve_refuses_a_database_without_its_tables(tmp_path, serve_cli, monkeypatch):
    """As the workers and the CLI do: every route would answer 500 on it."""
    empty = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'empty.db'}"))
    serve_cli["models"] = FakeModels(SCORES)
    made, _ = embedded_context(empty, models=FakeModels(SCORES))
    engine = create_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    with engine.begin() as conn:  # a database someone named but never migrated
        for table in ("alembic_version", "jobs"):
            conn.execute(text(f"DROP TABLE IF EXISTS {table}"))
    engine.dispose()
    result = invoke_serve(serve_cli, monkeypatch, ApiService(made), "--no-load-models")
    assert result.exit_code == 2, result.output
    assert "has no scoregate tables" in result.output and "scoregate db upgrade" in result.output
    assert not serve_cli["run"]


def test_health_declares_its_503_with_the_health_body(client):
    """A generated client can read the degraded answer, not only the healthy one."""
    spec = client.get("/openapi.json").json()
    responses = spec["paths"]["/healthz"]["get"]["responses"]
    degraded = responses["503"]["content"]["application/json"]["schema"]
    assert degraded == {"$ref": "#/components/schemas/Health"}


def test_the_problem_type_is_an_enum_of_every_kind(client):
    from scoregate.server.problems import PROBLEM_TYPES

    spec = client.get("/openapi.json").json()
    conflict = spec["paths"]["/v1/jobs"]["post"]["responses"]["409"]["content"]
    kinds = conflict["application/problem+json"]["schema"]["properties"]["type"]["enum"]
    assert kinds == [f"/problems/{k}" for k in PROBLEM_TYPES]
    # and what the API really answers is one of them
    assert client.get("/v1/jobs/no-such-job").json()["type"] in kinds


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_cross_site_post_from_a_web_page_is_refused(client, headers):
    """A page of another site must not act through a server that trusts local callers
    (no keys, loopback): a body-less POST needs no preflight, so the cancel route would
    otherwise take it."""
    r = client.post("/v1/jobs/abcdef/cancel", headers=headers)
    assert r.status_code == 403, r.text
    assert r.json()["type"] == "/problems/forbidden" and "cross-site" in r.json()["detail"]


def test_a_same_origin_or_non_browser_post_is_taken(client):
    same = client.post("/v1/jobs", json=BODY, headers={"Origin": "http://testserver"})
    assert same.status_code == 202, same.text
    assert client.post("/v1/jobs", json=BODY).status_code == 202  # curl, Node: no Origin
