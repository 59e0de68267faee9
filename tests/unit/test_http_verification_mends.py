"""The HTTP API's open points of the 2026-12-01 verification: ``published`` in every
answer of a route that publishes, timestamps in RFC 3339 with ``Z``, an abandoned
``/v1/score`` stopping inside its model track (or before the next one), the version in
``/healthz`` and ``GET /v1/jobs/{id}?content=false``. SQLite, fake models, fake
dispatchers."""

# ruff: noqa: F811
from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

import scoregate
from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.result import TrackScore
from scoregate.server import ApiService, create_app
from scoregate.server.api import rfc3339
from tests.fakes import BAD, GOOD, SCORES, FakeModels
from tests.server_client import AppClient
from tests.unit.test_http_edges import BrokerDown, BrokerUp
from tests.unit.test_http_routes_review import (
    HOOKS,
    LOOP,
    QUERY,
    SpecChecker,
    env,  # noqa: F401 (a fixture)
    job,
    submit,
    waiting,
)

JOBS, ONE = "/v1/jobs", "/v1/jobs/{job_id}"


def over(env: dict[str, Any], dispatcher: Any) -> AppClient:
    """The app as ``scoregate serve`` runs it with a broker, on ``env``'s database."""
    return AppClient(create_app(ApiService(dataclasses.replace(env["ctx"], dispatcher=dispatcher))))


def escalated(env: dict[str, Any]) -> str:
    job_id = submit(env, BAD, loop=LOOP, **HOOKS)
    assert job(env, job_id)["status"] == "escalated"
    return job_id


# --- 1. published: in the body of every route that publishes -------------------------------------


def _cancel(env: dict[str, Any]) -> tuple[str, str, dict[str, Any] | None]:
    return waiting(env), "cancel", None  # its on_loop_exit hook


def _agent_result(env: dict[str, Any]) -> tuple[str, str, dict[str, Any] | None]:
    return waiting(env), "agent-result", {"iteration": 2, "output": GOOD}  # three track tasks


def _agent_error(env: dict[str, Any]) -> tuple[str, str, dict[str, Any] | None]:
    return waiting(env), "agent-error", {"iteration": 2, "message": "boom"}  # the agent again


def _approve(env: dict[str, Any]) -> tuple[str, str, dict[str, Any] | None]:
    return escalated(env), "review", {"verdict": "approve"}  # its on_pass hook


@pytest.mark.parametrize("call", [_cancel, _agent_result, _agent_error, _approve])
@pytest.mark.parametrize("broker", [BrokerUp, BrokerDown])
def test_every_route_that_publishes_says_what_in_its_body(env, call, broker):
    job_id, route, body = call(env)
    dispatcher = broker()
    client = over(env, dispatcher)
    r = client.post(f"{JOBS}/{job_id}/{route}", json=body)
    assert r.status_code in (200, 202), r.text
    if broker is BrokerDown:
        assert r.json()["published"] == "deferred"
        assert r.headers["X-Scoregate-Published"] == "deferred"  # kept
    else:
        assert r.json()["published"] == "queued" and dispatcher.sent
        assert "X-Scoregate-Published" not in r.headers
    SpecChecker(client).check("POST", f"{ONE}/{route}", r)


def test_a_call_that_publishes_nothing_says_none(env):
    job_id = waiting(env)
    client = over(env, BrokerDown())
    url = f"{JOBS}/{job_id}/agent-result"
    assert client.post(url, json={"iteration": 2, "output": GOOD}).json()["published"] == "deferred"
    again = client.post(url, json={"iteration": 2, "output": GOOD})  # a retry: nothing done
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate", again.text
    assert again.json()["published"] == "none" and "X-Scoregate-Published" not in again.headers
    alone = submit(env, BAD, loop=LOOP, agent="external")  # no hooks: a cancel tells nobody
    cancelled = client.post(f"{JOBS}/{alone}/cancel")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["published"] == "none"


def test_published_is_declared_and_required_where_it_is_sent(env):
    schemas = env["client"].get("/openapi.json").json()["components"]["schemas"]
    for name in ("ReviewDone", "Cancelled", "AgentReplyTaken"):
        published = schemas[name]["properties"]["published"]
        assert published["enum"] == ["queued", "deferred", "none"], name
        assert "published" in schemas[name]["required"], name


