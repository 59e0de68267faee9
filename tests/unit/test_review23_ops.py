"""The operator's review (twenty-third session): the review pages' errors, times and sign-in,
the audit trail's figures, ``scoregate workers`` and ``submit --json``, in process."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from scoregate.pipelines import api
from scoregate.server.auth import new_key
from tests.fakes import MEH
from tests.unit.test_review23_api import env, submit  # noqa: F401  (env is a fixture)
from tests.unit.test_server import keyed

# --- finding 6: every answer of a review page is a page, never problem+json ------------------


def _awaiting_review(env: dict[str, Any]) -> str:  # noqa: F811
    job_id = submit(env, MEH, loop={"gating": True})
    assert api.get_job(job_id)["status"] == "awaiting_review"
    return job_id


def _token(env: dict[str, Any], job_id: str) -> str:  # noqa: F811
    page = env["client"].get(f"/review/{job_id}").text
    return page.split('name="token" value="', 1)[1].split('"', 1)[0]


def _is_page(r: Any) -> None:
    assert r.headers["content-type"].startswith("text/html"), (r.status_code, r.text)
    assert 'href="/review"' in r.text  # a way back


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("/review?kind=bogus", "kind"),
        ("/review?start=-1", "start"),
        ("/review/some/thing/else", "no route"),
    ],
)
def test_a_bad_review_address_answers_a_page(env, url, says):  # noqa: F811
    r = env["client"].get(url)
    assert r.status_code in (404, 422)
    _is_page(r)
    assert says in r.text


def test_a_wrong_method_on_a_review_page_answers_a_page_with_allow(env):  # noqa: F811
    r = env["client"].request("PUT", "/review")
    assert r.status_code == 405 and "GET" in r.headers["allow"]
    _is_page(r)


def test_the_api_still_answers_problem_json(env):  # noqa: F811
    r = env["client"].get("/v1/jobs?status=bogus")
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize("missing", ["token", "verdict"])
def test_a_verdict_form_missing_a_field_answers_a_page_keeping_the_note(env, missing):  # noqa: F811
    job_id = _awaiting_review(env)
    form = {"verdict": "approve", "token": _token(env, job_id), "note": "looks right to me"}
    del form[missing]
    r = env["client"].post(f"/review/{job_id}", data=form)
    assert r.status_code == 400
    _is_page(r)
    assert "looks right to me" in r.text and f'href="/review/{job_id}"' in r.text
    assert api.get_job(job_id)["status"] == "awaiting_review"


def test_a_note_over_the_limit_answers_a_page_keeping_it(env):  # noqa: F811
    job_id = _awaiting_review(env)
    note = "long note " * 1001
    form = {"verdict": "approve", "token": _token(env, job_id), "note": note}
    r = env["client"].post(f"/review/{job_id}", data=form)
    assert r.status_code == 400
    _is_page(r)
    assert "10,000" in r.text and note.strip() in r.text
    assert api.get_job(job_id)["status"] == "awaiting_review"
    assert 'maxlength="10000"' in env["client"].get(f"/review/{job_id}").text


def test_a_sign_in_without_a_key_answers_a_page(env):  # noqa: F811
    client = keyed(env | {"service": env["app"].state.service}, f"alice:review:{new_key()}")
    r = client.post("/review/login", data={"next": "/review"})
    assert r.status_code == 422
    _is_page(r)


def test_a_server_fault_on_a_review_page_answers_a_page(env, monkeypatch):  # noqa: F811
    job_id = _awaiting_review(env)

    def broken(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(env["app"].state.service, "job", broken)

    async def get() -> httpx.Response:
        # the server re-raises a 500's error after answering (for its log): not in the test
        transport = httpx.ASGITransport(app=env["app"], raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return await c.get(f"/review/{job_id}")

    r = asyncio.run(get())
    assert r.status_code == 500
    _is_page(r)
    assert "server log" in r.text
