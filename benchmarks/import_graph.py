"""Print the shape of scoregate's import graph: circles, upward arrows, long modules.

Run from a checkout's root: ``python benchmarks/import_graph.py [PACKAGE_DIR]``.
It parses every module with ``ast`` (function-level imports included) and
never imports scoregate, so it runs on any revision of the tree.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.import_graph import (  # noqa: E402
    find_cycles,
    layer_violations,
    load_graph,
    long_modules,
    private_imports,
)


def main(argv: list[str]) -> int:
    package_dir = Path(argv[1]) if len(argv) > 1 else ROOT / "scoregate"
    graph = load_graph(package_dir)
    cycles = find_cycles(graph)
    upward = layer_violations(graph)
    long = long_modules(package_dir, limit=400)
    print(f"modules: {len(graph.modules)}  import edges: {graph.edge_count()}")
    print(f"import circles: {len(cycles)}")
    for cycle in cycles:
        print("  " + " -> ".join(cycle))
    typed = find_cycles(load_graph(package_dir, type_only=True))
    print(f"import circles, counting `if TYPE_CHECKING:` imports too: {len(typed)}")
    print(f"arrows that run back up: {len(upward)}")
    for line in upward:
        print("  " + line)
    private = private_imports(graph)
    print(f"private names imported from another module: {len(private)}")
    for line in private:
        print("  " + line)
    print(f"modules over 400 lines: {len(long)}")
    for name, lines in long:
        print(f"  {name}: {lines}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
