"""Review UI finding 4: a stale form or a key that stopped working keeps the reviewer's
note and says what happened; after signing in, the reviewer is back on the page asked for."""

from __future__ import annotations

from urllib.parse import quote

from scoregate.server.auth import new_key
from tests.server_client import AppClient
from tests.unit.test_server import env, escalated, keyed  # noqa: F401  (env is a fixture)


def test_a_stale_form_keeps_the_note_and_links_the_job(env):  # noqa: F811
    job_id = escalated(env)
    r = env["client"].post(
        f"/review/{job_id}", data={"verdict": "reject", "token": "0" * 64, "note": "too vague"}
    )
    assert r.status_code == 400 and "open across a server restart" in r.text
    assert 'readonly rows="3">too vague</textarea>' in r.text
    assert f'href="/review/{job_id}"' in r.text
    assert env["service"].status_of(job_id) == "escalated"  # nothing recorded


def test_sign_in_comes_back_to_the_page_asked_for(env):  # noqa: F811
    job_id = escalated(env)
    key = new_key()
    client = keyed(env, f"alice:review:{key}")
    to_login = client.get(f"/review/{job_id}").headers["location"]
    assert to_login == f"/review/login?next={quote(f'/review/{job_id}', safe='')}"
    form = client.get(to_login).text
    assert f'name="next" value="/review/{job_id}"' in form
    r = client.post("/review/login", data={"key": key, "next": f"/review/{job_id}"})
    assert r.headers["location"] == f"/review/{job_id}"
    # never anywhere but a review page
    for elsewhere in ("https://evil.example/", "//evil.example/review", "/docs", "/review/login"):
        r = client.post("/review/login", data={"key": key, "next": elsewhere})
        assert r.headers["location"] == "/review", elsewhere


def test_a_key_that_stopped_working_is_named_and_a_posted_note_kept(env):  # noqa: F811
    job_id = escalated(env)
    client = keyed(env, f"alice:review:{new_key()}")
    stale = AppClient(client.app, {"Cookie": f"scoregate_key={new_key()}"})
    to_login = stale.get("/review").headers["location"]
    assert "expired=1" in to_login
    assert "no longer configured" in stale.get(to_login).text
    r = stale.post(f"/review/{job_id}", data={"verdict": "approve", "token": "x", "note": "ok!"})
    assert r.status_code == 401 and "no longer configured" in r.text
    assert 'readonly rows="3">ok!</textarea>' in r.text
    assert f'name="next" value="/review/{job_id}"' in r.text