def test_the_embedded_server_says_queued(env):
    r = env["client"].post(f"{JOBS}/{waiting(env)}/cancel")
    assert r.json()["published"] == "queued" and "X-Scoregate-Published" not in r.headers


# --- 2. timestamps: RFC 3339 in UTC with Z, in every route ---------------------------------------

LOOKS_LIKE_A_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
RFC3339_Z = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def times_in(value: Any, at: str = "") -> dict[str, str]:
    """Every string in ``value`` that starts like a timestamp, by where it is."""
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        return {k: v for key, item in items for k, v in times_in(item, f"{at}.{key}").items()}
    if isinstance(value, str) and LOOKS_LIKE_A_TIME.match(value):
        return {at: value}
    return {}


def test_every_route_writes_times_in_rfc3339_with_z(env):
    client = env["client"]
    job_id = escalated(env)
    client.post(f"{JOBS}/{job_id}/review", json={"verdict": "approve"})
    answers = {
        "list": client.get(JOBS),
        "detail": client.get(f"{JOBS}/{job_id}"),
        "detail with content": client.get(f"{JOBS}/{job_id}?content=true"),
        "detail without content": client.get(f"{JOBS}/{job_id}?content=false"),
        "long poll": client.get(f"{JOBS}/{job_id}?wait=1"),
        "status": client.get(f"{JOBS}/{job_id}/status"),
        "status long poll": client.get(f"{JOBS}/{job_id}/status?wait=1"),
    }
    found: dict[str, str] = {}
    for name, r in answers.items():
        assert r.status_code == 200, (name, r.text)
        found |= {f"{name}{at}": when for at, when in times_in(r.json()).items()}
    wrong = {at: when for at, when in found.items() if not RFC3339_Z.fullmatch(when)}
    assert not wrong, wrong
    # every kind of row was seen: the job's, iterations', tracks', audit, review, dispatches
    fields = {re.sub(r"\.\d+", "", at.split(" ", 1)[-1]) for at in found}
    for where in (
        "detail.created_at",
        "detail.iterations.fused_at",
        "detail.iterations.tracks.semantic.created_at",
        "detail.decisions.created_at",
        "detail.escalations.resolved_at",
        "detail.dispatches.sent_at",
        "detail.dispatches.published_at",
        "list.jobs.updated_at",
        "status.updated_at",
    ):
        assert any(f.endswith(where) for f in fields), (where, sorted(fields))
    stored = datetime.fromisoformat(answers["detail"].json()["created_at"])
    assert stored.tzinfo is not None and abs(datetime.now(UTC) - stored) < timedelta(minutes=5)


