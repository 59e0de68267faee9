"""Property-based fuzzing of requests, constraints, messages and configuration.

Whatever arrives, the only way out is a ``ValueError`` that says what is wrong (or a
result); never another exception, never a hang (every example has a deadline).
"""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from scoregate.cli.args import parse_constraint
from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.settings import Settings, get_scoring_config
from scoregate.pipelines import steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.constraints import CONSTRAINT_KINDS
from scoregate.schemas.result import TrackScore
from scoregate.scoring.engine import parse_request, pure_tracks
from scoregate.scoring.fusion import fuse
from scoregate.storage import repository as repo
from scoregate.workers import control as control_tasks
from tests.fakes import FakeModels, Recorder

FUZZ = settings(
    deadline=timedelta(seconds=5),
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FINAL = {"completed", "accepted", "rejected", "escalated", "failed", "awaiting_review"}

# Text with what breaks naive code: NUL, lone surrogates, control and wide characters.
text = st.text(st.characters(exclude_categories=()), max_size=60)
numbers = st.one_of(st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True))
scalars = st.one_of(st.none(), st.booleans(), numbers, text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=12,
)
REGEXES = ["(a+)+$", "^(a|a)*$", "(x+x+)+y", "[", "(?P<n>a)(?P=n)", "a{1,99999}", "\\", ".*"]


INT_KINDS = ["max_lines", "min_lines", "max_chars", "min_words", "max_words"]
TEXT_KINDS = ["starts_with", "ends_with", "contains", "not_contains"]
plain = st.text(max_size=40)
words = st.text("abc xyz,.!?", min_size=1, max_size=40).filter(str.strip)


@st.composite
def valid_constraints(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(CONSTRAINT_KINDS))
    out: dict[str, Any] = {"kind": kind, "hard": draw(st.booleans())}
    if kind in INT_KINDS:
        out["value"] = draw(st.integers(0, 500))
    elif kind in TEXT_KINDS:
        out["value"] = draw(st.text(min_size=1, max_size=20))
    elif kind in ("regex", "not_regex"):
        out["value"] = draw(st.one_of(st.sampled_from(REGEXES), st.text(min_size=1, max_size=20)))
        out["flags"] = draw(st.sampled_from(["", "i", "ms", "x"]))
    elif kind == "file_extension":
        out["value"] = draw(st.sampled_from([".py", "md", "tar.gz", "txt"]))
    elif kind == "contains_function":
        out["value"] = draw(st.sampled_from(["f", "main", "fizzbuzz"]))
        out["language"] = draw(st.sampled_from(["python", "go", "any", "rust"]))
    elif kind == "json_schema":
        out["value"] = draw(
            st.fixed_dictionaries(
                {"type": st.sampled_from(["object", "string", "array", "nonsense"])},
                optional={"pattern": st.sampled_from(REGEXES), "items": json_values},
            )
        )
    return out


@st.composite
def garbage_constraints(draw: st.DrawFn) -> Any:
    kind = draw(st.one_of(st.sampled_from(CONSTRAINT_KINDS), text))
    value = draw(st.one_of(st.integers(-5, 10_000), text, json_values))
    out = {"kind": kind, "value": value, "hard": draw(json_values)}
    return draw(st.one_of(st.just(out), json_values))


@st.composite
def constraint_lists(draw: st.DrawFn) -> list[Any]:
    """Mostly well-formed constraints; one in four lists carries a malformed one."""
    out: list[Any] = draw(st.lists(valid_constraints(), max_size=4))
    if draw(st.booleans()) and draw(st.booleans()):
        out.insert(draw(st.integers(0, len(out))), draw(garbage_constraints()))
    return out


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    content = draw(
        st.one_of(
            plain, text, st.sampled_from(["a" * 3000 + "!", "def f():\n  return 1\n", '"aaa!"'])
        )
    )
    request: dict[str, Any] = {
        "query": draw(st.one_of(words, text, st.just("Write a helpful answer."))),
        "content": content,
        "constraints": draw(constraint_lists()),
    }
    if draw(st.booleans()):
        topics = st.one_of(st.lists(plain, max_size=3), json_values)
        request["metadata"] = draw(
            st.fixed_dictionaries(
                {}, optional={"role": plain, "task_type": plain, "required_topics": topics}
            )
        )
    if draw(st.booleans()):
        value = st.one_of(st.floats(0, 1), st.floats(0, 1), numbers, st.none())
        request["eval_metrics"] = draw(
            st.lists(
                st.fixed_dictionaries(
                    {"name": plain},
                    optional={"value": value, "weight": st.one_of(st.floats(0, 10), numbers)},
                ),
                max_size=3,
            )
        )
    if all(draw(st.booleans()) for _ in range(3)):
        request["unexpected"] = draw(json_values)
    return request


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    agent = Recorder()
    ctx, inline = embedded_context(
        Settings(database_url=SecretStr(f"sqlite:///{path}")),
        models=FakeModels(default=0.6),
        local_tasks={"agent": agent},
    )
    return {"ctx": ctx, "inline": inline, "agent": agent}


