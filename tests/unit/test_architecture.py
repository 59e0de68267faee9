"""The house rules, read from the source: no import circles, arrows only downward.

Layers, top to bottom (see docs/architecture.md and ``tests/import_graph.py``):
facade (``scoregate/__init__``) / cli, reports, server -> workers -> pipelines ->
storage, telemetry -> settings -> scoring -> config (the scoring YAML's schema) ->
schemas. ``reports/`` imports neither front end. ``scoring/`` and ``schemas/`` do no I/O
and read no process settings. Function-level imports count; ``if TYPE_CHECKING:``
imports do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import (
    find_cycles,
    layer_of,
    layer_violations,
    load_graph,
    private_imports,
)

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "scoregate"


@pytest.fixture(scope="module")
def graph():
    return load_graph(PACKAGE_DIR)


def test_every_module_is_read_and_placed_in_a_layer(graph):
    assert {"scoregate.pipelines.control", "scoregate.workers.app"} <= set(graph.modules)
    assert graph.edge_count() > 100
    for module in graph.modules:
        layer_of(module)  # raises for a module in no layer


def test_no_import_circles(graph):
    assert find_cycles(graph) == []


def test_arrows_only_run_downward_and_the_bottom_is_pure(graph):
    assert layer_violations(graph) == []


def test_no_module_imports_another_modules_private_names(graph):
    assert private_imports(graph) == []


def test_the_known_arrows_are_seen(graph):
    """The reader sees module-level and function-level imports, and from-imports of
    submodules; without this, the two rules above could pass on an empty graph."""
    edges = graph.edges
    assert "scoregate.pipelines.publish" in edges("scoregate.pipelines.control")
    assert "scoregate.workers.runtime" in edges("scoregate")  # inside a function
    assert "scoregate.storage.repository" in edges("scoregate.pipelines.api")
    assert "scoregate.pipelines.review" in edges("scoregate.pipelines.control")


def test_the_package_root_holds_only_the_facade_and_its_leaf_helpers():
    """The command line, the reports and the telemetry live in packages of their own."""
    loose = {p.stem for p in PACKAGE_DIR.glob("*.py")}
    assert loose <= {"__init__", "__main__", "_version", "config", "extras", "logs"}, loose


def test_the_command_line_and_the_reports_sit_at_the_top(graph):
    for module in ("scoregate.cli", "scoregate.cli.jobs", "scoregate.__main__"):
        assert layer_of(module) == "cli"
    for module in ("scoregate.reports.render", "scoregate.server.app"):
        assert layer_of(module) == "cli"
    assert layer_of("scoregate.telemetry.prometheus") == "storage"
    assert "scoregate.cli.jobs" in graph.edges("scoregate.cli")
    assert "scoregate.reports.render" in graph.edges("scoregate.cli.jobs")  # inside a function
    assert "scoregate.telemetry.prometheus" in graph.edges("scoregate.pipelines.control")


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "scoregate" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "scoregate"


def test_the_checker_finds_a_circle_an_upward_arrow_and_impure_scoring(tmp_path):
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "pipelines/__init__.py": "",
            "pipelines/a.py": "from scoregate.pipelines import b\n",
            "pipelines/b.py": "def f():\n    from scoregate.pipelines.a import x, _y\n",
            "pipelines/api.py": "from scoregate.workers.runtime import get_context\n",
            "workers/__init__.py": "",
            "workers/runtime.py": "",
            "scoring/__init__.py": "",
            "scoring/engine.py": (
                "import redis\n"
                "from scoregate.config import get_settings\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from scoregate.pipelines import a\n"
            ),
            "schemas/__init__.py": "",
            "schemas/result.py": "def r():\n    from scoregate.scoring import engine\n",
            "config.py": "",
        },
    )
    graph = load_graph(package)
    assert find_cycles(graph) == [["scoregate.pipelines.a", "scoregate.pipelines.b"]]
    problems = "\n".join(layer_violations(graph))
    assert "scoregate.pipelines.api:1 (pipelines) imports scoregate.workers.runtime" in problems
    assert "scoregate.schemas.result:2 (schemas) imports scoregate.scoring.engine" in problems
    assert "scoregate.scoring.engine:1 (scoring) imports redis (I/O)" in problems
    assert "reads process settings (get_settings)" in problems
    assert "scoring.engine:5" not in problems  # a TYPE_CHECKING import is no arrow
    assert len(layer_violations(graph)) == 4
    assert private_imports(graph) == ["scoregate.pipelines.b:2 imports scoregate.pipelines.a._y"]


def test_the_checker_finds_reports_that_import_a_front_end(tmp_path):
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "cli/__init__.py": "from scoregate.reports import render\n",
            "server/__init__.py": "",
            "server/app.py": "from scoregate.reports.render import table\n",
            "reports/__init__.py": "",
            "reports/render.py": "def f():\n    from scoregate.server import app\n",
            "reports/window.py": "from scoregate.cli import console\n",
        },
    )
    assert layer_violations(load_graph(package)) == [
        "scoregate.reports.render:2 (reports) imports scoregate.server.app (a front end)",
        "scoregate.reports.window:1 (reports) imports scoregate.cli (a front end)",
    ]