def test_rfc3339_writes_utc_with_z_to_the_microsecond():
    assert rfc3339("2026-12-01T12:00:00.123456+00:00") == "2026-12-01T12:00:00.123456Z"
    assert rfc3339("2026-12-01T12:00:00+00:00") == "2026-12-01T12:00:00.000000Z"
    assert rfc3339("2026-12-01T13:30:00+01:30") == "2026-12-01T12:00:00.000000Z"
    assert rfc3339("2026-12-01T12:00:00.5Z") == "2026-12-01T12:00:00.500000Z"
    east = datetime(2026, 12, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    assert rfc3339(east) == "2026-12-01T12:00:00.000000Z"
    assert rfc3339(None) is None
    with pytest.raises(ValueError, match="naive time"):
        rfc3339("2026-12-01T12:00:00")


def test_timestamps_are_declared_as_date_time(env):
    schemas = env["client"].get("/openapi.json").json()["components"]["schemas"]
    assert schemas["JobDetail"]["properties"]["created_at"]["format"] == "date-time"
    assert schemas["JobState"]["properties"]["updated_at"]["format"] == "date-time"
    sent = schemas["DispatchOut"]["properties"]
    assert sent["sent_at"]["format"] == "date-time"
    assert {"format": "date-time", "type": "string"} in sent["published_at"]["anyOf"]


# --- 3. an abandoned POST /v1/score stops inside its model track, or before the next one ---------


class SlowModels(FakeModels):
    """A provider whose ``score_pairs`` takes no ``should_stop``: its ``slow`` track runs
    until the client has hung up, and a little more, to its end (the server's own models
    stop inside the track: see the test after these)."""

    def __init__(self, slow: str) -> None:
        super().__init__(SCORES)
        self.slow = slow
        self.started = threading.Event()
        self.hung_up = threading.Event()

    def score_pairs(self, track: str, pairs: list[tuple[str, str]]) -> list[TrackScore]:
        if track == self.slow:
            self.started.set()
            assert self.hung_up.wait(5), "the client never hung up"
            time.sleep(0.5)  # the route sees it meanwhile
        return super().score_pairs(track, pairs)


def asgi_scope(
    method: str, path: str, *, query: bytes = b"", headers: tuple[tuple[bytes, bytes], ...] = ()
) -> dict[str, Any]:
    """An HTTP request's ASGI scope, for calling the app straight through ASGI (a client
    whose hang-up the test chooses)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


def call_and_hang_up(app: Any, models: Any, body: dict[str, Any]) -> list[dict[str, Any]]:
    """POST /v1/score straight through ASGI; the client hangs up once ``models.started``
    is set (the slow track runs), and sets ``models.hung_up`` as it does."""
    raw = json.dumps(body).encode()
    sent: list[dict[str, Any]] = []
    read = False

    async def receive() -> dict[str, Any]:
        nonlocal read
        if not read:
            read = True
            return {"type": "http.request", "body": raw, "more_body": False}
        while not models.started.is_set():  # the next message, once the client has gone
            await asyncio.sleep(0.01)
        models.hung_up.set()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = ((b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()))
    scope = asgi_scope("POST", "/v1/score", headers=headers)
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 10))
    return sent


@pytest.mark.parametrize(
    ("slow", "tracks", "said"),
    [
        ("semantic", ["semantic"], "scoring stopped before the precision track"),
        ("precision", ["semantic", "precision"], "its last model track ran to its end"),
    ],
)
def test_a_score_whose_client_hangs_up_stops_before_the_next_track(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, slow: str, tracks: list[str], said: str
) -> None:
    models = SlowModels(slow)
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'score.db'}"))
    ctx, inline = embedded_context(settings, models=models)
    app = create_app(ApiService(ctx, inline))
    with caplog.at_level(logging.INFO, logger="scoregate.server.api"):
        sent = call_and_hang_up(app, models, {"query": QUERY, "content": GOOD})
    assert [track for track, _ in models.calls] == tracks
    assert sent[0]["status"] == 499  # nobody reads it; the access log and metrics do
    records = [r for r in caplog.records if "abandoned" in r.getMessage()]
    lines = [r.getMessage() for r in records]
    assert len(lines) == 1 and records[0].levelno == logging.INFO, lines
    assert lines[0].startswith("POST /v1/score abandoned: the client hung up") and said in lines[0]


class HeldLayer:
    """Holds the recording embedder in its second batch until the client has hung up, as a
    long model call would be running then (``started``, ``hung_up``: as ``SlowModels``)."""

    def __init__(self, model: Any, layers: int) -> None:
        self.model, self.layers = model, layers
        self.started = threading.Event()
        self.hung_up = threading.Event()
        model.after_layer = self

    def __call__(self) -> None:
        if len(self.model.layers) == self.layers:
            self.started.set()
            assert self.hung_up.wait(5), "the client never hung up"
            time.sleep(0.5)  # the route sees it meanwhile and sets the stop


def test_a_score_whose_client_hangs_up_stops_inside_the_running_track(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The server's own models: the call stops at the next layer of the semantic track
    (its second batch), the precision track never starts, and the log line says so."""
    from tests.unit.test_score_stop_inside import LAYERS, local_models

    models, embedder, cross = local_models()
    held = HeldLayer(embedder, LAYERS + 1)  # the first layer of the second batch
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'score.db'}"))
    ctx, inline = embedded_context(settings, config=models._cfg, models=models)
    app = create_app(ApiService(ctx, inline))
    with caplog.at_level(logging.INFO, logger="scoregate.server.api"):
        sent = call_and_hang_up(app, held, {"query": QUERY, "content": GOOD * 20})
    assert sent[0]["status"] == 499
    assert len(embedder.batches) == 2 and embedder.layers[-1] == (2, 0)  # not a layer more
    assert not cross.batches
    lines = [r.getMessage() for r in caplog.records if "abandoned" in r.getMessage()]
    assert len(lines) == 1 and "scoring stopped in the semantic track" in lines[0], lines


