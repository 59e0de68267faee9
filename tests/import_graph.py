"""Read scoregate's import graph from source with ``ast`` (no imports run).

Shared by ``tests/unit/test_architecture.py`` (which asserts the rules) and
``benchmarks/import_graph.py`` (which prints the counts).  Function-level
imports count like module-level ones: a lazy import is still an arrow.  Imports
under ``if TYPE_CHECKING:`` do not count: they never run, they only name types
for mypy (a renderer may name the schema it renders).
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
    # The front ends: the command line, the HTTP server, and the reports both print or
    # serve (reports/ imports neither of the others: see FRONT_ENDS below).
    ("cli", ("scoregate.cli", "scoregate.reports", "scoregate.server", "scoregate.__main__")),
    ("workers", ("scoregate.workers",)),
    ("pipelines", ("scoregate.pipelines",)),
    # Persistence, the research quota, and the Prometheus telemetry the steps record.
    ("storage", ("scoregate.storage", "scoregate.telemetry")),
    # Process settings (SCOREGATE_*): above scoring, so that scoring cannot read them.
    ("settings", ("scoregate.config.settings", "scoregate.logs")),
    ("scoring", ("scoregate.scoring", "scoregate.weights")),
    # The scoring YAML's schema (``scoregate.config.scoring_yaml``, ``.tracks``): scoring
    # reads its classes, never the process settings (see PURE_LAYERS below).
    ("config", ("scoregate.config",)),
    # Leaf helpers with no scoregate imports (the version, the optional-extras check).
    ("schemas", ("scoregate.schemas", "scoregate._version", "scoregate.extras")),
)
RANK = {name: len(LAYERS) - index for index, (name, _) in enumerate(LAYERS)}
# The package root (``scoregate/__init__.py``) is the public facade
# (``scoregate.score``, ``submit``, ...) and the composition root: it calls into the
# layers below, so it sits on top beside the command line (which may read its
# ``__version__``); no module below may import it (they read ``scoregate._version``).
RANK["facade"] = RANK["cli"]

# Inside the top layer: the reports are drawn for both front ends and import neither
# (importing ``scoregate.cli`` builds the whole command line).
FRONT_ENDS = ("scoregate.cli", "scoregate.server", "scoregate.__main__")
REPORTS = "scoregate.reports"

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
    # module -> {(name imported from scoregate.config or a module of it, line number)}
    config_names: dict[str, set[tuple[str, int]]] = field(default_factory=dict)
    # module -> {(module.private_name it imports from another scoregate module, line)}
    private: dict[str, set[tuple[str, int]]] = field(default_factory=dict)

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


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST, type_only: bool = False) -> list[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks (with
    ``type_only``, every node)."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        found.append(node)
        if not type_only and isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def _record(graph: Graph, name: str, is_package: bool, node: ast.AST, found: Graph) -> None:
    """Add the arrows of one import statement of module ``name`` to ``found``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            top = alias.name.split(".")[0]
            resolved = _resolve(graph, alias.name) if top == PACKAGE else None
            if resolved:
                found.imports[name].add((resolved, node.lineno))
            elif top != PACKAGE:
                found.external[name].add((top, node.lineno))
        return
    if not isinstance(node, ast.ImportFrom):
        return
    base = _absolute(name, is_package, node.level, node.module) if node.level else node.module
    base = base or ""
    if base.split(".")[0] != PACKAGE:
        found.external[name].add((base.split(".")[0], node.lineno))
        return
    for alias in node.names:
        # ``from scoregate.x import y`` imports module x.y when y is one.
        resolved = _resolve(graph, f"{base}.{alias.name}")
        if resolved and resolved != name:
            found.imports[name].add((resolved, node.lineno))
        is_module = f"{base}.{alias.name}" in graph.modules
        if alias.name.startswith("_") and not alias.name.startswith("__") and not is_module:
            found.private[name].add((f"{base}.{alias.name}", node.lineno))
        if base == f"{PACKAGE}.config" or base.startswith(f"{PACKAGE}.config."):
            found.config_names[name].add((alias.name, node.lineno))


def load_graph(package_dir: Path, type_only: bool = False) -> Graph:
    """The graph of ``package_dir``; ``type_only`` counts ``TYPE_CHECKING`` imports too."""
    graph = Graph()
    for path in sorted(package_dir.rglob("*.py")):
        graph.modules[module_name(package_dir, path)] = path
    for name, path in graph.modules.items():
        graph.imports[name] = set()
        graph.external[name] = set()
        graph.config_names[name] = set()
        graph.private[name] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _runtime_nodes(tree, type_only):
            _record(graph, name, path.name == "__init__.py", node, graph)
    return graph


def layer_of(module: str) -> str:
    if module == PACKAGE:
        return "facade"
    for layer, prefixes in LAYERS:
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                return layer
    raise ValueError(f"module {module} is in no layer: add it to LAYERS in tests/import_graph.py")


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _reachable(graph: Graph, start: str) -> set[str]:
    seen: set[str] = set()
    pending = [start]
    while pending:
        for target in graph.edges(pending.pop()):
            if target not in seen:
                seen.add(target)
                pending.append(target)
    return seen


def find_cycles(graph: Graph) -> list[list[str]]:
    """Every import circle: each set of modules that reach one another (sorted names)."""
    reach = {module: _reachable(graph, module) for module in graph.modules}
    circles: list[list[str]] = []
    placed: set[str] = set()
    for module in sorted(graph.modules):
        if module in placed or module not in reach[module]:
            continue
        members = sorted(m for m in reach[module] if module in reach[m])
        placed.update(members)
        circles.append(members)
    return circles


def layer_violations(graph: Graph) -> list[str]:
    """Each import that points to a higher layer, or breaks the purity rules."""
    problems: list[str] = []
    for module in sorted(graph.modules):
        layer = layer_of(module)
        for target, line in sorted(graph.imports[module]):
            target_layer = layer_of(target)
            if RANK[target_layer] > RANK[layer]:
                problems.append(f"{module}:{line} ({layer}) imports {target} ({target_layer})")
            elif _within(module, (REPORTS,)) and _within(target, FRONT_ENDS):
                problems.append(f"{module}:{line} (reports) imports {target} (a front end)")
        if layer in PURE_LAYERS:
            for package, line in sorted(graph.external[module]):
                if package in IMPURE:
                    problems.append(f"{module}:{line} ({layer}) imports {package} (I/O)")
            for name, line in sorted(graph.config_names[module]):
                if name in ("Settings", "get_settings", "settings"):
                    problems.append(f"{module}:{line} ({layer}) reads process settings ({name})")
    return problems


def long_modules(package_dir: Path, limit: int) -> list[tuple[str, int]]:
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append((module_name(package_dir, path), lines))
    return found


def private_imports(graph: Graph) -> list[str]:
    """Each import of another module's private name (``from x import _y``): what two
    modules share deserves a public name in a module of its own."""
    return [
        f"{module}:{line} imports {target}"
        for module in sorted(graph.modules)
        for target, line in sorted(graph.private[module])
    ]
