"""Review UI finding 2: the queue shows the real count of waiting jobs, "showing N of M",
and links to the next page when more wait than one page holds."""

from __future__ import annotations

import re

from scoregate.server import pages
from tests.unit.test_server import env, escalated  # noqa: F401  (env is a fixture)


def linked(text: str) -> list[str]:
    return re.findall(r'class="job-link" href="/review/([0-9a-f-]{36})"', text)


def test_the_queue_counts_every_waiting_job_and_pages_through_them(env, monkeypatch):  # noqa: F811
    monkeypatch.setattr(pages, "QUEUE_PAGE", 2)
    ids = [escalated(env) for _ in range(3)]
    first = env["client"].get("/review").text
    assert '<span class="count">3</span>' in first and "Review queue (3)" in first
    assert "Showing 1 to 2 of 3." in first
    assert linked(first) == ids[:2]
    nxt = re.search(r'href="(/review\?start=\d+)" rel="next"', first)
    assert nxt is not None
    second = env["client"].get(nxt.group(1)).text
    assert linked(second) == ids[2:] and "Showing 3 to 3 of 3." in second
    assert 'rel="next"' not in second and 'href="/review?start=0" rel="prev"' in second


def test_a_queue_that_fits_one_page_shows_no_pager(env):  # noqa: F811
    escalated(env)
    page = env["client"].get("/review")
    assert '<span class="count">1</span>' in page.text and "Showing" not in page.text
    assert env["client"].get("/review?start=-1").status_code == 422
