"""The operator's review (twenty-third session): the review pages' errors, times and sign-in,
the audit trail's figures, ``scoregate workers`` and ``submit --json``, in process."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from scoregate.reports import render
from scoregate.scoring.figures import score_text
from scoregate.server import ApiService, create_app, pages
from scoregate.server.auth import new_key
from scoregate.server.diff import word_diff
from tests.fakes import MEH, FakeModels
from tests.server_client import AppClient
from tests.unit.test_review23_api import QUERY, env, submit  # noqa: F401  (env is a fixture)
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


# --- r2 finding 10: a long revised answer's page is quick and never blocks the server -------

DOCS = Path(__file__).parents[2] / "docs"
WORDS = "the pasta boil water salt garlic oil tomato basil serve and with for minutes a of".split()


def _long_answers(lines: int = 700) -> tuple[str, str]:
    """An answer of ~60 KB of few distinct words (the word matcher's worst case), and the
    same with every tenth line rewritten."""
    rng = random.Random(7)

    def line() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(15)) + ".\n"

    first = [line() for _ in range(lines)]
    second = [line() if i % 10 == 3 else text for i, text in enumerate(first)]
    return "".join(first), "".join(second)


def _revised_job(env: dict[str, Any], first: str, second: str) -> str:  # noqa: F811
    loop = {"threshold": 0.8, "max_iterations": 2, "hil": True}
    job_id = submit(env, first, agent="external", loop=loop)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2, "output": second}
    )
    assert r.status_code == 202, r.text
    assert api.get_job(job_id)["status"] == "escalated"
    return job_id


@pytest.mark.parametrize(
    ("before", "after"),
    [
        _long_answers(),
        ("word " * 100_000, "word " * 50_000 + "other " + "word " * 49_999),  # one long line
        ("ok.\n" * 100_000, "ok.\n" * 50_000 + "changed.\n" + "ok.\n" * 49_999),
        (" ".join(WORDS * 1500), " ".join(reversed(WORDS * 1500))),  # one paragraph, unrelated
        ("boil the pasta with nuts", "boil the pasta, no nuts"),
    ],
)
def test_word_diff_is_quick_and_gives_both_answers_back(before, after):
    started = time.perf_counter()
    runs = word_diff(before, after)
    assert time.perf_counter() - started < 3  # was 60 s for the first pair
    assert "".join(text for op, text in runs if op != "del") == after
    assert "".join(text for op, text in runs if op != "add") == before


def test_word_diff_still_marks_words_within_a_changed_line():
    before, after = _long_answers()
    runs = word_diff(before, after)
    changed = [text for op, text in runs if op == "add"]
    assert changed and max(len(text) for text in changed) < 200  # words, not whole blocks
    assert any(op == "same" for op, _ in runs)


def test_a_long_revised_answer_renders_quickly_with_its_diff(env):  # noqa: F811
    job_id = _revised_job(env, *_long_answers())
    started = time.perf_counter()
    page = env["client"].get(f"/review/{job_id}")
    assert time.perf_counter() - started < 10  # was 49 s
    assert page.status_code == 200 and "<ins>" in page.text and "<del>" in page.text


def test_the_review_page_does_not_hold_up_other_requests(env, monkeypatch):  # noqa: F811
    job_id = _revised_job(env, *_long_answers(50))
    slow = pages.iteration_views

    diffing = threading.Event()

    def slowly(job: dict[str, Any]) -> Any:
        diffing.set()
        time.sleep(1.5)  # a diff that takes a while
        return slow(job)

    monkeypatch.setattr(pages, "iteration_views", slowly)
    done: list[str] = []

    async def both() -> None:
        transport = httpx.ASGITransport(app=env["app"])
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:

            async def get(url: str, name: str) -> None:
                r = await c.get(url)
                assert r.status_code == 200, r.text
                done.append(name)

            page = asyncio.create_task(get(f"/review/{job_id}", "page"))
            while not diffing.is_set():  # until the page is in its diff
                await asyncio.sleep(0.01)
            await get("/healthz", "healthz")
            await page

    asyncio.run(both())
    assert done == ["healthz", "page"]


# --- finding 7: the review pages say their times are UTC -------------------------------------

_SHOWN = re.compile(r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">([^<]*)</time>')


def _times(html: str) -> list[tuple[str, str]]:
    return _SHOWN.findall(html)


def test_every_time_on_the_review_pages_is_utc_and_says_so(env):  # noqa: F811
    job_id = _awaiting_review(env)
    queue = env["client"].get("/review").text
    page = env["client"].get(f"/review/{job_id}").text
    for doc in (queue, page):
        assert _times(doc), doc
        for stamp, shown in _times(doc):
            assert shown == stamp.replace("T", " ").replace("Z", " UTC")
        # no bare time left: each date on the page is inside one <time datetime=...Z>
        assert len(re.findall(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d", doc)) == 2 * len(_times(doc))
    waiting = api.get_job(job_id)["escalations"][0]["created_at"]
    assert f"{waiting[:19]}Z" in queue and "Waiting since <time" in page
    form = {"verdict": "approve", "token": _token(env, job_id)}
    done = env["client"].post(f"/review/{job_id}", data=form, follow_redirects=True).text
    assert re.search(r"Recorded: approve by \S+ at <time datetime=\S+Z\">[^<]+ UTC</time>", done)
    again = env["client"].post(f"/review/{job_id}", data=form).text  # already decided
    assert re.search(r"Already approved by <strong>\S+</strong> at <time [^>]+>[^<]+ UTC<", again)


def test_a_time_with_another_offset_is_shown_in_utc():
    assert str(pages.utc_time("2026-12-01T23:11:59.600000+01:00")) == (
        '<time datetime="2026-12-01T22:11:59Z">2026-12-01 22:11:59 UTC</time>'
    )


def test_the_cli_tables_label_their_times_utc(env, monkeypatch):  # noqa: F811
    monkeypatch.setenv("COLUMNS", "300")
    job_id = _awaiting_review(env)
    shown = CliRunner().invoke(cli, ["jobs", "show", job_id])
    assert shown.exit_code == 0, shown.output
    assert "time (UTC)" in shown.output
    listed = CliRunner().invoke(cli, ["jobs", "list"])
    assert listed.exit_code == 0, listed.output
    assert "created (UTC)" in listed.output
    created = api.get_job(job_id)["created_at"][:19].replace("T", " ")
    assert created in listed.output


# --- finding 8: a refused sign-in says whether the key is unknown or lacks the review scope ---


@pytest.fixture
def keys(env: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    made = {"alice": new_key(), "ci": new_key()}
    entries = f"alice:review:{made['alice']},ci:read+submit:{made['ci']}"
    client = keyed(env | {"service": env["app"].state.service}, entries)
    return {"client": client, **made}


def _says_lacks_scope(page: str) -> None:
    text = html.unescape(page)
    assert "'ci'" in text and "read+submit" in text and "lacks the review scope" in text, text
    assert "scoregate api-key NAME --scope review" in text
    assert "not configured" not in text


def test_sign_in_with_a_key_lacking_the_review_scope_says_so(keys):
    r = keys["client"].post("/review/login", data={"key": keys["ci"], "next": "/review"})
    assert r.status_code == 401
    _says_lacks_scope(r.text)


def test_sign_in_with_an_unknown_key_says_it_is_not_configured(keys):
    r = keys["client"].post("/review/login", data={"key": new_key(), "next": "/review"})
    assert r.status_code == 401 and "not configured" in r.text
    assert "lacks the review scope" not in r.text


def test_a_browser_signed_in_with_a_key_lacking_review_is_told_which(env, keys):  # noqa: F811
    job_id = _awaiting_review(env)
    browser = AppClient(keys["client"].app, {"Cookie": f"scoregate_key={keys['ci']}"})
    to_login = browser.get("/review").headers["location"]
    _says_lacks_scope(browser.get(to_login).text)
    r = browser.post(f"/review/{job_id}", data={"verdict": "approve", "token": "x", "note": "ok"})
    assert r.status_code == 401
    _says_lacks_scope(r.text)
    unknown = AppClient(keys["client"].app, {"Cookie": f"scoregate_key={new_key()}"})
    page = unknown.get(unknown.get("/review").headers["location"]).text
    assert "no longer configured" in page and "lacks the review scope" not in page


# --- r1 finding 4: one score reads as one figure wherever it is printed -----------------------


@pytest.fixture
def odd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A job whose score reads one cent higher rounded than cut (the models' 0.2986 fuses
    to 0.1479: 0.15 rounded, 0.14 cut)."""
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'odd.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(default=0.2986), local_tasks={})
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    app = create_app(ApiService(ctx, inline))
    client = AppClient(app)
    body = {
        "request": {"query": "Write a helpful answer.", "content": "an answer"},
        "agent": "external",
        "loop": {"threshold": 0.8, "max_iterations": 1, "hil": True},
    }
    r = client.post("/v1/jobs", json=body)
    assert r.status_code == 202, r.text
    job = api.get_job(r.json()["id"])
    score = job["iterations"][0]["score"]
    cut, rounded = score_text(score), f"{score:.2f}"
    assert cut != rounded, score  # the case: rounding would read one cent higher
    assert any(f"score {cut} <" in d["rationale"] for d in job["decisions"])
    return {"client": client, "job_id": job["id"], "cut": cut, "rounded": rounded}


def test_the_cli_prints_a_score_as_its_rationale_does(odd, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    for argv in (["jobs", "show", odd["job_id"]], ["jobs", "list"]):
        out = CliRunner().invoke(cli, argv)
        assert out.exit_code == 0, out.output
        assert odd["cut"] in out.output and odd["rounded"] not in out.output, out.output


def test_the_review_page_prints_a_score_as_its_rationale_does(odd):
    page = odd["client"].get(f"/review/{odd['job_id']}").text
    assert f"score {odd['cut']} &lt;" in page and f">{odd['cut']} " in page
    assert odd["rounded"] not in page


def test_the_reports_print_a_score_as_its_rationale_does():
    job = {
        "id": "j",
        "status": "escalated",
        "iterations": [{"n": 1, "score": 0.2986, "band": "RED", "action": "iterate"}],
    }
    table = render.series_markdown(job, [render.iteration_summary(job["iterations"][0])])
    assert "| 0.29 |" in table and "0.30" not in table


# --- r1 finding 10: `scoregate workers` does not take a user's own worker for an old scoregate --


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Any:
    from scoregate.cli import workers as cli_workers
    from scoregate.config.settings import get_settings

    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6379/15")
    monkeypatch.setenv("COLUMNS", "300")
    get_settings.cache_clear()
    config = {"path": "(packaged default)", "digest": "bcb9b3ac2f59", "version": "0.2.2"}
    answers = {
        "agent@vm": ["r1agents", "r1hooks"],
        "all@vm": ["control", "fusion", "precision", "reward", "semantic"],
    }
    monkeypatch.setattr(cli_workers, "live_workers", lambda timeout: dict(answers))
    monkeypatch.setattr(cli_workers, "worker_configs", lambda timeout: {"all@vm": config})
    yield answers
    get_settings.cache_clear()


def test_a_worker_on_no_pool_queue_is_listed_as_not_scoregate_without_a_warning(broker):
    out = CliRunner().invoke(cli, ["workers"])
    assert out.exit_code == 0, out.output
    assert "agent@vm\tr1agents,r1hooks\t(not a scoregate worker)" in out.stdout
    assert "warning" not in out.output and "older than this check" not in out.output


def test_an_old_scoregate_worker_is_still_warned_of(broker):
    broker["old@vm"] = ["semantic"]
    out = CliRunner().invoke(cli, ["workers"])
    assert "old@vm did not say which scoring config" in " ".join(out.output.split())
    assert "agent@vm" not in out.stderr


def test_only_non_scoregate_workers_answering_is_no_worker(broker):
    del broker["all@vm"]
    out = CliRunner().invoke(cli, ["workers"])
    assert out.exit_code == 1, out.output
    assert "no scoregate worker answered" in " ".join(out.output.split())


# --- r1 finding 15: `submit --json` without --wait says nothing of pending jobs --------------


def test_submit_json_without_wait_has_null_jobs_and_pending(env):  # noqa: F811
    out = CliRunner().invoke(cli, ["submit", "-q", "Name a colour.", "-c", "Blue.", "--json"])
    assert out.exit_code == 0, out.output
    document = json.loads(out.stdout)
    assert document["jobs"] is None and document["pending"] is None, document
    jsonschema.validate(document, json.loads((DOCS / "json/submit.schema.json").read_text()))
    waited = ["submit", "-q", "Name a colour.", "-c", "Blue.", "--json", "--wait"]
    document = json.loads(CliRunner().invoke(cli, waited).stdout)
    assert document["pending"] == [] and len(document["jobs"]) == 1
    jsonschema.validate(document, json.loads((DOCS / "json/submit.schema.json").read_text()))


# --- r2 finding 11: `n` over HTTP is refused saying that it is named `iteration` there ---------


@pytest.mark.parametrize("body", [{"n": 2, "output": "x"}, {"n": 2, "iteration": 2, "output": "x"}])
def test_agent_result_with_n_says_it_is_iteration_over_http(env, body):  # noqa: F811
    loop = {"threshold": 0.8, "max_iterations": 3}
    job_id = submit(env, "a first answer", agent="external", loop=loop)
    before = api.get_job(job_id)
    r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert "`n`" in detail and '"iteration": 2' in detail and "Extra inputs" not in detail
    assert "body.n" in [e["loc"] for e in r.json()["errors"]]
    after = api.get_job(job_id)
    assert after["status"] == "awaiting_agent" and after["decisions"] == before["decisions"]


# --- r2 finding 12: a name in the audit trail is one line of printable text ------------------

BAD_NAMES = [
    "eve\nadmin:approve",
    "eve\radmin",
    "tab\tbed",
    "bell\x07",
    "eve\u2028admin",
    "\u202eevil",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_reviewer_name_with_a_control_character_is_refused_everywhere(env, name):  # noqa: F811
    job_id = _awaiting_review(env)
    r = env["client"].post(
        f"/v1/jobs/{job_id}/review", json={"verdict": "approve", "reviewer": name}
    )
    assert r.status_code == 422, r.text
    assert [e["loc"] for e in r.json()["errors"]] == ["body.reviewer"]
    assert "one line of printable text" in r.json()["detail"]
    form = {"verdict": "approve", "token": _token(env, job_id), "reviewer": name, "note": "n1"}
    page = env["client"].post(f"/review/{job_id}", data=form)
    assert page.status_code == 400 and "printable" in page.text and "n1" in page.text
    with pytest.raises(ValueError, match="printable"):
        api.review(job_id, "approve", name)
    out = CliRunner().invoke(cli, ["review", job_id, "--approve", "--actor", name])
    assert out.exit_code == 2 and "printable" in out.output, out.output
    r = env["client"].post(f"/v1/jobs/{job_id}/cancel", json={"actor": name})
    assert r.status_code == 422 and "printable" in r.json()["detail"], r.text
    assert api.get_job(job_id)["status"] == "awaiting_review"
    body = {"request": {"query": QUERY, "content": MEH}, "submitted_by": name}
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 422 and "printable" in r.json()["detail"], r.text


def test_a_blank_note_is_no_note(env):  # noqa: F811
    job_id = _awaiting_review(env)
    r = env["client"].post(f"/v1/jobs/{job_id}/review", json={"verdict": "approve", "note": "  "})
    assert r.status_code == 200, r.text
    (verdict,) = [d for d in api.get_job(job_id)["decisions"] if d["action"] == "approve"]
    assert verdict["rationale"].strip(), verdict  # the default 'approve by ...', not blank


# --- r2 finding 13: a recorded agent failure moves the job's updated_at ----------------------


@pytest.mark.parametrize("how", ["agent-result without output", "agent-error"])
def test_a_recorded_agent_failure_moves_updated_at(env, how):  # noqa: F811
    loop = {"threshold": 0.8, "max_iterations": 3}
    job_id = submit(env, "a first answer", agent="external", loop=loop)
    status = f"/v1/jobs/{job_id}/status"
    before = env["client"].get(status).json()
    assert before["status"] == "awaiting_agent"
    time.sleep(0.01)
    if how == "agent-error":
        r = env["client"].post(f"/v1/jobs/{job_id}/agent-error", json={"iteration": 2})
        assert r.status_code == 202 and r.json()["outcome"] == "retried", r.text
    else:
        r = env["client"].post(f"/v1/jobs/{job_id}/agent-result", json={"iteration": 2})
        assert r.status_code == 422 and r.json()["agent_failure_recorded"] is True, r.text
    after = env["client"].get(status).json()
    assert after["status"] == "awaiting_agent"
    assert after["updated_at"] > before["updated_at"], (before, after)
    (failure,) = [d for d in api.get_job(job_id)["decisions"] if d["action"] == "agent_error"]
    moved = datetime.fromisoformat(after["updated_at"].replace("Z", "+00:00"))
    assert moved >= datetime.fromisoformat(failure["created_at"])
