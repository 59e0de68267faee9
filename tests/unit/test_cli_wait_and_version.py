"""The CLI's side of the 2026-12-01 operator and node-integrator reviews: ``submit --wait``
tells the gate's verdict by its exit status and output (the loop off included), and rides
out a database that fails for a while."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.cli import wait
from scoregate.cli.wait import exit_status
from scoregate.config.settings import Settings, get_settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels

runner = CliRunner()
SUBMIT = ["submit", "-q", "Write a helpful answer.", "-c"]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'wait.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    monkeypatch.setenv("COLUMNS", "200")
    return {"ctx": ctx}


# --- 1. the loop off: `completed` is approved only with the action accept ------------------


@pytest.mark.parametrize(("content", "action"), [(BAD, "reject"), (MEH, "review")])
def test_a_completed_job_the_gate_did_not_accept_exits_4(env, content, action):
    out = runner.invoke(cli, [*SUBMIT, content, "--wait"])
    assert out.exit_code == 4, out.output
    job_id, line = out.stdout.strip().splitlines()
    assert line.startswith(f"{job_id} completed score=")
    assert line.endswith(f" action={action}")

    out = runner.invoke(cli, [*SUBMIT, content, "--wait", "--json"])
    assert out.exit_code == 4, out.output
    [state] = json.loads(out.stdout)["jobs"]
    assert (state["status"], state["action"]) == ("completed", action)


def test_a_completed_job_the_gate_accepted_exits_0(env):
    out = runner.invoke(cli, [*SUBMIT, GOOD, "--wait"])
    assert out.exit_code == 0, out.output
    assert out.stdout.strip().splitlines()[-1].endswith(" completed score=0.99 action=accept")
    doc = json.loads(runner.invoke(cli, [*SUBMIT, GOOD, "--wait", "--json"]).stdout)
    assert doc["jobs"][0]["action"] == "accept" and doc["pending"] == []


def test_one_job_not_accepted_in_a_file_exits_4(env, tmp_path):
    path = tmp_path / "jobs.jsonl"
    lines = [{"request": {"query": "Write a helpful answer.", "content": c}} for c in (GOOD, BAD)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = runner.invoke(cli, ["submit", "--file", str(path), "--wait", "--json"])
    assert out.exit_code == 4, out.output
    assert [j["action"] for j in json.loads(out.stdout)["jobs"]] == ["accept", "reject"]


def test_a_job_waiting_for_a_human_has_no_action_yet(env):
    out = runner.invoke(cli, [*SUBMIT, MEH, "--gating", "--wait", "--json"])
    assert out.exit_code == 4, out.output
    [state] = json.loads(out.stdout)["jobs"]
    assert state["status"] == "awaiting_review" and state["action"] is None

    out = runner.invoke(cli, [*SUBMIT, MEH, "--gating", "--wait"])
    assert out.exit_code == 4, out.output
    job_id, line = out.stdout.strip().splitlines()
    assert line.startswith(f"{job_id} awaiting_review score=")
    assert line.endswith(f"(a person decides: scoregate review {job_id} --approve or --reject)")


@pytest.mark.parametrize(
    ("jobs", "code"),
    [
        ([{"status": "accepted", "final_result": None}], 0),  # a human approved it
        ([{"status": "completed", "final_result": {"action": "accept"}}], 0),
        ([{"status": "completed", "final_result": {"action": "iterate"}}], 4),
        ([{"status": "completed", "final_result": None}], 4),  # no verdict: not approved
        ([{"status": "failed"}, {"status": "running"}], 5),  # still running: a timeout
    ],
)
def test_exit_status_tells_the_verdict(jobs, code):
    assert exit_status(jobs) == code


def test_jobs_list_shows_the_final_action(env):
    job_ids = {}
    for content in (GOOD, BAD):
        job_ids[content] = runner.invoke(cli, [*SUBMIT, content]).stdout.strip()
    table = runner.invoke(cli, ["jobs", "list"]).stdout
    assert "action" in table.splitlines()[2]
    rows = {line.split("│")[1].strip(): line for line in table.splitlines() if "│" in line}
    assert "│ reject " in rows[job_ids[BAD]] and "│ accept " in rows[job_ids[GOOD]]


# --- 2. a database that fails during the wait ---------------------------------------------


def _failing_reads(monkeypatch: pytest.MonkeyPatch, fails: int | None, why: str) -> list[int]:
    """``api.get_job`` raises ``why`` (as the driver would) ``fails`` times, or always."""
    real, calls = api.get_job, []

    def get_job(job_id: str, **kw: Any) -> dict[str, Any]:
        calls.append(1)
        if fails is None or len(calls) <= fails:
            raise OperationalError("SELECT jobs", {}, Exception(why))
        return real(job_id, **kw)

    monkeypatch.setattr(api, "get_job", get_job)
    monkeypatch.setattr(wait, "MAX_BACKOFF_S", 0.01)
    return calls


def _submitted(content: str) -> list[str]:
    """``submit --wait`` arguments for one job (the job itself completes inline)."""
    return [*SUBMIT, content, "--wait", "--timeout", "1"]


SHUTTING_DOWN = "FATAL: the database system is shutting down"


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_a_database_blip_during_the_wait_is_retried_with_one_warning(env, monkeypatch, as_json):
    calls = _failing_reads(monkeypatch, 3, SHUTTING_DOWN)
    out = runner.invoke(cli, [*_submitted(GOOD), *as_json])
    assert out.exit_code == 0, out.output
    assert len(calls) == 4
    [warning] = out.stderr.strip().splitlines()
    assert warning.startswith("warning: ") and "shutting down" in warning
    assert "reading them again until the --timeout" in warning


def test_a_database_that_stays_away_prints_the_ids_in_json_then_exits_1(env, monkeypatch):
    _failing_reads(monkeypatch, None, SHUTTING_DOWN)
    out = runner.invoke(cli, [*_submitted(GOOD), "--timeout", "0.3", "--json"])
    assert out.exit_code == 1, out.output
    doc = json.loads(out.stdout)
    assert doc["pending"] == doc["job_ids"] and len(doc["job_ids"]) == 1
    assert doc["jobs"] is None  # never read: no state to tell
    warning, error = out.stderr.strip().splitlines()
    assert warning.startswith("warning: ") and error.startswith("error: ")
    assert "shutting down" in error


def test_a_database_that_stays_away_prints_the_ids_as_text_then_exits_1(env, monkeypatch):
    _failing_reads(monkeypatch, None, SHUTTING_DOWN)
    out = runner.invoke(cli, [*_submitted(GOOD), "--timeout", "0.3"])
    assert out.exit_code == 1, out.output
    [job_id] = out.stdout.split()
    assert len(job_id) == 36
    warning, error = out.stderr.strip().splitlines()  # the warning once, however many tries
    assert warning.startswith("warning: ") and error.startswith("error: ")


def test_what_a_wait_reads_again_and_what_it_does_not():
    from sqlalchemy.exc import OperationalError, ProgrammingError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from scoregate.cli.wait import is_transient

    assert is_transient(OperationalError("SELECT", {}, Exception("server closed")))
    assert is_transient(PoolTimeout("QueuePool limit of size 5 overflow 10 reached"))
    assert not is_transient(OperationalError("SELECT", {}, Exception("no such table: jobs")))
    assert not is_transient(ProgrammingError("SELECT", {}, Exception("permission denied")))


def test_a_missing_table_is_not_retried(env, monkeypatch):
    calls = _failing_reads(monkeypatch, None, "no such table: jobs")
    out = runner.invoke(cli, [*_submitted(GOOD), "--timeout", "5", "--json"])
    assert out.exit_code == 1, out.output
    assert len(calls) == 1 and "warning" not in out.stderr
    assert "run `scoregate db upgrade`" in out.stderr
    assert len(json.loads(out.stdout)["pending"]) == 1


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_a_wait_that_times_out_exits_5_not_1(env, monkeypatch, as_json):
    monkeypatch.setattr(api, "get_job", lambda job_id, **kw: {"id": job_id, "status": "running"})
    out = runner.invoke(cli, [*_submitted(GOOD), "--timeout", "0.2", *as_json])
    assert out.exit_code == 5, out.output
    assert "1 job(s) still running after 0.2 s" in out.stderr
    if as_json:
        doc = json.loads(out.stdout)
        assert doc["pending"] == doc["job_ids"]


# --- 3. the version and the migration it expects ------------------------------------------


def _head() -> str:
    """The newest migration file's revision, read from the files (not through Alembic)."""
    from scoregate.storage.db import MIGRATIONS_DIR

    return max(p.name[:4] for p in (MIGRATIONS_DIR / "versions").glob("[0-9]*.py"))


