"""Review UI finding 9: the "Recorded" banner shows only a verdict word that is the job's
latest verdict in the audit trail; any other ``?done=`` is ignored."""

from __future__ import annotations

import re

from tests.unit.test_server import env, escalated  # noqa: F401  (env is a fixture)


def submit(env, job_id: str, verdict: str) -> None:  # noqa: F811
    page = env["client"].get(f"/review/{job_id}").text
    token = re.search(r'name="token" value="([0-9a-f]+)"', page).group(1)
    form = {"verdict": verdict, "token": token, "reviewer": "bob"}
    assert env["client"].post(f"/review/{job_id}", data=form).status_code == 303


def test_a_done_link_on_a_job_nobody_decided_shows_no_banner(env):  # noqa: F811
    job_id = escalated(env)
    for done in ("approve", "reject", "approve (by your lead)<b>x</b>", "maybe"):
        page = env["client"].get(f"/review/{job_id}", params={"done": done}).text
        assert 'id="done"' not in page and "Recorded" not in page


def test_the_banner_shows_the_recorded_verdict_and_who_made_it(env):  # noqa: F811
    job_id = escalated(env)
    submit(env, job_id, "approve")
    page = env["client"].get(f"/review/{job_id}", params={"done": "approve"}).text
    assert 'id="done"' in page and "Recorded: approve by bob" in page
    assert "accepted" in page
    other = env["client"].get(f"/review/{job_id}", params={"done": "reject"}).text
    assert 'id="done"' not in other  # the link names a verdict the job did not get
    crafted = env["client"].get(f"/review/{job_id}", params={"done": "approve<b>x</b>"}).text
    assert 'id="done"' not in crafted and "&lt;b&gt;" not in crafted
