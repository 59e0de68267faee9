"""The ops review's polish findings (7a-7e, twenty-second session): the command list's lines,
the options' help, the sweeper's start line, a node name several workers share, and the
config split of workers that read one path differently."""

from __future__ import annotations

import logging
import warnings
from types import SimpleNamespace
from typing import Any

import pytest
from celery.exceptions import DuplicateNodenameWarning
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.cli import workers as cli_workers
from scoregate.config.settings import get_settings

pytestmark = pytest.mark.usefixtures("fresh_settings")

runner = CliRunner()
BROKER = "redis://127.0.0.1:6399/0"


def _help(*args: str) -> str:
    out = runner.invoke(cli, [*args, "--help"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    return " ".join(out.stdout.split())


# --- a. the command list --------------------------------------------------------------------


def test_the_command_list_has_one_line_per_command_and_no_rst_markup():
    out = runner.invoke(cli, ["--help"], env={"COLUMNS": "200"})
    rows = [line for line in out.stdout.splitlines() if line.startswith("│ ")]
    [workers] = [r for r in rows if r.split()[1:2] == ["workers"]]
    [worker] = [r for r in rows if r.split()[1:2] == ["worker"]]
    assert "exit 1 when not all are ready" in workers
    following = rows[rows.index(workers) + 1].split()[1]
    assert following == "version"  # no continuation line of the workers entry (was 3 more)
    assert "``" not in out.stdout and "`celery worker -Q POOL`" in worker


# --- b. the options' help -------------------------------------------------------------------


def test_every_review_verdict_has_its_help():
    text = _help("review")
    assert "The answer may be used: the job ends accepted (its on_pass runs)." in text
    assert "The answer may not be used: the job ends rejected (on_loop_exit runs)." in text
    assert "research task" in text and "Stop the job without a verdict" in text


def test_sweep_names_its_default_and_submit_its_exit_3():
    assert "SCOREGATE_STUCK_AFTER_S, 30" in _help("sweep")
    assert "exit 3 when the broker did not take the jobs" in _help("submit")


# --- c. the sweeper's start line names the value the docs give ------------------------------


def test_the_sweeper_line_says_false_as_the_docs_do(monkeypatch, caplog):
    from scoregate.workers import startup

    caplog.set_level(logging.INFO, logger=startup.log.name)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "amqp://guest@127.0.0.1//")
    get_settings.cache_clear()
    queues = SimpleNamespace(consume_from={"control": 1})
    instance = SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=queues)))
    conf = SimpleNamespace(broker_url="amqp://guest@127.0.0.1//", broker_transport_options={})
    startup._configure(instance=instance, conf=conf)
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("sweeper:")]
    assert line.endswith("(SCOREGATE_SWEEPER=false turns it off)")  # was =0


# --- d. a node name two workers share -------------------------------------------------------


class _Inspector:
    def ping(self) -> dict[str, Any]:
        warnings.warn(
            DuplicateNodenameWarning(
                "Received multiple replies from node name: reward@vm.\nPlease make sure you"
                " give each node a unique nodename using\nthe celery worker `-n` option."
            ),
            stacklevel=1,
        )
        return {"reward@vm": {"ok": "pong"}, "fusion@vm": {"ok": "pong"}}

    def active_queues(self) -> dict[str, Any]:
        return {"reward@vm": [{"name": "reward"}], "fusion@vm": [{"name": "fusion"}]}


def test_workers_says_a_shared_node_name_in_its_own_words(monkeypatch):
    import importlib

    worker_app = importlib.import_module("scoregate.workers.app")
    control = SimpleNamespace(inspect=lambda timeout: _Inspector())
    monkeypatch.setattr(worker_app, "get_app", lambda: SimpleNamespace(control=control))
    monkeypatch.setattr(cli_workers, "worker_configs", lambda timeout: {})
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    get_settings.cache_clear()
    out = runner.invoke(cli, ["workers"])
    assert out.exit_code == 0, out.output
    assert "DuplicateNodenameWarning" not in out.output and "control.py" not in out.output
    [line] = [x for x in out.stderr.splitlines() if x.startswith("warning: more than one")]
    assert line.startswith("warning: more than one live worker answers to reward@vm:")
    assert "scoregate worker --name NAME" in line
    assert cli_workers.shared_names({"a@h": 1, "ba@h": 1}, ["... node name: ba@h.\n..."]) == [
        "ba@h"
    ]


# --- e. one path, two digests -----------------------------------------------------------------


def test_a_split_from_one_path_names_the_build_not_the_variable():
    found = {"f@h": ["fusion"], "c@h": ["control"]}
    configs = {
        "f@h": {"path": "packaged default", "digest": "aaaa", "version": "0.2.1"},
        "c@h": {"path": "packaged default", "digest": "bbbb", "version": "0.2.2"},
    }
    line = cli_workers.config_split(found, configs)
    assert line is not None and "from one path, packaged default" in line
    assert "versions 0.2.1, 0.2.2" in line
    assert line.endswith("restart them all on one scoregate version and one config file")
    assert "SCOREGATE_SCORING_CONFIG" not in line
