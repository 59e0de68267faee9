"""Review UI finding 3: each queue row shows the start of its request, and the queue can
be narrowed to gate reviews or to escalations (the pages keep the filter)."""

from __future__ import annotations

from tests.unit.test_server import GOOD, LOOP, env, escalated  # noqa: F401  (env is a fixture)


def _gated(env, query: str) -> str:  # noqa: F811
    body = {"request": {"query": query, "content": GOOD, "self_reported_confidence": "medium"}}
    r = env["client"].post("/v1/jobs", json={**body, "loop": {"gating": True}})
    assert r.status_code == 202 and r.json()["status"] == "awaiting_review", r.text
    return str(r.json()["id"])


def test_rows_show_the_request_and_the_queue_filters_by_kind(env):  # noqa: F811
    long_query = "Refund for order 1016 <b>please</b> " + "with details " * 20
    review_id = _gated(env, long_query)
    escalated_id = escalated(env)
    client = env["client"]
    page = client.get("/review").text
    assert "Refund for order 1016 &lt;b&gt;please&lt;/b&gt;" in page
    assert "with details " * 20 not in page  # the start only
    reviews = client.get("/review?kind=review").text
    assert review_id[:8] in reviews and escalated_id[:8] not in reviews
    assert "<strong>gate reviews</strong>" in reviews
    escalations = client.get("/review?kind=escalation").text
    assert escalated_id[:8] in escalations and review_id[:8] not in escalations
    assert client.get("/review?kind=nonsense").status_code == 422
