"""Operator mistakes that must end in one line that says what to fix: migrations asked to
go back, windows too long for a date, training options that would train nothing, scoring
configs with a misspelt key or a rule list that drops the packaged rules, an actor name
the audit trail cannot hold."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.scoring_yaml import ActionThresholds, ConfigError, load_scoring_config
from scoregate.config.settings import Settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import FakeModels

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("fresh_settings")


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'cli.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels({"a faithful answer": 0.99}))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    return {"ctx": ctx}


def _overlay(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "overlay.yaml"
    path.write_text(text)
    return path


def _flat(text: str) -> str:
    """The output as one line, without the frame of a usage error's panel."""
    return " ".join(text.replace("│", " ").split())


# --- finding 8: `db upgrade` says where the database is, and never pretends to go back ----------


def test_db_upgrade_prints_the_revision_reached_and_refuses_to_go_back(tmp_path: Path) -> None:
    from alembic.script import ScriptDirectory

    from scoregate.storage.db import alembic_config, current_revision

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None and head != "0001"
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"

    def upgrade(*target: str) -> Any:
        return runner.invoke(cli, ["db", "upgrade", *target], env={"SCOREGATE_DATABASE_URL": url})

    first = upgrade("0001")
    assert first.exit_code == 0 and first.output.strip().endswith("is at 0001"), first.output
    latest = upgrade()
    assert latest.exit_code == 0 and latest.output.strip().endswith(f"is at {head}")
    for older in ("0001", "base"):
        back = upgrade(older)
        assert back.exit_code == 2, back.output
        assert f"is at {head}, past {older}" in _flat(back.output)
        assert "only migrates forward, so nothing changed" in _flat(back.output)
    assert current_revision(url) == head
    heads = upgrade("heads")
    assert heads.exit_code == 0 and heads.output.strip().endswith(f"is at {head}")


# --- finding 9: a window too long for a date is a usage error, not an OverflowError -------------