def test_version_option_prints_the_package_version_and_the_schema_revision():
    from scoregate import __version__

    out = runner.invoke(cli, ["--version"])
    assert out.exit_code == 0, out.output
    assert out.stdout == f"scoregate {__version__} (schema {_head()})\n"
    assert runner.invoke(cli, ["version"]).stdout == out.stdout


def test_version_json():
    from scoregate import __version__

    out = runner.invoke(cli, ["version", "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc == {"schema_version": 1, "version": __version__, "migration": _head()}


def test_version_runs_as_a_command_without_a_database(tmp_path):
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SCOREGATE_DATABASE_URL": "bogus://"}
    out = subprocess.run(
        [sys.executable, "-m", "scoregate", "--version"], capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("scoregate ") and f"(schema {_head()})" in out.stdout


# --- 4. a broker set does not skip the schema check ----------------------------------------


@pytest.fixture
def behind_with_a_broker(tmp_path, monkeypatch):
    """A database the user names, at migration 0002, and a broker URL (never connected)."""
    from scoregate.config.settings import get_settings
    from scoregate.storage.db import dispose_engines, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0002")
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "memory://")
    monkeypatch.setenv("COLUMNS", "300")
    get_settings.cache_clear()
    api.client_context.cache_clear()
    yield url
    get_settings.cache_clear()
    api.client_context.cache_clear()
    dispose_engines()


@pytest.mark.parametrize(
    "args",
    [
        ["jobs", "list"],
        ["jobs", "show", "abc"],
        ["jobs", "cancel", "abc", "--actor", "ops"],
        ["submit", "-q", "Name a fish", "-c", "Trout."],
        ["review", "abc", "--approve", "--actor", "ops"],
        ["sweep"],
        ["report"],
    ],
)
def test_a_command_with_a_broker_refuses_a_database_behind_the_code(behind_with_a_broker, args):
    from scoregate.storage.db import current_revision

    out = runner.invoke(cli, args)
    assert out.exit_code == 1, out.output
    [line] = out.output.strip().splitlines()
    assert "is at migration 0002, older than this scoregate's" in line
    assert "run `scoregate db upgrade`" in line
    assert current_revision(behind_with_a_broker) == "0002"  # changed nothing


def test_a_command_with_a_broker_reads_a_current_database(behind_with_a_broker):
    from scoregate.storage.db import upgrade

    upgrade(behind_with_a_broker)
    out = runner.invoke(cli, ["jobs", "list", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["jobs"] == []


# --- 5. a missing pool: workers --require, jobs show says what a job waits for -------------


@pytest.fixture
def pinged(monkeypatch):
    """``scoregate workers`` with a broker set, the ping answered by ``answers``."""
    from scoregate.cli import workers as cli_workers
    from scoregate.config.settings import get_settings

    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6379/7")
    get_settings.cache_clear()
    answers: dict[str, list[str]] = {}
    monkeypatch.setattr(cli_workers, "live_workers", lambda timeout: answers)
    monkeypatch.setattr(cli_workers, "worker_configs", lambda timeout: CONFIGS)
    CONFIGS.clear()
    yield answers
    get_settings.cache_clear()


EVERY_POOL = "semantic,precision,reward,fusion,control"
#: What the workers answer to ``scoregate_config`` in the ``pinged`` fixture.
CONFIGS: dict[str, dict[str, str]] = {}


def test_workers_require_names_the_pools_without_a_worker(pinged):
    pinged.update({"all@h": ["control", "fusion", "reward", "semantic"]})
    out = runner.invoke(cli, ["workers", "--require", EVERY_POOL])
    assert out.exit_code == 1, out.output
    assert out.stdout == "all@h\tcontrol,fusion,reward,semantic\n"  # the listing still prints
    [line] = [x for x in out.stderr.splitlines() if x.startswith("error:")]
    assert line.startswith("error: no live worker consumes precision:")
    assert "scoregate worker --pool precision" in line


def test_workers_require_passes_when_every_pool_has_a_worker(pinged):
    pinged.update({"a@h": ["control", "fusion", "precision"], "b@h": ["reward", "semantic"]})
    assert runner.invoke(cli, ["workers", "--require", EVERY_POOL]).exit_code == 0
    assert runner.invoke(cli, ["workers", "--require", "all"]).exit_code == 0
    pinged.pop("b@h")
    out = runner.invoke(cli, ["workers", "--require", "all", "--json"])
    listed = {name: {"queues": queues, "config": None} for name, queues in pinged.items()}
    assert out.exit_code == 1 and json.loads(out.stdout) == listed
    assert "no live worker consumes semantic, reward:" in out.stderr


def test_workers_show_each_workers_scoring_config(pinged):
    pinged.update({"a@h": ["control", "fusion"], "b@h": ["reward"]})
    CONFIGS.update({"a@h": {"path": "packaged default", "digest": "0123abcd4567"}})
    out = runner.invoke(cli, ["workers"])
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        "a@h\tcontrol,fusion\tconfig 0123abcd4567 (packaged default)\tscoregate unknown",
        "b@h\treward",  # an older worker that does not answer scoregate_config
    ]
    assert out.stderr.strip() == (
        "warning: b@h did not say which scoring config it runs (a scoregate older than this"
        " check): their decisions cannot be compared"
    )
    listed = json.loads(runner.invoke(cli, ["workers", "--json"]).stdout)
    assert listed["a@h"]["config"] == CONFIGS["a@h"] and listed["b@h"]["config"] is None


def test_a_track_pool_on_another_config_is_a_warning(pinged):
    pinged.update({"d@h": ["control", "fusion"], "s@h": ["semantic"]})
    CONFIGS.update(
        {"d@h": {"path": "a.yaml", "digest": "aaaa"}, "s@h": {"path": "b.yaml", "digest": "bbbb"}}
    )
    out = runner.invoke(cli, ["workers"])
    assert out.exit_code == 0, out.output
    assert out.stderr.strip() == (
        "warning: s@h runs another scoring config than the fusion and control workers (aaaa):"
        " their tracks may score differently"
    )


def test_fusion_and_control_workers_on_different_configs_exit_1(pinged):
    pinged.update({"f@h": ["fusion"], "c@h": ["control"], "r@h": ["reward"]})
    CONFIGS.update(
        {
            "f@h": {"path": "/etc/sg/overlay.yaml", "digest": "aaaa"},
            "c@h": {"path": "packaged default", "digest": "bbbb"},
            "r@h": {"path": "/other.yaml", "digest": "cccc"},  # reward decides nothing
        }
    )
    out = runner.invoke(cli, ["workers"])
    assert out.exit_code == 1, out.output
    [line] = out.stderr.strip().splitlines()
    assert line == (
        "error: the fusion and control workers run 2 different scoring configs (aaaa: f@h;"
        " bbbb: c@h): give them one SCOREGATE_SCORING_CONFIG and restart them"
    )
    CONFIGS["c@h"] = CONFIGS["f@h"]
    assert runner.invoke(cli, ["workers"]).exit_code == 0


def test_workers_require_refuses_an_unknown_pool(pinged):
    out = runner.invoke(cli, ["workers", "--require", "semantic,precison"])
    assert out.exit_code == 2, out.output
    assert "--require: unknown pool 'precison'; choose from semantic, precision" in out.output


def test_jobs_show_says_which_tracks_a_running_job_waits_for(env):
    from scoregate.pipelines import steps
    from scoregate.pipelines.context import PRECISION

    ctx, inline = api.client_context()
    spec = steps.build_spec(ctx, {"request": {"query": "Name a fish", "content": GOOD}})
    [job_id] = steps.submit_jobs(ctx, [spec])
    inline.queue = type(inline.queue)(m for m in inline.queue if m.task != PRECISION)
    inline.drain()  # semantic and reward land; no precision worker

    out = runner.invoke(cli, ["jobs", "show", job_id])
    assert out.exit_code == 0, out.output
    line = out.stdout.strip().splitlines()[-1].strip()
    assert line.startswith("iteration 1 (scoring since ")
    assert "landed semantic, reward; waiting for precision (its pool:" in line
    assert "`scoregate workers --require precision`" in line
    assert json.loads(runner.invoke(cli, ["jobs", "show", job_id, "--json"]).stdout)["status"] == (
        "running"
    )


def test_jobs_show_of_a_final_job_has_no_waiting_line(env):
    [job_id] = runner.invoke(cli, [*SUBMIT, GOOD]).stdout.split()
    out = runner.invoke(cli, ["jobs", "show", job_id])
    assert out.exit_code == 0 and "waiting for" not in out.stdout


# --- 6. errors of `workers` and `worker`: one line, and exit 2 for a bad config -------------


def test_the_broker_error_of_workers_is_one_line_in_a_pipe(monkeypatch, fresh_settings):
    import importlib
    from types import SimpleNamespace

    from kombu.exceptions import OperationalError as BrokerError

    def refused() -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6390." + " Connection refused." * 5)

    inspector = SimpleNamespace(ping=refused)
    fake = SimpleNamespace(control=SimpleNamespace(inspect=lambda timeout: inspector))
    app_module = importlib.import_module("scoregate.workers.app")  # the package shadows it
    monkeypatch.setattr(app_module, "get_app", lambda: fake)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6390/7")
    monkeypatch.delenv("COLUMNS", raising=False)
    get_settings.cache_clear()
    out = runner.invoke(cli, ["workers"])
    assert out.exit_code == 1, out.output
    [line] = out.stderr.splitlines()  # not cut at 80 columns
    assert line.startswith("error: broker unreachable: Error 111") and line.endswith("refused.")


def test_worker_with_a_bad_scoring_config_exits_2_saying_so_once(
    monkeypatch, tmp_path, fresh_settings
):
    import importlib

    bad = tmp_path / "overlay.yaml"
    bad.write_text("actions:\n  accept: 0.50\n")
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:6379/7")
    monkeypatch.setenv("SCOREGATE_SCORING_CONFIG", str(bad))
    started: list[list[str]] = []
    workers_module = importlib.import_module("scoregate.cli.workers")
    monkeypatch.setattr(workers_module, "run_celery", started.append)
    out = runner.invoke(cli, ["worker", "--pool", "fusion"])
    assert out.exit_code == 2, out.output
    [line] = out.output.strip().splitlines()
    assert line.startswith(f"error: invalid configuration: scoring config {bad}: actions:")
    assert started == []  # no Celery worker to say it a second time


def test_the_package_metadata_reads_the_one_version():
    """pyproject.toml takes the version from scoregate/_version.py, and the changelog has an
    entry for it, so a release cannot ship with the three out of step."""
    import tomllib
    from pathlib import Path

    from scoregate import __version__

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "scoregate._version.__version__"
    assert f"\n## {__version__} (" in (root / "CHANGELOG.md").read_text()
