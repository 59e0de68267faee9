"""Bad input at every boundary: a clear error saying what is wrong, and nothing else lost.

Boundaries: the Python API, the CLI and its JSONL files, a raw Celery message to
``scoregate.control.submit``, an agent's output, and the YAML configuration files.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr, ValidationError
from typer.testing import CliRunner

import scoregate
from scoregate.cli import app as cli
from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from scoregate.pipelines.workflow import load_workflow
from scoregate.schemas.request import Evidence, ScoreRequest, ScoringMetadata
from scoregate.storage.tables import Job
from scoregate.workers import control as control_tasks
from tests.fakes import FakeModels, Recorder

GOOD = "a faithful answer"
OK = {"query": "Write a helpful answer.", "content": GOOD}
runner = CliRunner()


def req(**kw) -> ScoreRequest:
    return ScoreRequest.model_validate({"query": "q", "content": "an answer", **kw})


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(
        database_url=SecretStr(f"sqlite:///{tmp_path / 'bad.db'}"), allowed_tasks=["ok.agent"]
    )
    agent = Recorder()
    ctx, inline = embedded_context(
        settings, models=FakeModels({GOOD: 0.97}), local_tasks={"agent": agent}
    )
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setattr(control_tasks, "get_context", lambda: ctx)
    return {"ctx": ctx, "inline": inline, "agent": agent, "tmp": tmp_path}


def _jobs(env: dict[str, Any]) -> int:
    with env["ctx"].session() as s:
        return int(s.query(Job).count())


def _flat(text: str) -> str:
    return " ".join(text.split())


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"x": value}
    return value


BAD_REQUESTS = [
    (42, "a score request must be a mapping, got int"),
    ({"query": "q"}, "content: Field required"),
    ({"query": "   ", "content": "x"}, "query is blank"),
    ({"query": "q", "content": 7}, "content: Input should be a valid string"),
    ({"query": "q", "content": "x" * 10_000_000}, "at most 2000000 characters"),
    ({"query": "q", "content": "a\x00b"}, "NUL character (\\x00) at position 1"),
    ({"query": "q", "content": "caf\udce9"}, "not valid UTF-8 (lone surrogate '\\udce9'"),
    ({**OK, "constraints": [{"kind": "max_linez", "value": 3}]}, "'max_linez' found using"),
    ({**OK, "constraints": [{"kind": "max_lines", "value": "ten"}]}, "valid integer"),
    ({**OK, "constraints": [{"kind": "max_lines", "value": -1}]}, "greater than or equal to 0"),
    ({**OK, "constraints": [{"kind": "regex", "value": "x", "flags": "e"}]}, "flags"),
    (
        {**OK, "eval_metrics": [{"name": "m", "value": 0.5, "weight": float("nan")}]},
        "metric weight must be a finite number >= 0, got nan",
    ),
    (
        {**OK, "eval_metrics": [{"name": "m", "value": 0.5, "weight": -2}]},
        "metric weight must be >= 0, got -2",
    ),
    ({**OK, "metadata": {"deep": _nested(100)}}, "nested more than 64 levels deep"),
]


@pytest.mark.parametrize(("request_", "message"), BAD_REQUESTS)
def test_the_python_api_refuses_a_bad_request_and_records_nothing(env, request_, message):
    with pytest.raises(ValueError) as exc:
        scoregate.submit(request_)
    assert message in str(exc.value)
    assert _jobs(env) == 0


BAD_OPTIONS = [
    ({"loop": {"threshold": float("nan")}}, "threshold"),
    ({"loop": {"max_iterations": 0}}, "max_iterations"),
    ({"loop": "yes"}, "loop must be an object"),
    ({"agent": "evil.task"}, "agent task 'evil.task' is not allowed"),
    ({"on_pass": "os.system; rm -rf /"}, "task: String should match pattern"),
    ({"idempotency_key": 123}, "idempotency_key must be a non-empty string, got int"),
    ({"idempotency_key": "k" * 300}, "idempotency_key is 300 characters long; at most 255"),
    ({"colour": "red"}, "unknown job field(s): colour"),
]


@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS)
def test_the_python_api_refuses_bad_options(env, options, message):
    with pytest.raises(ValueError) as exc:
        scoregate.submit(OK, **options)
    assert message in str(exc.value)
    assert _jobs(env) == 0


def test_one_bad_request_in_a_batch_records_none_of_it(env):
    with pytest.raises(ValueError, match="content"):
        scoregate.submit_many([OK, {"query": "q"}, OK])
    assert _jobs(env) == 0


def test_a_catastrophic_regex_is_stopped_and_the_job_still_finishes(env):
    evil = [{"kind": "regex", "value": "(a+)+$"}, {"kind": "not_regex", "value": "^(a|a)*$"}]
    started = time.monotonic()
    job_id = scoregate.submit({"query": "q", "content": "a" * 5000 + "!", "constraints": evil})
    assert time.monotonic() - started < 20
    job = scoregate.get_job(job_id)
    assert job["status"] == "completed"
    results = job["iterations"][0]["result"]["tracks"]["reward"]["details"]["results"]
    assert all("timed out after 0.2s" in r["reason"] for r in results), results


# --- the CLI and its JSONL files ----------------------------------------------------------------


def _submit_file(env: dict[str, Any], content: bytes) -> Any:
    path = env["tmp"] / "jobs.jsonl"
    path.write_bytes(content)
    return runner.invoke(cli, ["submit", "--file", str(path)])


GOOD_LINE = b'{"query": "q", "content": "ok"}\n'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"query": "q", "content": "caf\xe9"}', "jobs.jsonl:2: not valid UTF-8 (byte 0xe9"),
        (b"[1, 2]", "jobs.jsonl:2: a job must be a JSON object, got list"),
        (b'{"query": "q",', "jobs.jsonl:2: not valid JSON"),
        (b"[" * 100_000, "jobs.jsonl:2: JSON nested too deeply"),
        (
            b'{"query": "q", "content": "c", "eval_metrics": [{"name": "m", "weight": NaN}]}',
            "jobs.jsonl:2: invalid request: eval_metrics.0.weight",
        ),
        (b'{"query": "q", "content": "a\\u0000"}', "jobs.jsonl:2: job.request.content: contains"),
        (b'{"request": {"query": "q", "content": "c"}, "agent": "x.y"}', "jobs.jsonl:2: agent"),
    ],
)
def test_a_bad_jsonl_line_is_named_and_nothing_is_submitted(env, line, message):
    out = _submit_file(env, GOOD_LINE + line + b"\n" + GOOD_LINE)
    assert out.exit_code == 2, out.output
    assert message in _flat(out.output)
    assert "nothing was submitted" in _flat(out.output)
    assert _jobs(env) == 0


def test_a_good_jsonl_file_is_submitted(env):
    out = _submit_file(env, GOOD_LINE + b"\n" + GOOD_LINE)
    assert out.exit_code == 0, out.output
    assert _jobs(env) == 2


def test_the_cli_refuses_content_that_is_not_utf8(env):
    path = env["tmp"] / "out.txt"
    path.write_bytes(b"ok \xff\xfe")
    out = runner.invoke(cli, ["submit", "-q", "q", "-f", str(path)])
    assert out.exit_code == 2 and "is not UTF-8 text (byte 3)" in _flat(out.output)


def test_the_cli_refuses_a_malformed_scoring_config(env):
    bad = env["tmp"] / "scoring.yaml"
    bad.write_text("fusion:\n  profiles: {default: {semantic: .nan}}\n")
    out = runner.invoke(cli, ["score", "-q", "q", "-c", "x", "--config", str(bad)])
    assert out.exit_code == 2
    assert "weight fusion.profiles.default.semantic must be a finite number" in _flat(out.output)


# --- a raw Celery message -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not a job", "a job must be a JSON object, got str"),
        ([OK], "a job must be a JSON object, got list"),
        ({"request": 5}, "a score request must be a mapping, got int"),
        ({"request": OK, "agent": "evil.task"}, "agent task 'evil.task' is not allowed"),
        ({"request": {**OK, "content": "x\x00"}}, "NUL character"),
        # a field name no database can store, quoted in the reason with its escape
        ({"request": OK, "pr\ud800ority": 1}, "unknown job field(s): pr\\ud800ority"),
    ],
)
def test_a_bad_submit_message_is_logged_and_the_worker_keeps_serving(env, caplog, body, message):
    result = control_tasks.submit.apply(kwargs={"body": body}, task_id="m-1")
    assert result.successful()
    # Recorded under the message id, so the client can look the reason up.
    refused = scoregate.get_job(result.get())
    assert refused["status"] == "failed" and refused["idempotency_key"] == "celery:m-1"
    assert message in refused["failure_reason"]
    assert "scoregate.control.submit[m-1]: refused: invalid job:" in caplog.text
    assert message in caplog.text
    good = control_tasks.submit.apply(kwargs={"body": {"request": OK}}, task_id="m-2").get()
    env["inline"].drain()
    assert scoregate.get_job(good)["status"] == "completed"


def test_a_bad_submit_message_with_a_key_leaves_a_failed_job_saying_why(env):
    body = {"request": {"query": "q"}, "idempotency_key": "order-9"}
    job_id = control_tasks.submit.apply(kwargs={"body": body}).get()
    job = scoregate.get_job(job_id)
    assert job["status"] == "failed" and job["idempotency_key"] == "order-9"
    assert job["failure_reason"] == "invalid job: invalid request: content: Field required"
    body = {"request": OK, "idempotency_key": "order-9"}
    again = control_tasks.submit.apply(kwargs={"body": body})
    assert again.get() is None  # the key is taken by another body: refused, and noted
    job = scoregate.get_job(job_id)
    assert job["status"] == "failed"  # the failure stands, nothing runs twice
    assert [d["action"] for d in job["decisions"]] == ["fail", "submit_refused"]


def test_a_submit_message_with_the_wrong_arguments_is_refused(env, caplog):
    result = control_tasks.submit.apply(kwargs={"request": OK}, task_id="m-3")
    assert result.successful()
    assert "refused message: arguments do not match the task" in caplog.text
    assert _jobs(env) == 0


# --- malformed agent output ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (42, "must be a string or an object, got int"),
        (["draft"], "must be a string or an object, got list"),
        ({"content": 42}, "agent output is invalid"),
        ({"text": "draft"}, "agent output is invalid"),
        ({"content": "a\x00b"}, "agent output.content: contains a NUL character"),
        ("x" * 3_000_000, "at most 2000000 characters"),
        ({"content": "ok", "eval_metrics": [{"name": "m", "value": 2}]}, "in [0, 1]"),
    ],
)
def test_a_malformed_agent_output_fails_the_job_with_the_reason(env, output, message):
    env["agent"].returns = output
    loop = {"enabled": True, "threshold": 0.99, "max_iterations": 3, "hil": False}
    job = scoregate.get_job(scoregate.submit(OK, loop=loop, agent="agent"))
    assert job["status"] == "failed"  # an agent failure: retried, then (no hil) failed
    assert job["failure_reason"].startswith("agent output for iteration 2 rejected:")
    assert message in job["failure_reason"]
    assert [it["n"] for it in job["iterations"]] == [1]


# --- configuration files ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fusion: [1, 2\n", "is not valid YAML"),
        ("- a list\n", "must hold a mapping at the top level, got list"),
        ("fusion:\n  profiles: {default: {semantic: -0.5, reward: 1.5}}\n", "must be a finite"),
        ("fusion:\n  profiles: {default: {semantic: 0.5, reward: 0.4}}\n", "must sum to 1.0"),
        ("fusion:\n  profiles: {default: {colour: 1.0}}\n", "unknown track(s) ['colour']"),
        ("reward: {regex_timeout_s: .inf}\n", "regex_timeout_s"),
        ("bands: {GREEN: high}\n", "bands.GREEN"),
    ],
)
def test_a_malformed_scoring_config_says_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "scoring.yaml"
    path.write_text(text)
    with pytest.raises(ValueError) as exc:
        load_scoring_config(path)
    assert message in str(exc.value)


def test_a_malformed_workflow_file_says_which_file_and_what(tmp_path):
    path = tmp_path / "workflow.yaml"
    path.write_text("tasks:\n  design:\n    overlays:\n      confidence_loop: {threshold: 2}\n")
    with pytest.raises(ValueError, match=r"workflow.yaml: invalid workflow: (.|\n)*threshold"):
        load_workflow(path)


def test_review_refuses_text_postgres_cannot_store(env):
    with pytest.raises(ValueError, match="note: contains a NUL character"):
        api.review("any-job", "approve", "alice", "ok\x00")


# --- 8. the request boundary refuses what would fail later --------------------------------------


def test_duplicate_metric_names_are_refused_at_the_boundary():
    metrics = [{"name": "clarity", "value": 0.5}, {"name": "clarity", "value": 0.9}]
    with pytest.raises(ValidationError, match="duplicate metric name.*clarity"):
        req(eval_metrics=metrics)


@pytest.mark.parametrize(
    ("evidence", "message"),
    [
        (
            {"total_numbers": 2, "cited_numbers": 3},
            "cited_numbers .3. cannot exceed total_numbers .2.",
        ),
        (
            {"claims_total": 1, "claims_matched": 4},
            "claims_matched .4. cannot exceed claims_total .1.",
        ),
    ],
)
def test_evidence_counts_that_cannot_be_are_refused(evidence, message):
    with pytest.raises(ValidationError, match=message):
        Evidence.model_validate(evidence)


@pytest.mark.parametrize("field", ["required_topics", "provided_sources"])
def test_blank_topics_and_sources_are_refused(field):
    with pytest.raises(ValidationError, match=rf"{field}\[1\] is blank"):
        ScoringMetadata.model_validate({field: ["security", "  "]})


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"previous_score": False}, "previous_score"),
        ({"previous_score": "0.5"}, "previous_score"),
        ({"metadata": {"task_difficulty": True}}, "metadata.task_difficulty"),
        ({"metadata": {"expected_word_count": "200"}}, "metadata.expected_word_count"),
        ({"evidence": {"total_numbers": True}}, "evidence.total_numbers"),
        ({"evidence": {"max_age_hours": "2"}}, "evidence.max_age_hours"),
    ],
)
def test_a_boolean_or_a_string_where_a_number_belongs_is_refused(body, where):
    with pytest.raises(ValidationError) as caught:
        ScoreRequest.model_validate_json(_json(body))
    assert [".".join(map(str, e["loc"])) for e in caught.value.errors()] == [where]


def test_an_integer_is_still_a_number():
    r = ScoreRequest.model_validate_json(
        _json({"previous_score": 1, "evidence": {"max_age_hours": 2}})
    )
    assert r.previous_score == 1.0 and r.evidence is not None and r.evidence.max_age_hours == 2.0


def _json(extra: dict[str, Any]) -> str:
    return json.dumps({**OK, **extra})
