"""Finding 5: a number given as ``true`` or ``"0.5"`` is refused, not converted, in the
loop policy and in the constraints too (422 over HTTP, ValueError in Python)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import scoregate
from scoregate.server import ApiService, create_app
from tests.fakes import GOOD, SCORES, FakeModels, embedded_client
from tests.server_client import AppClient

REQUEST = {"query": "Write a helpful answer.", "content": GOOD}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    ctx, inline = embedded_client(tmp_path, monkeypatch, {})
    return {"client": AppClient(create_app(ApiService(ctx, inline, models=FakeModels(SCORES))))}


BAD_LOOPS = [
    {"threshold": "0.8"},
    {"threshold": True},
    {"enabled": "true", "max_iterations": 2},
    {"enabled": 1},
    {"max_iterations": "2"},
    {"max_iterations": True},
    {"hil": "false"},
]
BAD_CONSTRAINTS = [
    {"kind": "max_lines", "value": True},
    {"kind": "max_lines", "value": "10"},
    {"kind": "max_words", "value": 10, "hard": "true"},
    {"kind": "contains", "value": "x", "case_sensitive": 1},
    {"kind": "instruction", "check": "count", "unit": "bullets", "value": True},
    {"kind": "instruction", "check": "word_frequency", "value": "the", "count": "2"},
]


@pytest.mark.parametrize("loop", BAD_LOOPS)
def test_a_loop_number_or_flag_of_the_wrong_type_is_refused(env, loop):
    r = env["client"].post("/v1/jobs", json={"request": REQUEST, "loop": loop})
    assert r.status_code == 422, r.text
    with pytest.raises(ValueError):
        scoregate.submit(REQUEST, loop=loop)


@pytest.mark.parametrize("constraint", BAD_CONSTRAINTS)
def test_a_constraint_number_or_flag_of_the_wrong_type_is_refused(env, constraint):
    request = {**REQUEST, "constraints": [constraint]}
    assert env["client"].post("/v1/jobs", json={"request": request}).status_code == 422
    assert env["client"].post("/v1/score", json=request).status_code == 422
    with pytest.raises(ValueError):
        scoregate.submit(request)


def test_ints_for_floats_and_text_constraints_still_work(env):
    request = {
        **REQUEST,
        "constraints": [
            {"kind": "max_lines", "value": 10, "hard": True},
            {"kind": "regex", "value": "answer"},
            {"kind": "contains", "value": "10", "case_sensitive": False},
            {"kind": "instruction", "check": "count", "unit": "words", "value": 3},
        ],
    }
    r = env["client"].post("/v1/jobs", json={"request": request, "loop": {"threshold": 1}})
    assert r.status_code == 202, r.text
    job = scoregate.get_job(r.json()["id"])
    assert job["policy"]["threshold"] == 1.0 and job["policy"]["enabled"] is True
