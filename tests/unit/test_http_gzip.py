"""gzip on the HTTP API's responses (``SCOREGATE_HTTP_GZIP_MIN_BYTES``): what is compressed,
what is not, and what must keep working around it (Content-Length, the long poll's hang-up,
the metrics' route, the review pages' ``no-store``, the static files' ETag). The app is
called straight through ASGI, so the bytes checked are the ones the server sends."""

# ruff: noqa: F811
from __future__ import annotations

import asyncio
import gzip
import json
import threading
import time
from pathlib import Path
from typing import Any

from prometheus_client import REGISTRY
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from scoregate.server.compression import Compression
from tests.fakes import BAD, GOOD, SCORES, FakeModels
from tests.unit.test_http_routes_review import (
    HOOKS,
    LOOP,
    QUERY,
    env,  # noqa: F401 (a fixture)
    submit,
    waiting,
)
from tests.unit.test_http_verification_mends import asgi_scope

GZIP = ((b"accept-encoding", b"gzip, deflate, br"),)


class Sent:
    """One response as the server sent it: status, headers (last value of each name, lower
    case) and the body's bytes, undecoded."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        start = messages[0]
        assert start["type"] == "http.response.start", messages[0]
        self.status: int = start["status"]
        self.headers = {k.decode().lower(): v.decode() for k, v in start.get("headers", [])}
        self.body = b"".join(
            m.get("body", b"") for m in messages if m["type"] == "http.response.body"
        )

    @property
    def gzipped(self) -> bool:
        return self.headers.get("content-encoding") == "gzip"

    def decoded(self) -> bytes:
        return gzip.decompress(self.body) if self.gzipped else self.body

    def json(self) -> Any:
        return json.loads(self.decoded())


def call(
    app: Any,
    path: str,
    *,
    query: bytes = b"",
    headers: tuple[tuple[bytes, bytes], ...] = (),
    method: str = "GET",
    body: bytes = b"",
) -> Sent:
    """One request straight through ASGI (no client decodes or re-frames anything)."""
    sent: list[dict[str, Any]] = []
    read = False

    async def receive() -> dict[str, Any]:
        nonlocal read
        if not read:
            read = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(30)  # the client stays until the answer
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = asgi_scope(method, path, query=query, headers=headers)
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 15))
    return Sent(sent)


def framed(r: Sent) -> None:
    """The body is exactly as long as its Content-Length says (no chunked re-framing)."""
    assert r.headers.get("content-length") == str(len(r.body)), r.headers


def app_with(tmp_path: Path, **settings: Any) -> Any:
    config = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'gz.db'}"), **settings)
    ctx, inline = embedded_context(config, models=FakeModels(SCORES))
    return create_app(ApiService(ctx, inline))


def long_job(env: dict[str, Any]) -> str:
    return submit(env, GOOD + " More of the same, said again." * 200)  # about 6,000 characters


# --- compressed when asked and large enough ------------------------------------------------------


def test_a_large_job_view_is_gzipped_and_decodes_to_the_same_json(env):
    job_id = long_job(env)
    path = f"/v1/jobs/{job_id}"
    plain = call(env["app"], path, query=b"content=true")
    packed = call(env["app"], path, query=b"content=true", headers=GZIP)
    assert plain.status == packed.status == 200
    assert not plain.gzipped and packed.gzipped
    assert packed.json() == plain.json()
    assert len(packed.body) * 3 < len(plain.body)  # repetitive JSON: far smaller
    framed(plain)
    framed(packed)
    assert "accept-encoding" in packed.headers["vary"].lower()  # caches keep both forms apart


def test_job_lists_openapi_metrics_and_score_breakdowns_are_gzipped(env):
    for content in (GOOD, BAD, GOOD + " Indeed.", BAD + " Indeed.", GOOD + " Quite."):
        submit(env, content)
    asked = {
        "query": QUERY + " Keep it short and do not mention prices.",
        "content": GOOD,
        "constraints": [{"kind": "not_contains", "value": "price", "hard": True}],
    }
    app = env["app"]
    answers = {
        "list": call(app, "/v1/jobs", headers=GZIP),
        "openapi": call(app, "/openapi.json", headers=GZIP),
        "metrics": call(app, "/metrics", headers=GZIP),
        "score": call(
            app,
            "/v1/score",
            method="POST",
            body=json.dumps(asked).encode(),
            headers=(*GZIP, (b"content-type", b"application/json")),
        ),
    }
    got = {k: (r.status, r.gzipped) for k, r in answers.items()}
    assert got == dict.fromkeys(answers, (200, True))
    for r in answers.values():
        framed(r)
    assert len(answers["list"].json()["jobs"]) == 5
    assert "/v1/jobs/{job_id}" in answers["openapi"].json()["paths"]
    assert b"scoregate_http_requests_total" in answers["metrics"].decoded()
    assert answers["score"].json()["tracks"]["semantic"]["status"] == "ok"


def test_a_review_page_is_never_gzipped(env):
    """It carries its form token beside text a submitter chose: compressed, its sizes could
    give the token away (BREACH)."""
    job_id = submit(env, BAD, loop=LOOP, **HOOKS)  # escalated: the page has a verdict form
    page = call(env["app"], f"/review/{job_id}", headers=GZIP)
    assert page.status == 200 and not page.gzipped and len(page.body) > 1000
    assert page.headers["cache-control"] == "no-store"
    html = page.decoded().decode()
    assert job_id in html and 'name="token"' in html


# --- not compressed ------------------------------------------------------------------------------


def test_without_accept_encoding_nothing_is_compressed(env):
    job_id = long_job(env)
    for path, query in ((f"/v1/jobs/{job_id}", b"content=true"), ("/openapi.json", b"")):
        r = call(env["app"], path, query=query)
        assert r.status == 200 and "content-encoding" not in r.headers
        framed(r)
        assert r.json()


def test_a_small_response_is_not_compressed(env):
    """Under the minimum (1000 bytes by default) the gzip header and a deflate block would
    cost about what they save. A compressor placed around the app's HTTP middlewares gzips
    these too (it sees every body as a stream) and drops Content-Length: this catches it."""
    job_id = waiting(env)
    for path in ("/healthz", f"/v1/jobs/{job_id}/status"):
        r = call(env["app"], path, headers=GZIP)
        assert r.status == 200 and not r.gzipped, (path, r.headers)
        assert len(r.body) < 1000
        framed(r)


def test_the_minimum_is_the_setting(tmp_path):
    """``/openapi.json`` (tens of KB) is compressed over any small minimum and not when the
    minimum is above its size; ``/healthz`` (under 100 bytes) over a minimum of 10."""
    small = app_with(tmp_path, http_gzip_min_bytes=10)
    assert call(small, "/healthz", headers=GZIP).gzipped
    size = len(call(small, "/openapi.json").body)
    above, at = (app_with(tmp_path, http_gzip_min_bytes=n) for n in (size + 1, size))
    assert not call(above, "/openapi.json", headers=GZIP).gzipped
    assert call(at, "/openapi.json", headers=GZIP).gzipped


def test_zero_turns_compression_off(tmp_path, monkeypatch):
    off = app_with(tmp_path, http_gzip_min_bytes=0)
    assert not any(m.cls is Compression for m in off.user_middleware)
    r = call(off, "/openapi.json", headers=GZIP)
    assert r.status == 200 and not r.gzipped and "vary" not in r.headers
    framed(r)
    monkeypatch.setenv("SCOREGATE_HTTP_GZIP_MIN_BYTES", "0")
    assert Settings().http_gzip_min_bytes == 0
    monkeypatch.setenv("SCOREGATE_HTTP_GZIP_MIN_BYTES", "2048")
    assert Settings().http_gzip_min_bytes == 2048


# --- what keeps working around it ----------------------------------------------------------------


def test_a_long_poll_whose_client_hangs_up_still_stops(env, monkeypatch):
    """The client asks for gzip and hangs up 0.3 s into a 20 s wait: the wait hears it
    through the compressor and the other middlewares, and stops polling."""
    job_id = waiting(env)
    service = env["service"]
    polls: list[float] = []
    position_of = service.position_of

    def counted(ref: str) -> Any:
        polls.append(time.monotonic())
        return position_of(ref)

    monkeypatch.setattr(service, "position_of", counted)
    gone = threading.Event()
    sent: list[dict[str, Any]] = []
    first = True

    async def receive() -> dict[str, Any]:
        nonlocal first
        if first:
            first = False
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(0.3)
        gone.set()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    for path in (f"/v1/jobs/{job_id}", f"/v1/jobs/{job_id}/status"):
        polls.clear()
        gone.clear()
        sent.clear()
        first = True
        started = time.monotonic()
        scope = asgi_scope("GET", path, query=b"wait=20", headers=GZIP)
        asyncio.run(asyncio.wait_for(env["app"](scope, receive, send), 15))
        assert gone.is_set() and time.monotonic() - started < 5, path
        assert len(polls) <= 6, (path, len(polls))
        assert Sent(sent).status == 499, path


def test_the_metrics_count_a_gzipped_answer_under_its_route(env):
    job_id = long_job(env)
    labels = {"method": "GET", "route": "/v1/jobs/{job_id}", "status": "200"}

    def count() -> float:
        return REGISTRY.get_sample_value("scoregate_http_requests_total", labels) or 0.0

    before = count()
    assert call(env["app"], f"/v1/jobs/{job_id}", query=b"content=true", headers=GZIP).gzipped
    assert count() == before + 1


def test_body_limits_still_answer_413(env):
    declared = call(
        env["app"],
        "/v1/jobs",
        method="POST",
        headers=(*GZIP, (b"content-type", b"application/json"), (b"content-length", b"99999999")),
    )
    assert declared.status == 413
    framed(declared)
    body = json.dumps({"query": QUERY, "content": GOOD * 4000}).encode()  # over 32 KiB
    score = call(
        env["app"],
        "/v1/score",
        method="POST",
        body=body,
        headers=(
            *GZIP,
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ),
    )
    assert score.status == 413 and "POST /v1/score takes bodies up to" in score.json()["detail"]


def test_a_gzipped_static_file_has_a_weak_etag_that_still_revalidates(env):
    """A strong ETag names exact bytes; the gzipped bytes are not the file's, so theirs is
    weak. Sent back in If-None-Match, it still gets a 304."""
    plain = call(env["app"], "/static/review.css")
    packed = call(env["app"], "/static/review.css", headers=GZIP)
    assert plain.status == packed.status == 200 and packed.gzipped and not plain.gzipped
    framed(packed)
    assert packed.decoded() == plain.body
    strong = plain.headers["etag"]
    assert not strong.startswith("W/") and packed.headers["etag"] == "W/" + strong
    again = call(
        env["app"],
        "/static/review.css",
        headers=(*GZIP, (b"if-none-match", packed.headers["etag"].encode())),
    )
    assert again.status == 304 and again.body == b""
