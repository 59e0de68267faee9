"""`scoregate score` and `scoregate demo` with the real models (in process, no servers)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from scoregate.cli import app

pytestmark = pytest.mark.model
runner = CliRunner()


def _score(*args: str) -> dict:
    out = runner.invoke(app, ["score", *args, "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def test_score_catches_the_negation_embeddings_miss():
    answer = "Here is a picture of a dog"
    negated = _score("-q", "I do NOT want a picture of a dog", "-c", answer)
    wanted = _score("-q", "I want a picture of a dog", "-c", answer)
    assert negated["tracks"]["precision"]["score"] < wanted["tracks"]["precision"]["score"] - 0.3
    assert negated["score"] < wanted["score"]
    assert set(negated["tracks"]) >= {"semantic", "precision"}  # heuristics: neutral default


def test_score_table_shows_tracks_weights_and_a_failed_hard_constraint(tmp_path):
    code = tmp_path / "fizz.py"
    code.write_text("def fizzbuzz(n):\n    return [str(i) for i in range(1, n + 1)]\n")
    out = runner.invoke(
        app,
        [
            "score",
            "-q",
            "Write fizzbuzz in Python",
            "-f",
            str(code),
            "--constraint",
            "contains_function=fizzbuzz",
            "--hard",
            "max_lines=1",
            "--task-type",
            "code",
        ],
    )
    assert out.exit_code == 0, out.output
    for word in (
        "semantic",
        "precision",
        "reward",
        "weight",
        "profile code",
        "hard constraint failed",
    ):
        assert word in out.output


def test_demo_climbs_to_acceptance_and_escalates_the_second_job(tmp_path):
    from rich.console import Console

    from scoregate.cli.demo import run_demo

    jobs = run_demo(
        Console(record=True, width=120), database_url=f"sqlite:///{tmp_path / 'demo.db'}"
    )
    first, second = jobs
    assert first["status"] == "accepted" and len(first["iterations"]) >= 2
    scores = [it["score"] for it in first["iterations"]]
    assert scores[-1] > scores[0]
    assert second["status"] == "escalated" and len(second["iterations"]) == 3
    assert second["escalations"][0]["status"] == "open"
