"""Write the requests the training sweep holds back as gate triples, to fit cuts on.

    python benchmarks/held_back_triples.py OUT_DIR

The sweep holds one realistic training request in eight back (by a hash of the request;
``scoregate_training.sweep.is_validation``): no model is trained on them, and no gate set
is built from them. They are long, realistic messages from the same writers as the
training data, so the cuts can be fitted on messages like the ones users write without
fitting them on a set the gate is measured on (``fit_cuts.py --fit-set OUT_DIR``).

Each held-back request gives up to two triples: its first faithful answer with its first
violation, its second with its second. In ``t9``-``t19`` these are the short pair and the
long pair (the violation hidden in a long answer built like the faithful one); the older
files keep no such order. The off-topic answer is a faithful answer of the next request;
the kind is the request's.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def held_back_triples() -> list[dict[str, Any]]:
    """Gate triples (``eval_gate`` format) of the sweep's held-back requests."""
    from scoregate_training.dataset import read_realistic
    from scoregate_training.sweep import is_validation

    rows = [r for r in read_realistic() if is_validation(r)]
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        other = rows[(i + 1) % len(rows)]
        for j in range(min(2, len(row["faithful"]), len(row["violating"]))):
            out.append(
                {
                    "id": f"{row['id']}-{j}",
                    "domain": row["domain"],
                    "kind": row["kind"],
                    "query": row["query"],
                    "faithful": row["faithful"][j],
                    "violating": row["violating"][j]["text"],
                    "off_topic": other["faithful"][j % len(other["faithful"])],
                }
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="folder to write held_back.jsonl in")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    triples = held_back_triples()
    path = args.out / "held_back.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for t in triples:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    print(f"{len(triples)} triples from {len({t['query'] for t in triples})} requests: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