def test_a_score_whose_client_stays_is_answered(env):
    r = env["client"].post("/v1/score", json={"query": QUERY, "content": GOOD})
    assert r.status_code == 200 and r.json()["score"] > 0.5, r.text


# --- 4. the version in /healthz ------------------------------------------------------------------


def test_health_shows_the_package_version_and_declares_it(env):
    assert env["client"].get("/healthz").json()["version"] == scoregate.__version__
    health = env["client"].get("/openapi.json").json()["components"]["schemas"]["Health"]
    assert health["properties"]["version"]["type"] == "string" and "version" in health["required"]


# --- 5. GET /v1/jobs/{id}?content=false ----------------------------------------------------------


def test_content_false_leaves_every_answer_out(env):
    long = GOOD + " More of the same." * 3000  # about 54,000 characters
    job_id = waiting(env, request={"query": QUERY, "content": long})
    assert job(env, job_id)["agent_request"]["previous_content"] == long
    full = env["client"].get(f"{JOBS}/{job_id}")
    light = env["client"].get(f"{JOBS}/{job_id}?content=false")
    assert full.json()["request"]["content"] == long  # the default is kept
    detail = light.json()
    assert "content" not in detail["request"] and detail["request"]["query"] == QUERY
    assert "previous_content" not in detail["agent_request"]
    assert detail["agent_request"]["iteration"] == 2 and detail["agent_request"]["feedback"]
    assert all("content" not in it for it in detail["iterations"])
    assert len(light.content) < 20_000 < len(long) < len(full.content)
    SpecChecker(env["client"]).check("GET", ONE, light)


def test_content_is_a_three_way_switch_declared_in_openapi(env):
    job_id = submit(env, GOOD)
    with_texts = job(env, job_id, content="true")
    assert with_texts["iterations"][0]["content"] == GOOD
    assert "content" not in job(env, job_id)["iterations"][0]
    assert "content" not in job(env, job_id, content="false")["request"]
    assert env["client"].get(f"{JOBS}/{job_id}?content=maybe").status_code == 422
    op = env["client"].get("/openapi.json").json()["paths"][ONE]["get"]
    [param] = [p for p in op["parameters"] if p["name"] == "content"]
    assert {"type": "boolean"} in param["schema"]["anyOf"] and "false" in param["description"]


# --- a long-poll whose client hangs up stops polling the database ---------------------------------


def test_a_long_poll_whose_client_hangs_up_stops_polling(env, monkeypatch):
    """``request.is_disconnected()`` misses a hang-up behind the app's HTTP middlewares; the
    wait listens for ``http.disconnect`` itself, so a gone client costs no more polls."""
    job_id = waiting(env)
    service = env["service"]
    polls: list[float] = []
    position_of = service.position_of

    def counted(ref: str) -> Any:
        polls.append(time.monotonic())
        return position_of(ref)

    monkeypatch.setattr(service, "position_of", counted)
    path = f"/v1/jobs/{job_id}/status"
    gone = threading.Event()
    sent: list[dict[str, Any]] = []
    first = True

    async def receive() -> dict[str, Any]:
        nonlocal first
        if first:
            first = False
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(0.3)  # the client hangs up 0.3 s into a 20 s wait
        gone.set()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = asgi_scope("GET", path, query=b"wait=20")
    asyncio.run(asyncio.wait_for(env["app"](scope, receive, send), 15))
    assert gone.is_set()
    # one read to start and a poll or two around the hang-up, not 80 over 20 s
    assert len(polls) <= 6, len(polls)
    assert sent[0]["status"] == 499  # no job built for a client that has gone


def test_a_failed_disconnect_listener_is_no_hang_up():
    from scoregate.server.api import _hung_up

    async def check() -> tuple[bool, bool, bool]:
        async def fail() -> None:
            raise RuntimeError("receive broke")

        async def gone() -> None:
            return None

        failed, left = asyncio.ensure_future(fail()), asyncio.ensure_future(gone())
        pending = asyncio.ensure_future(asyncio.sleep(10))
        await asyncio.sleep(0.01)
        try:
            return _hung_up(failed), _hung_up(left), _hung_up(pending)
        finally:
            pending.cancel()

    assert asyncio.run(check()) == (False, True, False)
