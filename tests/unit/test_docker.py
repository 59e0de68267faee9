"""What can be checked of docker/ without a Docker engine: the Dockerfile, the compose files,
.dockerignore, the scripts and the pip configuration handed to builds.

docker/e2e.sh runs the images for real (see docs/operations.md)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from scoregate.cli import app
from scoregate.pipelines.context import POOLS
from scoregate.workers.command import worker_argv

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
SECRET_NAMES = ("POSTGRES_PASSWORD", "FLOWER_USER", "FLOWER_PASSWORD")


def compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def stages(dockerfile: Path) -> list[list[str]]:
    """Instructions (continuation lines joined) per build stage; ARGs before FROM first."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text())
    lines = [
        ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
    ]
    out: list[list[str]] = [[]]
    for line in lines:
        if line.upper().startswith("FROM "):
            out.append([])
        out[-1].append(line)
    return out


def test_compose_has_a_service_per_pool_and_the_infrastructure():
    services = compose()["services"]
    assert set(POOLS) | {"redis", "postgres", "migrate", "flower"} <= set(services)
    for pool in POOLS:
        cmd = services[pool]["command"]
        assert cmd[:3] == ["worker", "--pool", pool]
        argv = worker_argv(pool, concurrency=int(cmd[4]) if "-c" in cmd else None)
        assert argv[2] == pool  # the queue the code routes that pool's tasks to


def test_every_long_running_service_has_a_healthcheck():
    for name, service in compose()["services"].items():
        check = service.get("healthcheck", {})
        if name == "migrate":  # runs once and exits
            continue
        assert check.get("test") and not check.get("disable"), name


def test_secrets_are_required_not_defaulted():
    text = (DOCKER / "compose.yaml").read_text()
    for name in SECRET_NAMES:
        assert f"${{{name}:?" in text, name
        assert not re.search(rf"\${{{name}:?-", text), f"{name} has a default"
    assert "--basic-auth" in text
    for name, service in compose()["services"].items():
        for key, value in (service.get("environment") or {}).items():
            if "PASSWORD" in key or key.endswith("DATABASE_URL"):
                assert "${POSTGRES_PASSWORD:?" in str(value), f"{name}: {key} is not required"


def test_the_sweeper_runs_in_the_control_service_and_beat_could_write_its_schedule():
    services = compose()["services"]
    commands = {name: s.get("command", []) for name, s in services.items()}
    consumers = [
        n
        for n, c in commands.items()
        if c[:3] in (["worker", "--pool", "control"], ["worker", "--pool", "all"])
    ]
    assert consumers == ["control"]  # the sweeper rides on control workers (startup.sweeper_on)
    env = services["control"].get("environment", {})
    assert str(env.get("SCOREGATE_SWEEPER", "true")).lower() not in ("0", "false", "no")
    assert not [n for n, c in commands.items() if {"beat", "--beat", "-B"} & set(c)]
    # `--beat` writes celerybeat-schedule to the working directory: it must be writable.
    final = stages(DOCKER / "Dockerfile")[-1]
    assert "WORKDIR /var/lib/scoregate" in final
    assert final.index("USER scoregate") < final.index("WORKDIR /var/lib/scoregate")
    assert any("chown scoregate:scoregate /var/lib/scoregate" in line for line in final)


def test_dockerfile_installs_dependencies_then_the_source_and_checks_the_import():
    first, *built = stages(DOCKER / "Dockerfile")
    assert any(line.startswith("ARG BASE_IMAGE") for line in first)
    assert all(stage[0].startswith("FROM ${BASE_IMAGE}") for stage in built)
    final = built[-1]
    text = "\n".join(final)
    deps = next(i for i, ln in enumerate(final) if "-r /tmp/requirements.txt" in ln)
    assert "tomllib" in final[deps] and "['project']['dependencies']" in final[deps]
    source = next(i for i, ln in enumerate(final) if "/wheels" in ln and "pip install" in ln)
    check = next(i for i, ln in enumerate(final) if "scoregate.__version__" in ln)
    assert deps < source < check
    assert final[check].startswith("RUN cd / &&")  # the installed package, not a source tree
    # The stale-build bug: no stub package and no source tree in the final stage.
    assert "touch scoregate/__init__.py" not in text
    assert not any(ln.startswith("COPY scoregate") for ln in final)


