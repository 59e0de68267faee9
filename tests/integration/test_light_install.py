"""A light install (no torch, sentence-transformers, matplotlib, Flower, FastAPI) in a fresh
venv: the reward, fusion and control workers import, score and start; a model pool, the
demo, the HTTP server and training refuse with one line naming the extra to install.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import require_service
from tests.integration.light_venv import HEAVY, build_light_venv

pytestmark = pytest.mark.integration

#: In the light venv: the heavy modules absent, the light worker modules imported, and a
#: reward-only request scored (fused) both ways: a hard constraint kept and broken.
SCORE_SNIPPET = """
import importlib.util, json, sys
import scoregate.workers.app, scoregate.workers.reward, scoregate.workers.fusion
import scoregate.workers.control
from scoregate.scoring.engine import score
HEAVY = %r
hard = [{"kind": "not_regex", "value": r"\\bnuts?\\b", "flags": "i", "hard": True}]
query = "Give me a simple pasta recipe without nuts."
kept = score({"query": query, "content": "Tomato spaghetti with garlic and basil.",
              "constraints": hard}, tracks=())
broken = score({"query": query, "content": "Pesto with pine nuts, tossed with spaghetti.",
                "constraints": hard}, tracks=())
print(json.dumps({
    "installed": [m for m in HEAVY if importlib.util.find_spec(m) is not None],
    "loaded": [m for m in HEAVY + ("scoregate_training",) if m in sys.modules],
    "kept": [kept.score, sorted(kept.tracks), kept.tracks["reward"].score],
    "broken": [broken.score, sorted(broken.tracks), broken.tracks["reward"].score],
}))
"""


@pytest.fixture(scope="module")
def light_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        return build_light_venv(tmp_path_factory.mktemp("light") / "venv")
    except RuntimeError as exc:  # no package index or find-links reachable
        require_service("a package index for the light install", exc)


def _run(python: Path, args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREGATE_", "PYTHON"))}
    return subprocess.run(
        [str(python), *args],
        cwd=cwd,  # not the checkout: its scoregate/ must not shadow the installed one
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_reward_fusion_control_import_and_score_without_torch(light_python, tmp_path):
    out = _run(light_python, ["-c", SCORE_SNIPPET % (HEAVY,)], tmp_path)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["installed"] == []
    assert found["loaded"] == []
    assert found["kept"][1] == ["reward"] and found["kept"][2] == 1.0
    assert found["broken"][2] < 1.0
    assert found["kept"][0] > found["broken"][0]


def test_model_pool_refuses_to_start_without_the_models_extra(light_python, tmp_path, redis_url):
    celery = ["-m", "celery", "-A", "scoregate.workers", "worker", "-c", "1", "-l", "INFO"]
    out = _run(light_python, [*celery, "-Q", "semantic"], tmp_path, SCOREGATE_BROKER_URL=redis_url)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "install scoregate[models]" in out.stderr
    assert "semantic pool" in out.stderr


def test_light_pools_start_a_real_worker(light_python, tmp_path, redis_url, pg_url):
    log = tmp_path / "worker.log"
    cmd = [str(light_python), "-m", "celery", "-A", "scoregate.workers", "worker", "-c", "1"]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREGATE_", "PYTHON"))}
    # a worker with a broker needs the shared database too (it refuses to start without it)
    env = {
        **base,
        "SCOREGATE_BROKER_URL": redis_url,
        "SCOREGATE_DATABASE_URL": pg_url,
        "SCOREGATE_SWEEPER": "0",
    }
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [*cmd, "-Q", "reward,fusion,control", "-l", "INFO"],
            cwd=tmp_path,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 90
        while "ready." not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "Traceback" not in log.read_text(errors="replace")


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["demo"], "models"),
        (["serve", "--port", "8765"], "server"),
        (["models", "train-precision", "--max-pairs", "1"], "train"),
    ],
)
def test_cli_says_which_extra_to_install(light_python, tmp_path, args, extra):
    out = _run(light_python, ["-m", "scoregate.cli", *args], tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"needs the '{extra}' extra" in out.stderr  # (train: the package is there, torch not)
    assert f"install scoregate[{extra}]" in out.stderr
    assert "Traceback" not in out.stderr