@pytest.mark.parametrize(
    "args",
    [
        ["report", "--since", "999999d"],
        ["report", "--since", "99999999999d"],
        ["rethreshold", "--since", "9999999d"],
        ["calibrate", "--since", "9999999d"],
    ],
)
def test_a_window_too_long_for_a_date_is_one_line(env: dict[str, Any], args: list[str]) -> None:
    out = runner.invoke(cli, args)
    assert out.exit_code == 2, out.output
    assert "a window is at most 36500d (100 years" in _flat(out.output)
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_a_window_too_long_is_refused_in_the_config_and_the_longest_one_reports(
    env: dict[str, Any], tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match=r"alerts\.window: a window is at most 36500d"):
        load_scoring_config(_overlay(tmp_path, "alerts:\n  window: 9999999d\n"))
    out = runner.invoke(cli, ["report", "--since", "36500d", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["scores"] == 0


# --- finding 10: train-precision refuses options that would train nothing useful ---------------


@pytest.fixture
def no_training(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Record a call to the trainer instead of training."""
    train = pytest.importorskip("scoregate_training.train")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(train, "train_precision", lambda out, **kw: calls.append(kw))
    return calls


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (["--max-pairs", "0"], "Invalid value for '--max-pairs'"),
        (["--max-pairs", "-5"], "Invalid value for '--max-pairs'"),
        (["--device", "bogus"], "'bogus' is not a device: give auto, cpu, cuda or cuda:N"),
    ],
)
def test_train_precision_refuses_what_would_train_nothing_useful(
    no_training: list[dict[str, Any]], tmp_path: Path, option: list[str], says: str
) -> None:
    out = runner.invoke(cli, ["models", "train-precision", "--out", str(tmp_path / "out"), *option])
    assert out.exit_code == 2, out.output
    assert says in _flat(out.output) and "Traceback" not in out.output
    assert no_training == [] and not (tmp_path / "out").exists()


def test_training_data_refuses_max_pairs_below_one(tmp_path: Path) -> None:
    dataset = pytest.importorskip("scoregate_training.dataset")
    with pytest.raises(ValueError, match="max_pairs must be at least 1"):
        dataset.build_training_data(tmp_path, 13, max_pairs=0)


def test_missing_negation_data_says_where_it_belongs(tmp_path: Path) -> None:
    dataset = pytest.importorskip("scoregate_training.dataset")
    with pytest.raises(FileNotFoundError) as info:
        dataset.check_data_dir(tmp_path)
    message = str(info.value)
    assert "../shared/data/negation" in message and "dmlls/cannot-dataset" in message
    assert "--data-dir" in message


# --- finding 11: scoring-config errors say how to fix them; rule mistakes do not load silently --


@pytest.mark.parametrize(
    ("actions", "says"),
    [
        (
            "{accept: 0.5}",
            "review, iterate and reject are the packaged defaults):"
            " set actions.review to 0.5 or lower too",
        ),
        ("{accept: 0.25}", "set actions.review and actions.iterate to 0.25 or lower too"),
        ("{reject: 0.5}", "set actions.iterate to 0.5 or higher too"),
        ("{accept: 0.5, review: 0.7}", "actions.accept is below actions.review"),
    ],
)
def test_a_cut_conflict_names_the_defaults_and_what_to_change(
    tmp_path: Path, actions: str, says: str
) -> None:
    # The field defaults are the packaged cuts: the message's "packaged default" holds.
    assert load_scoring_config().actions == ActionThresholds()
    with pytest.raises(ConfigError) as info:
        load_scoring_config(_overlay(tmp_path, f"actions: {actions}\n"))
    assert says in str(info.value)


def test_rethreshold_names_the_flag_to_change(env: dict[str, Any]) -> None:
    out = runner.invoke(cli, ["rethreshold", "--accept", "0.5"])
    assert out.exit_code == 2, out.output
    assert "set --review to 0.5 or lower too" in _flat(out.output)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "actions: {acept: 0.9}\n",
            "actions: unknown key 'acept' (did you mean 'accept'?);"
            " valid keys: accept, review, iterate, reject",
        ),
        ("fuson: {}\n", "unknown key 'fuson' (did you mean 'fusion'?); valid keys: semantic,"),
        (
            "evidence:\n  thresholds: {greem: 0.9}\n",
            "evidence.thresholds: unknown key 'greem'",
        ),
        (
            "fusion:\n  rules:\n    - {match: {task_typ: code}, profile: code}\n",
            "fusion.rules.0.match: unknown key 'task_typ' (did you mean 'task_type'?);"
            " valid keys: role, task_type",
        ),
    ],
)
def test_a_misspelt_key_is_refused_with_the_valid_ones(
    tmp_path: Path, text: str, says: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load_scoring_config(_overlay(tmp_path, text))
    assert says in str(info.value)


SUPPORT = (
    "fusion:\n  profiles:\n    support: {semantic: 0.2, precision: 0.5, reward: 0.2,"
    " heuristics: 0.05, evidence: 0.0, metrics: 0.05}\n  rules:\n"
    "    - {match: {task_type: support}, profile: support}\n"
)


def test_an_overlay_whose_rules_drop_the_packaged_ones_is_warned_of(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="scoregate.config.scoring_yaml"):
        cfg = load_scoring_config(_overlay(tmp_path, SUPPORT))
    assert [r.profile for r in cfg.fusion.rules] == ["support"]  # lists are replaced whole
    (record,) = caplog.records
    assert "fusion.rules replaces the packaged rules whole" in record.getMessage()
    assert "task_type=code -> code" in record.getMessage()
    assert "role=admin -> admin" in record.getMessage()
    caplog.clear()
    kept = SUPPORT + (
        "    - {match: {role: admin}, profile: admin}\n"
        "    - {match: {task_type: creative}, profile: creative}\n"
        "    - {match: {task_type: code}, profile: default}\n"  # re-mapped on purpose: quiet
        "    - {match: {task_type: Research}, profile: research}\n"
    )
    with caplog.at_level(logging.WARNING, logger="scoregate.config.scoring_yaml"):
        cfg = load_scoring_config(_overlay(tmp_path, kept))
    assert len(cfg.fusion.rules) == 5 and caplog.records == []


# --- finding 12: an actor too long for the audit trail is a usage error -------------------------


def test_an_actor_too_long_for_the_record_is_a_usage_error(env: dict[str, Any]) -> None:
    out = runner.invoke(
        cli, ["submit", "-q", "Write a helpful answer.", "-c", "so-so", "--gating", "--json"]
    )
    job_id = json.loads(out.stdout)["job_ids"][0]
    long = runner.invoke(cli, ["review", job_id, "--reject", "--actor", "a" * 300])
    assert long.exit_code == 2, long.output
    assert "--actor is 300 characters long: give a name of at most 255" in _flat(long.output)
    assert "database" not in long.output
    shown = json.loads(runner.invoke(cli, ["jobs", "show", job_id, "--json"]).stdout)
    assert shown["status"] == "awaiting_review"
    ok = runner.invoke(cli, ["review", job_id, "--reject", "--actor", "a" * 255])
    assert ok.exit_code == 0, ok.output