def test_pip_configuration_reaches_the_build_only_as_secrets():
    text = (DOCKER / "Dockerfile").read_text()
    pip_runs = [ln for ln in stages(DOCKER / "Dockerfile")[-1] if "pip install" in ln]
    assert "--mount=type=secret,id=pip_conf" in pip_runs[0]
    assert not re.search(r"^(ARG|ENV)\s+.*PIP_(CONFIG|CERT|FIND|INDEX|EXTRA)", text, re.M)
    assert "pip.conf" not in text and "/etc/ssl" not in text
    build = (DOCKER / "build.sh").read_text()
    assert "--secret" in build and "--build-arg PIP" not in build


def test_dockerignore_is_a_whitelist():
    lines = [
        ln.strip()
        for ln in (ROOT / ".dockerignore").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    assert lines[0] == "*"
    allowed = {ln[1:].rstrip("/") for ln in lines if ln.startswith("!")}
    assert allowed == {"pyproject.toml", "README.md", "scoregate"}


def test_gpu_overlay_builds_the_same_dockerfile_with_cuda_torch():
    gpu = yaml.safe_load((DOCKER / "compose.gpu.yaml").read_text())["services"]
    for pool in ("semantic", "precision"):
        devices = gpu[pool]["deploy"]["resources"]["reservations"]["devices"]
        assert devices[0]["capabilities"] == ["gpu"]
        assert gpu[pool]["build"]["dockerfile"] == "docker/Dockerfile"
        assert gpu[pool]["build"]["args"]["TORCH_VARIANT"] == "cuda"


@pytest.mark.parametrize("script", ["build.sh", "base-image.sh", "e2e.sh"])
def test_scripts_are_executable_bash(script):
    path = DOCKER / script
    assert os.access(path, os.X_OK)
    assert subprocess.run(["bash", "-n", str(path)], capture_output=True).returncode == 0


def load_pip_secret():
    spec = importlib.util.spec_from_file_location("pip_secret", DOCKER / "pip_secret.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pip_secret_serves_local_paths_and_keeps_urls(tmp_path, monkeypatch):
    index = tmp_path / "pypi" / "simple"
    index.mkdir(parents=True)
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "torch-2.13.0+cpu-cp311-cp311-linux_x86_64.whl").touch()
    cert = tmp_path / "ca.pem"
    cert.write_text("CERT")
    out, serve = tmp_path / "out", tmp_path / "out" / "serve"
    serve.mkdir(parents=True)
    module = load_pip_secret()
    monkeypatch.setattr(
        module,
        "host_config",
        lambda: {
            "index-url": "https://pypi.example/simple",
            "extra-index-url": f"file://{index}",
            "find-links": f"{wheels} /missing/dir",
            "cert": str(cert),
        },
    )
    module.main(out, serve, 8123)
    conf = (out / "pip_conf").read_text()
    assert "index-url = https://pypi.example/simple\n" in conf
    # An index is served from its parent: its pages link to ../../files/...
    assert "extra-index-url = http://127.0.0.1:8123/0/simple/\n" in conf
    assert (serve / "0").resolve() == index.parent
    assert "find-links = http://127.0.0.1:8123/1/\n" in conf
    assert "cert = /run/secrets/pip_cert" in conf and (out / "pip_cert").read_text() == "CERT"
    assert str(tmp_path) not in conf  # no host path leaks into the build
    assert (out / "has_cpu_torch").exists()


def test_migration_service_command_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", f"sqlite:///{tmp_path / 'd.db'}")
    from scoregate.config.settings import get_settings

    get_settings.cache_clear()
    try:
        out = CliRunner().invoke(app, compose()["services"]["migrate"]["command"])
    finally:
        get_settings.cache_clear()
    assert out.exit_code == 0, out.output
    assert (tmp_path / "d.db").exists()
