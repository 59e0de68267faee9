"""Screen a freshly written triple set against every request the project already holds.

A fresh set is only fresh if none of its requests is a near copy of a stored one. For each
request in the new files, this prints the highest word-set Jaccard similarity against every
query and prompt under ``benchmarks/data`` and ``training/data`` (the new files themselves
left out) and fails when any reaches the limit.

    python benchmarks/screen_set.py benchmarks/data/gate_holdout12/*.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORES = (ROOT / "benchmarks" / "data", ROOT / "training" / "data")
KINDS = {"exclusion", "negated_preference", "instruction", "contradiction", "plain"}
FIELDS = ("id", "domain", "kind", "query", "faithful", "violating", "off_topic")


def words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9']+", text.lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def requests_in(path: Path) -> Iterator[str]:
    """Every query or prompt string in one stored JSONL file."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict):
                for key in ("query", "prompt", "request"):
                    if isinstance(row.get(key), str):
                        yield row[key]


def problems(row: object, where: str) -> list[str]:
    """What is wrong with one written triple, in words."""
    if not isinstance(row, dict):
        return [f"{where}: not a JSON object"]
    out = [f"{where}: missing {k!r}" for k in FIELDS if not row.get(k)]
    if row.get("kind") not in KINDS:
        out.append(f"{where}: kind {row.get('kind')!r} is not one of {sorted(KINDS)}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--limit", type=float, default=0.30, help="fail at this Jaccard or above")
    args = ap.parse_args(argv)

    new = {p.resolve() for p in args.files}
    stored = [
        words(q)
        for store in STORES
        for path in sorted(store.rglob("*.jsonl"))
        if path.resolve() not in new
        for q in requests_in(path)
    ]
    bad: list[str] = []
    worst = 0.0
    seen: list[frozenset[str]] = []
    for path in args.files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                bad.append(f"{where}: not JSON ({exc.msg})")
                continue
            issues = problems(row, where)
            bad += issues
            if issues:
                continue
            w = words(row["query"])
            top = max((jaccard(w, s) for s in stored + seen), default=0.0)
            worst = max(worst, top)
            if top >= args.limit:
                bad.append(f"{where}: request {row['id']} is {top:.3f} like a stored one")
            seen.append(w)
    print(
        f"{len(seen)} requests screened against {len(stored)} stored; highest Jaccard {worst:.3f}"
    )
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