@FUZZ
@given(request=requests())
def test_any_request_is_scored_or_refused_with_a_value_error(request):
    try:
        req = parse_request(request)
    except ValueError:
        event("refused")
        return
    event("scored")
    cfg = get_scoring_config()
    tracks = pure_tracks(req, cfg)
    tracks |= {t: TrackScore(name=t, score=0.5) for t in ("semantic", "precision")}
    result = fuse(req, tracks, cfg)
    assert 0.0 <= result.score <= 1.0 and result.band in ("GREEN", "AMBER", "RED")


bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"request": requests()},
        optional={
            "loop": st.one_of(
                json_values,
                st.fixed_dictionaries(
                    {},
                    optional={
                        "enabled": json_values,
                        "threshold": numbers,
                        "max_iterations": numbers,
                    },
                ),
            ),
            "agent": st.one_of(json_values, st.just("agent")),
            "on_pass": json_values,
            "idempotency_key": json_values,
            "task_name": json_values,
        },
    ),
)
agent_outputs = st.one_of(
    json_values,
    text,
    st.fixed_dictionaries(
        {"content": st.one_of(plain, json_values)},
        optional={"eval_metrics": json_values, "self_reported_confidence": json_values},
    ),
)


@FUZZ
@given(body=bodies)
def test_any_submission_body_is_refused_with_a_value_error_or_accepted(pipeline, body):
    try:
        steps.build_spec(pipeline["ctx"], body)
    except ValueError:
        pass


@settings(FUZZ, max_examples=40)
@given(request=requests(), loop=st.booleans())
def test_any_accepted_request_runs_to_a_final_state(pipeline, request, loop):
    body = {"request": request, "agent": "agent", "loop": {"enabled": loop}}
    try:
        spec = steps.build_spec(pipeline["ctx"], body)
    except ValueError:
        event("refused")
        return
    event("ran")
    pipeline["agent"].returns = request.get("content")
    job_id = steps.submit_jobs(pipeline["ctx"], [spec])[0]
    pipeline["inline"].drain()
    with pipeline["ctx"].session() as s:
        job = repo.get_job(s, job_id=job_id)
        assert job is not None and job.status in FINAL


@settings(FUZZ, max_examples=60)
@given(body=bodies, task_id=st.uuids())
def test_any_raw_submit_message_leaves_the_worker_serving(pipeline, monkeypatch, body, task_id):
    monkeypatch.setattr(control_tasks, "get_context", lambda: pipeline["ctx"])
    result = control_tasks.submit.apply(kwargs={"body": body}, task_id=str(task_id))
    assert result.successful()


@settings(FUZZ, max_examples=60)
@given(output=agent_outputs)
def test_any_agent_output_continues_or_fails_the_job(pipeline, output):
    from scoregate.pipelines import control

    spec = steps.build_spec(
        pipeline["ctx"],
        {
            "request": {"query": "q", "content": "c"},
            "agent": "agent",
            "loop": {"enabled": True, "threshold": 1.0},
        },
    )
    job_id = steps.submit_jobs(pipeline["ctx"], [spec])[0]
    pipeline["inline"].queue.clear()
    with pipeline["ctx"].session() as s:  # as after iteration 1 was scored "iterate"
        repo.set_job_status(s, job_id=job_id, status="awaiting_agent")
    try:
        control.agent_result(pipeline["ctx"], output, job_id, 2)
    except ValueError:
        pytest.fail("a bad agent output must fail the job, not raise")
    with pipeline["ctx"].session() as s:
        job = repo.get_job(s, job_id=job_id)
        assert job is not None
        # a refused output is an agent failure: escalated (hil, the default) or failed
        assert job.status in ("failed", "escalated") or job.current_iteration == 2


@FUZZ
@given(line=text)
def test_any_cli_constraint_is_parsed_or_refused_with_a_value_error(line):
    try:
        parse_constraint(line)
    except ValueError:
        pass


SECTIONS = ["fusion", "heuristics", "evidence", "bands", "actions", "reward", "semantic"]
weights = st.dictionaries(
    st.sampled_from(["semantic", "precision", "reward", "heuristics", "colour"]),
    st.one_of(numbers, text),
    max_size=5,
)


@st.composite
def overlays(draw: st.DrawFn) -> Any:
    return draw(
        st.one_of(
            json_values,
            st.dictionaries(st.sampled_from(SECTIONS), json_values, max_size=3),
            st.fixed_dictionaries(
                {
                    "fusion": st.fixed_dictionaries(
                        {"profiles": st.dictionaries(st.sampled_from(["default", "x"]), weights)}
                    )
                }
            ),
        )
    )


@FUZZ
@given(data=overlays())
def test_any_scoring_overlay_loads_valid_or_says_why(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("cfg") / "scoring.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=False), encoding="utf-8")
    _load_or_value_error(path)


@FUZZ
@given(raw=st.binary(max_size=200))
def test_any_bytes_as_a_scoring_file_load_or_say_why(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("cfg") / "scoring.yaml"
    path.write_bytes(raw)
    _load_or_value_error(path)


def _load_or_value_error(path: Path) -> None:
    try:
        cfg = load_scoring_config(path)
    except ValueError:
        return
    for profile in cfg.fusion.profiles.values():
        assert math.isclose(sum(profile.values()), 1.0, abs_tol=1e-6)
