"""Review UI finding 5: a verdict on a job another reviewer already decided says who decided,
when and with what note, links to the job, and gives the reviewer's own note back."""

from __future__ import annotations

import re

from tests.unit.test_server import env, escalated  # noqa: F401  (env is a fixture)


def test_the_second_reviewer_learns_who_decided_and_keeps_their_note(env):  # noqa: F811
    job_id = escalated(env)
    client = env["client"]
    page = client.get(f"/review/{job_id}").text
    token = re.search(r'name="token" value="([0-9a-f]+)"', page).group(1)
    first = {"verdict": "approve", "token": token, "reviewer": "alice", "note": "alice approves"}
    assert client.post(f"/review/{job_id}", data=first).status_code == 303
    second = {"verdict": "reject", "token": token, "reviewer": "bob", "note": "bob <disagrees>"}
    r = client.post(f"/review/{job_id}", data=second)
    assert r.status_code == 400
    when = r"<time datetime=\"[^\"]+Z\">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC</time>"
    assert re.search(rf"Already approved by <strong>alice</strong> at {when}", r.text)
    assert "alice approves" in r.text
    assert f'href="/review/{job_id}"' in r.text
    box = re.search(r"<textarea[^>]*readonly[^>]*>([^<]*)</textarea>", r.text)
    assert box is not None and box.group(1) == "bob &lt;disagrees&gt;"
    assert env["service"].status_of(job_id) == "accepted"  # still alice's verdict alone
