"""Optional extras: the dependency lists agree, the runtime never imports the training
code or a heavy library for a light pool, and a missing extra is one clear line."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scoregate import extras

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "scoregate"
#: The one runtime module allowed to name the training package: the CLI's guarded mount.
TRAINING_MOUNT = RUNTIME / "cli" / "training.py"


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _light_requirements() -> list[str]:
    lines = (ROOT / "requirements" / "worker-light.txt").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def _name(requirement: str) -> str:
    for i, ch in enumerate(requirement):
        if not (ch.isalnum() or ch in "-_."):
            return requirement[:i].lower()
    return requirement.lower()


def test_light_requirements_are_the_dependencies_less_models_and_server():
    project = _pyproject()
    deps = project["dependencies"]
    models = project["optional-dependencies"]["models"]
    server = project["optional-dependencies"]["server"]
    assert set(models) <= set(deps)  # the default install runs the model pools and the demo
    assert set(server) <= set(deps)  # and scoregate serve
    assert sorted(_light_requirements()) == sorted(set(deps) - set(models) - set(server))


def test_no_heavy_library_in_the_light_requirements():
    names = {_name(r) for r in _light_requirements()}
    heavy = {"torch", "sentence-transformers", "matplotlib", "flower", "transformers", "fastapi"}
    assert not names & heavy


def test_extras_name_what_the_features_need():
    opt = _pyproject()["optional-dependencies"]
    assert {_name(r) for r in opt["charts"]} == {"matplotlib"}
    assert {_name(r) for r in opt["flower"]} == {"flower"}
    assert "torch==2.13.0" in opt["models"]
    assert opt["train"] == ["scoregate[models]"]
    assert opt["all"] == ["scoregate[models,server,charts,flower,train]"]
    assert "scoregate[all]" in opt["dev"]


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_runtime_module_imports_the_training_package():
    importers = sorted(
        str(p.relative_to(ROOT))
        for p in RUNTIME.rglob("*.py")
        if "scoregate_training" in _imported_roots(p) and p != TRAINING_MOUNT
    )
    assert importers == []
    assert not (RUNTIME / "weights" / "train.py").exists()
    assert (RUNTIME / "weights" / "precision-minilm" / "config.json").is_file()  # weights stay


def test_light_worker_modules_load_no_heavy_library():
    code = (
        "import json, sys\n"
        "import scoregate.workers.app, scoregate.workers.reward, scoregate.workers.fusion\n"
        "import scoregate.workers.control\n"
        "heavy = ('torch', 'sentence_transformers', 'transformers', 'matplotlib', 'flower',"
        " 'fastapi', 'uvicorn', 'scoregate_training')\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == []


@pytest.fixture
def models_missing(monkeypatch):
    """The ``models`` and ``train`` extras as if torch were not installed."""
    absent = "scoregate_test_absent_module"
    monkeypatch.setitem(extras.EXTRA_MODULES, "models", (absent,))
    monkeypatch.setitem(extras.EXTRA_MODULES, "train", (absent,))
    return absent


def test_missing_line_names_the_extra_and_the_pip_command(models_missing):
    line = extras.missing_line("models", "the semantic pool")
    assert line is not None
    assert "the semantic pool needs the 'models' extra" in line
    assert f"({models_missing} not installed)" in line
    assert "install scoregate[models]" in line and "pip install 'scoregate[models]'" in line
    assert "\n" not in line


def test_installed_extra_has_no_line():
    assert extras.missing("models") == []  # the default install has them
    assert extras.missing_line("models", "anything") is None


def test_model_pools_line_only_for_semantic_and_precision(models_missing):
    assert extras.model_pools_line(["reward", "fusion", "control"]) is None
    line = extras.model_pools_line(["semantic", "precision", "reward"])
    assert line is not None and "the semantic and precision pool" in line


def test_worker_serving_a_model_pool_without_models_exits_2(models_missing, capsys):
    from scoregate.workers.startup import EXIT_CONFIG, refuse_model_pools_without_models

    refuse_model_pools_without_models(["reward", "control"])  # light pools start
    with pytest.raises(SystemExit) as stop:
        refuse_model_pools_without_models(["precision"])
    assert stop.value.code == EXIT_CONFIG
    err = capsys.readouterr().err
    assert "the precision pool" in err and "install scoregate[models]" in err


def test_model_track_without_models_raises_the_line(models_missing):
    from scoregate.config.settings import get_scoring_config
    from scoregate.scoring.engine import LocalModels

    with pytest.raises(extras.MissingExtraError, match=r"install scoregate\[models\]"):
        LocalModels(get_scoring_config(), device="cpu").model("semantic")


def test_chart_without_matplotlib_raises_the_line(monkeypatch, tmp_path):
    from scoregate.config.settings import get_scoring_config
    from scoregate.reports.charts import plot_histogram

    monkeypatch.setitem(extras.EXTRA_MODULES, "charts", ("scoregate_test_absent_module",))
    with pytest.raises(extras.MissingExtraError, match=r"install scoregate\[charts\]"):
        plot_histogram([0.5], tmp_path / "h.png", get_scoring_config(), title="t")
    assert not (tmp_path / "h.png").exists()


def test_cli_demo_without_models_is_one_line_and_exit_1(models_missing):
    from scoregate.cli import app

    out = CliRunner().invoke(app, ["demo"])
    assert out.exit_code == 1
    assert "install scoregate[models]" in out.output
    assert "demo finished" not in out.output


def test_cli_score_without_models_is_one_line_and_exit_1(models_missing):
    from scoregate.cli import app

    out = CliRunner().invoke(app, ["score", "-q", "a question", "-c", "an answer", "--json"])
    assert out.exit_code == 1
    assert "`scoregate score`" in out.output and "install scoregate[models]" in out.output


def test_cli_serve_without_the_server_extra_is_one_line_and_exit_1(monkeypatch):
    from scoregate.cli import app

    monkeypatch.setitem(extras.EXTRA_MODULES, "server", ("scoregate_test_absent_module",))
    out = CliRunner().invoke(app, ["serve", "--port", "8765"])
    assert out.exit_code == 1
    assert "`scoregate serve`" in out.output and "install scoregate[server]" in out.output


def test_cli_train_without_its_dependencies_is_one_line_and_exit_1(models_missing):
    from scoregate.cli import app

    out = CliRunner().invoke(app, ["models", "train-precision", "--max-pairs", "1"])
    assert out.exit_code == 1
    assert "install scoregate[train]" in out.output


def test_cli_train_without_the_training_package_says_how_to_install_it():
    from scoregate.cli.training import models_app

    out = CliRunner().invoke(models_app, ["train-precision", "--epochs", "1"])
    assert out.exit_code == 1
    assert "scoregate_training" in out.output and '".[train]"' in out.output
