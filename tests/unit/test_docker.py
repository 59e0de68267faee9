"""What can be checked of docker/ without a Docker engine: the compose file and commands."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from scoregate.cli import app
from scoregate.pipelines.context import POOLS
from scoregate.workers.command import worker_argv

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def test_compose_has_a_service_per_pool_and_the_infrastructure():
    services = compose()["services"]
    assert set(POOLS) | {"redis", "postgres", "migrate", "flower"} <= set(services)
    assert "healthcheck" in services["postgres"]
    for pool in POOLS:
        cmd = services[pool]["command"]
        assert cmd[:3] == ["worker", "--pool", pool]
        argv = worker_argv(pool, concurrency=int(cmd[4]) if "-c" in cmd else None)
        assert argv[2] == pool  # the queue the code routes that pool's tasks to


def test_secrets_are_required_not_defaulted():
    text = (DOCKER / "compose.yaml").read_text()
    assert "${POSTGRES_PASSWORD:?" in text and "${FLOWER_PASSWORD:?" in text
    assert "--basic-auth" in text


def test_gpu_overlay_reserves_a_gpu_for_model_pools():
    gpu = yaml.safe_load((DOCKER / "compose.gpu.yaml").read_text())["services"]
    for pool in ("semantic", "precision"):
        devices = gpu[pool]["deploy"]["resources"]["reservations"]["devices"]
        assert devices[0]["capabilities"] == ["gpu"]


def test_migration_service_command_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", f"sqlite:///{tmp_path / 'd.db'}")
    from scoregate.config import get_settings

    get_settings.cache_clear()
    try:
        out = CliRunner().invoke(app, compose()["services"]["migrate"]["command"])
    finally:
        get_settings.cache_clear()
    assert out.exit_code == 0, out.output
    assert (tmp_path / "d.db").exists()
