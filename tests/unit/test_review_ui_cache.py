"""Review UI finding 6: every /review page is answered ``Cache-Control: no-store``, so Back
after a verdict reloads the job's state instead of a cached page with a live form."""

from __future__ import annotations

import re

from tests.unit.test_server import env, escalated, keyed  # noqa: F401  (env is a fixture)


def test_every_review_page_is_not_stored(env):  # noqa: F811
    job_id = escalated(env)
    client = env["client"]
    page = client.get(f"/review/{job_id}")
    token = re.search(r'name="token" value="([0-9a-f]+)"', page.text).group(1)
    answers = [
        client.get("/review"),
        page,
        client.get("/review/nope"),
        client.get("/review/login"),
        client.post(f"/review/{job_id}", data={"verdict": "approve", "token": token}),
        client.post(f"/review/{job_id}", data={"verdict": "approve", "token": token}),
    ]
    assert [r.status_code for r in answers] == [200, 200, 404, 200, 303, 400]
    assert all(r.headers.get("cache-control") == "no-store" for r in answers)


def test_a_signed_out_redirect_and_the_sign_in_answer_are_not_stored(env):  # noqa: F811
    client = keyed(env, "alice:review:sha256:" + "0" * 64)
    assert client.get("/review").headers["cache-control"] == "no-store"
    assert (
        client.post("/review/login", data={"key": "wrong"}).headers["cache-control"] == "no-store"
    )


def test_the_api_keeps_its_own_caching(env):  # noqa: F811
    assert "no-store" not in env["client"].get("/healthz").headers.get("cache-control", "")
