"""Review UI finding 4 (part): a form token survives a server restart, signed with
``SCOREGATE_REVIEW_SECRET`` or, unset, a secret derived from the configured API keys."""

from __future__ import annotations

import re
import secrets

from pydantic import SecretStr

from scoregate.server import create_app, pages
from scoregate.server.auth import new_key, parse_keys
from tests.server_client import AppClient
from tests.unit.test_server import env, escalated  # noqa: F401  (env is a fixture)


def restart(env, entries: str, key: str, monkeypatch) -> AppClient:  # noqa: F811
    monkeypatch.setattr(pages, "_SECRET", secrets.token_bytes(32))  # a new process
    return AppClient(
        create_app(env["service"], parse_keys(entries)), {"Cookie": f"scoregate_key={key}"}
    )


def token_of(client: AppClient, job_id: str) -> str:
    page = client.get(f"/review/{job_id}").text
    return re.search(r'name="token" value="([0-9a-f]+)"', page).group(1)


def test_an_open_form_survives_a_restart_with_the_same_keys(env, monkeypatch):  # noqa: F811
    key = new_key()
    entries = f"alice:review+read:{key}"
    job_id = escalated(env)
    token = token_of(restart(env, entries, key, monkeypatch), job_id)
    after = restart(env, entries, key, monkeypatch)
    r = after.post(f"/review/{job_id}", data={"verdict": "approve", "token": token})
    assert r.status_code == 303, r.text


def test_a_configured_secret_outlives_a_key_change(env, monkeypatch):  # noqa: F811
    key = new_key()
    env["ctx"].settings.review_secret = SecretStr("team secret")
    job_id = escalated(env)
    token = token_of(restart(env, f"alice:review:{key}", key, monkeypatch), job_id)
    after = restart(env, f"alice:review:{key},bob:read:{new_key()}", key, monkeypatch)
    r = after.post(f"/review/{job_id}", data={"verdict": "approve", "token": token})
    assert r.status_code == 303, r.text
