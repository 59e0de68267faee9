"""Read scoregate's import graph from source with ``ast`` (no imports run).

Shared by ``tests/unit/test_architecture.py`` (which asserts the rules) and
``benchmarks/import_graph.py`` (which prints the counts).  Function-level
imports count like module-level ones: a lazy import is still an arrow.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "scoregate"

# Layers, top to bottom.  A module may import its own layer or any layer
# below; an import of a layer above is an "arrow that runs back up".
# The first matching prefix wins, so list the more specific names first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "cli",
        (
            "scoregate.cli",
            "scoregate.cli_args",
            "scoregate.cli_errors",
            "scoregate.cli_ops",
            "scoregate.cli_output",
            "scoregate.cli_workers",
            "scoregate.demo",
            "scoregate.render",
            "scoregate.charts",
            "scoregate.reporting",
            "scoregate.terminal",
            "scoregate.server",
            "scoregate.api",
            "scoregate.__main__",
        ),
    ),
    ("workers", ("scoregate.workers",)),
    ("pipelines", ("scoregate.pipelines",)),
    ("storage", ("scoregate.storage", "scoregate.observability")),
    ("scoring", ("scoregate.scoring", "scoregate.models")),
    # Process settings and the scoring YAML's schema: scoring may read the YAML
    # schema's classes, never the process settings (see PURE_LAYERS below).
    ("config", ("scoregate.config",)),
    ("schemas", ("scoregate.schemas", "scoregate._version")),
)
RANK = {name: len(LAYERS) - index for index, (name, _) in enumerate(LAYERS)}
# The package root (``scoregate/__init__.py``) is the public facade
# (``scoregate.score``, ``submit``, ...): it calls into the layers below, so it sits
# on top and no scoregate module may import it (``__version__`` lives in
# ``scoregate._version``).
RANK["facade"] = len(LAYERS) + 1

# Third-party packages that mean I/O or process state: the pure layers must not
# import them.
IMPURE = ("redis", "sqlalchemy", "celery", "kombu", "celery_batches", "psycopg", "alembic")
PURE_LAYERS = ("scoring", "schemas")


@dataclass
class Graph:
    modules: dict[str, Path] = field(default_factory=dict)
    # module -> {(imported module, line number)}
    imports: dict[str, set[tuple[str, int]]] = field(default_factory=dict)
    # module -> {(external top-level package, line number)}
    external: dict[str, set[tuple[str, int]]] = field(default_factory=dict)
    # module -> {(name imported from scoregate.config, line number)}
    config_names: dict[str, set[tuple[str, int]]] = field(default_factory=dict)

    def edges(self, module: str) -> set[str]:
        return {target for target, _ in self.imports.get(module, set())}

    def edge_count(self) -> int:
        return sum(len(self.edges(module)) for module in self.modules)


def module_name(package_dir: Path, path: Path) -> str:
    parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(graph: Graph, name: str) -> str | None:
    """The scoregate module ``name`` names (a module, or the package holding it)."""
    while name:
        if name in graph.modules:
            return name
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return None


def _absolute(current: str, is_package: bool, level: int, module: str | None) -> str:
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def load_graph(package_dir: Path) -> Graph:
    graph = Graph()
    for path in sorted(package_dir.rglob("*.py")):
        graph.modules[module_name(package_dir, path)] = path
    for name, path in graph.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[tuple[str, int]] = set()
        external: set[tuple[str, int]] = set()
        config_names: set[tuple[str, int]] = set()
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == PACKAGE:
                        resolved = _resolve(graph, alias.name)
                        if resolved:
                            targets.add((resolved, node.lineno))
                    else:
                        external.add((alias.name.split(".")[0], node.lineno))
            elif isinstance(node, ast.ImportFrom):
                base = (
                    _absolute(name, is_package, node.level, node.module)
                    if node.level
                    else node.module or ""
                )
                if base.split(".")[0] != PACKAGE:
                    external.add((base.split(".")[0], node.lineno))
                    continue
                for alias in node.names:
                    # ``from scoregate.x import y`` imports module x.y when y is one.
                    resolved = _resolve(graph, f"{base}.{alias.name}")
                    if resolved:
                        targets.add((resolved, node.lineno))
                    if base == f"{PACKAGE}.config":
                        config_names.add((alias.name, node.lineno))
        graph.imports[name] = {(t, line) for t, line in targets if t != name}
        graph.external[name] = external
        graph.config_names[name] = config_names
    return graph


def layer_of(module: str) -> str:
    if module == PACKAGE:
        return "facade"
    for layer, prefixes in LAYERS:
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                return layer
    raise ValueError(f"module {module} is in no layer: add it to LAYERS in tests/import_graph.py")


def find_cycles(graph: Graph) -> list[list[str]]:
    """Every strongly connected component with more than one module, as a closed walk."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.edges(start)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                target = pending.pop(0)
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, sorted(graph.edges(target))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return sorted(components)


def layer_violations(graph: Graph) -> list[str]:
    """Each import that points to a higher layer, or breaks the purity rules."""
    problems: list[str] = []
    for module in sorted(graph.modules):
        layer = layer_of(module)
        for target, line in sorted(graph.imports[module]):
            target_layer = layer_of(target)
            if RANK[target_layer] > RANK[layer]:
                problems.append(f"{module}:{line} ({layer}) imports {target} ({target_layer})")
        if layer in PURE_LAYERS:
            for package, line in sorted(graph.external[module]):
                if package in IMPURE:
                    problems.append(f"{module}:{line} ({layer}) imports {package} (I/O)")
            for name, line in sorted(graph.config_names[module]):
                if name in ("Settings", "get_settings", "settings"):
                    problems.append(
                        f"{module}:{line} ({layer}) reads process settings ({name})"
                    )
    return problems


def long_modules(package_dir: Path, limit: int) -> list[tuple[str, int]]:
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append((module_name(package_dir, path), lines))
    return found
