"""Does the gate judge an answer by its length? The length-matched set, slot by slot.

    HF_HUB_OFFLINE=1 python benchmarks/eval_length.py [--config FILE] [--model DIR] [--json OUT]

``benchmarks/data/length_matched/*.jsonl``: 250 requests written on 2026-11-29 (five
writers, ten domains each, the five kinds of the gate dev set), each with a SHORT (8-30
words) and a LONG (90-220 words) faithful answer and a LONG and a SHORT violating one, so
that length says nothing about which answer is right. Never used in training (a test
keeps the set apart from the training requests and the other evaluation sets).

Prints, for each of the four answer slots, the share of accept / review / iterate /
reject and the precision track's mean; the fused and precision P(faithful > violating)
for each pairing of lengths (ties count half), overall and per kind. A model that reads
length as evidence shows it as P(short faithful > long violating) far below P(long
faithful > long violating).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import replay
from eval_gate import (
    ACTIONS,
    KINDS,
    fuse_all,
    p_greater,
    read_jsonl,
    score_all,
    scoring_config,
    track_value,
)

from scoregate.config.settings import get_settings
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.engine import LocalModels

LENGTH_SET = Path(__file__).parent / "data" / "length_matched"
#: The four answer slots of a row: (name, field, index).
SLOTS: tuple[tuple[str, str, int], ...] = (
    ("faithful short", "faithful", 0),
    ("faithful long", "faithful", 1),
    ("violating long", "violating", 0),
    ("violating short", "violating", 1),
)
#: The pairings of P(faithful > violating): (faithful slot, violating slot).
PAIRINGS: tuple[tuple[str, str], ...] = (
    ("faithful short", "violating long"),
    ("faithful long", "violating long"),
    ("faithful short", "violating short"),
    ("faithful long", "violating short"),
)


def answer(row: dict[str, Any], field: str, index: int) -> str:
    """The slot's text: faithful answers are strings, violating ones ``{"text", "why"}``."""
    item = row[field][index]
    return str(item["text"] if isinstance(item, dict) else item)


def length_report(
    rows: list[dict[str, Any]], results: dict[str, list[ScoreResult]]
) -> dict[str, Any]:
    """Per slot the action shares and the precision mean; per pairing P(f > v)."""
    slots: dict[str, Any] = {}
    for name, _, _ in SLOTS:
        counts = Counter(r.action for r in results[name])
        prec = [track_value(r, "precision") for r in results[name]]
        slots[name] = {
            "actions": {a: round(counts[a] / len(rows), 3) for a in ACTIONS},
            "precision_mean": round(sum(prec) / len(prec), 3),
        }
    groups = {"overall": list(range(len(rows)))}
    groups |= {k: [i for i, r in enumerate(rows) if r["kind"] == k] for k in KINDS}
    pairings: dict[str, Any] = {}
    for group, idx in groups.items():
        if not idx:
            continue
        entry: dict[str, Any] = {"n": len(idx)}
        for f, v in PAIRINGS:
            entry[f"{f} > {v}"] = {
                track: round(
                    p_greater(
                        [track_value(results[f][i], track) for i in idx],
                        [track_value(results[v][i], track) for i in idx],
                    ),
                    3,
                )
                for track in ("precision", "fused")
            }
        pairings[group] = entry
    return {"n": len(rows), "slots": slots, "pairings": pairings}


def print_length_report(report: dict[str, Any]) -> None:
    print(f"{report['n']} requests, four answers each\n")
    print(f"{'slot':<18}{'accept':>8}{'review':>8}{'iterate':>8}{'reject':>8}{'precision':>11}")
    for name, e in report["slots"].items():
        acts = "".join(f"{e['actions'][a]:>8.3f}" for a in ACTIONS)
        print(f"{name:<18}{acts}{e['precision_mean']:>11.3f}")
    print("\nP(faithful > violating), precision / fused")
    short = {name: name.split()[1][0].upper() + name[0] for name, _, _ in SLOTS}
    head = "".join(f"{short[f]}>{short[v]}".rjust(14) for f, v in PAIRINGS)
    print(f"{'kind':<20}{'n':>4}{head}")
    for group, e in report["pairings"].items():
        cells = "".join(
            f"{e[f'{f} > {v}']['precision']:.2f} / {e[f'{f} > {v}']['fused']:.2f}".rjust(14)
            for f, v in PAIRINGS
        )
        print(f"{group:<20}{e['n']:>4}{cells}")
    print("\n(Sf = short faithful, Lf = long faithful, Lv = long violating, Sv = short violating)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="a scoring YAML overlay (default: the packaged config)")
    ap.add_argument("--model", help="precision model directory (default: the configured one)")
    ap.add_argument("--data", default=str(LENGTH_SET), help="folder of length-matched JSONL files")
    ap.add_argument("--json", help="also write the figures to this JSON file")
    replay.add_arguments(ap)
    args = ap.parse_args(argv)
    cfg = scoring_config(args.config, args.model)
    rows = read_jsonl(Path(args.data).glob("*.jsonl"))
    if not rows:
        print(f"no rows under {args.data}", file=sys.stderr)
        return 2
    models = LocalModels(cfg, device="cpu", backend=get_settings().cpu_backend)
    recorder = replay.install(models, args.record_pairs, args.replay)
    start = time.perf_counter()
    results: dict[str, list[ScoreResult]] = {}
    for name, field, index in SLOTS:
        pairs = [(str(r["query"]), answer(r, field, index)) for r in rows]
        results[name] = fuse_all(pairs, score_all(pairs, cfg, models), cfg)
    report = length_report(rows, results)
    print(f"scored in {time.perf_counter() - start:.0f} s")
    print_length_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    if recorder is not None:
        print(f"recorded {recorder.save(Path(args.record_pairs))} pairs to {args.record_pairs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
