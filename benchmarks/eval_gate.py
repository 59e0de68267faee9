"""How the gate decides on realistic requests: per kind of request, per track and fused.

    HF_HUB_OFFLINE=1 python benchmarks/eval_gate.py [--config FILE] [--model DIR] [--json OUT]

Sets (written for evaluation, never used in training; a test keeps them apart):

* ``benchmarks/data/gate_dev/*.jsonl``: requests from everyday domains, each with a
  faithful, a violating and an off-topic answer, labelled by kind (exclusion,
  negated_preference, instruction, contradiction, plain; world_knowledge reported
  apart: its violations need facts the request does not give);
* ``benchmarks/data/gate_holdout/`` and ``gate_holdout2/``: 60 triples each, same form,
  written fresh on 2026-11-26 (``--gate-dev benchmarks/data/gate_holdout2 --instructions``
  reads one alone; see docs/decisions.md for which one was read to find failures);
  ``gate_holdout3/`` (80) and ``gate_holdout4/`` (40), written fresh on 2026-11-29 by
  writers who saw neither the rules nor the other sets (``gate_holdout3`` was read to
  find failures; ``gate_holdout4`` was not); ``gate_holdout5/`` (120), written fresh on
  2026-11-29 by three more such writers in 36 new domains (not read while building;
  a few rows were shown once in a review of the change, see docs/decisions.md);
  ``gate_holdout6/`` (120), written fresh on 2026-11-30 by three more writers in 36 new
  domains, longer messages and answers (measured first, then read to find failures);
  ``gate_holdout7/`` (80), written fresh on 2026-11-30 by two more writers in 16 new
  domains (not read: only its totals are reported, see docs/decisions.md);
  ``gate_holdout8/`` (150), written fresh on 2026-11-30 by three more writers in 30 new
  domains, realistic registers (measured first, then read to find failures);
  ``gate_holdout9/`` (150), written the same way in 30 more domains (measured unread
  twice, then read to find failures); ``gate_holdout10/`` (150), written fresh on
  2026-11-30 by five more writers in 50 new domains (office administration, software
  infrastructure, family logistics, hobbies and sport, health, money and law; not read:
  only its totals are reported, see docs/decisions.md); ``gate_holdout11/`` (120), written
  fresh on 2026-11-30 by three more writers in 118 new domains, where every other
  off-topic answer is a *neighbouring* one (an answer to another question of the same
  domain, as an agent that picked up the wrong ticket writes) and the rows say which
  (``off_topic_style``; the off-topic answers are then also reported by style);
* ``benchmarks/data/instructions_*.jsonl``: requests with verifiable formatting
  instructions, each with a compliant answer and one that breaks one instruction (``dev``,
  used while building the instruction rules, and four hold-out sets written apart).

Prints, per kind: P(faithful > violating) for the semantic, precision and reward
tracks and the fused score (ties count half), and the share of accept / review /
iterate / reject for faithful, violating and off-topic answers; for each instruction
set and all of them pooled, the fused score's AUROC (compliant above non-compliant) and
the share of compliant answers accepted or sent to review. The targets of the gate are
checked at the end (the instruction targets on the pooled sets). Every figure comes
from this one run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import replay

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config
from scoregate.config.settings import get_settings
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.scoring.engine import LocalModels, model_tracks, pure_tracks
from scoregate.scoring.fusion import fuse
from scoregate_training.figures import auroc

DATA = Path(__file__).parent / "data"
GATE_DEV = DATA / "gate_dev"
INSTRUCTIONS_DEV = DATA / "instructions_dev.jsonl"
#: The instruction sets: dev (written first, used while building the rules) and four
#: hold-out sets written later by people who never saw the rules (see docs/decisions.md).
INSTRUCTION_SETS = [
    DATA / f"instructions_{n}.jsonl" for n in ("dev", "holdout", "holdout2", "holdout3", "holdout4")
]
KINDS = ("exclusion", "negated_preference", "instruction", "contradiction", "plain")
APART = ("world_knowledge",)
ROLES = ("faithful", "violating", "off_topic")
ACTIONS = ("accept", "review", "iterate", "reject")
TRACKS = ("semantic", "precision", "reward", "fused")


def scoring_config(config: str | None, model: str | None) -> ScoringConfig:
    """The scoring config (``config`` overlay or the packaged one), its precision model
    replaced by ``model`` when given."""
    cfg = load_scoring_config(config)
    if not model:
        return cfg
    return cfg.model_copy(update={"precision": cfg.precision.model_copy(update={"model": model})})


def read_jsonl(paths: Iterable[Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted(paths):
        with path.open(encoding="utf-8") as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


def score_all(
    pairs: list[tuple[str, str]], cfg: ScoringConfig, models: LocalModels
) -> list[dict[str, TrackScore]]:
    """Every track of every (query, answer) pair, the model tracks in batches."""
    sem = model_tracks(pairs, "semantic", models)
    prec = model_tracks(pairs, "precision", models)
    out = []
    for (q, a), s, p in zip(pairs, sem, prec, strict=True):
        tracks = {"semantic": s, "precision": p}
        tracks.update(pure_tracks(ScoreRequest(query=q, content=a), cfg))
        out.append(tracks)
    return out


def fuse_all(
    pairs: list[tuple[str, str]], tracks: list[dict[str, TrackScore]], cfg: ScoringConfig
) -> list[ScoreResult]:
    return [
        fuse(ScoreRequest(query=q, content=a), t, cfg)
        for (q, a), t in zip(pairs, tracks, strict=True)
    ]


def p_greater(a: list[float], b: list[float]) -> float:
    """P(a_i > b_i) over aligned pairs, ties counted half."""
    if not a:
        return float("nan")
    return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x, y in zip(a, b, strict=True)) / len(a)


def track_value(result: ScoreResult, track: str) -> float:
    if track == "fused":
        return result.score
    t = result.tracks.get(track)
    if t is None:
        return 1.0 if track == "reward" else 0.0  # no constraint inferred: nothing failed
    return t.score if t.ok and t.score is not None else 0.0


def gate_report(
    rows: list[dict[str, Any]], results: dict[str, list[ScoreResult]]
) -> dict[str, Any]:
    """Per kind (and overall): P(f > v) per track, and the action shares per role."""
    by_kind: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_kind[row["kind"]].append(i)
    core = [i for i, r in enumerate(rows) if r["kind"] in KINDS]
    groups = {**{k: by_kind[k] for k in (*KINDS, *APART) if by_kind[k]}, "overall": core}
    report: dict[str, Any] = {}
    for name, idx in groups.items():
        entry: dict[str, Any] = {"n": len(idx), "p_f_gt_v": {}, "actions": {}}
        for track in TRACKS:
            f = [track_value(results["faithful"][i], track) for i in idx]
            v = [track_value(results["violating"][i], track) for i in idx]
            entry["p_f_gt_v"][track] = round(p_greater(f, v), 3)
        for role in ROLES:
            counts = Counter(results[role][i].action for i in idx)
            entry["actions"][role] = {a: round(counts[a] / len(idx), 3) for a in ACTIONS}
        report[name] = entry
    return report


def off_topic_styles(
    rows: list[dict[str, Any]], results: dict[str, list[ScoreResult]]
) -> dict[str, dict[str, Any]]:
    """The off-topic answers' action shares by ``off_topic_style`` where a set labels it
    ("neighbouring": an answer to another question of the same domain, "unrelated")."""
    by_style: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        if row.get("off_topic_style"):
            by_style[row["off_topic_style"]].append(i)
    out = {}
    for style, idx in sorted(by_style.items()):
        counts = Counter(results["off_topic"][i].action for i in idx)
        out[style] = {"n": len(idx), **{a: round(counts[a] / len(idx), 3) for a in ACTIONS}}
    return out


def instruction_report(
    rows: list[dict[str, Any]], results: dict[str, list[ScoreResult]]
) -> dict[str, Any]:
    good = [r.score for r in results["compliant"]]
    bad = [r.score for r in results["noncompliant"]]
    passed = sum(r.action in ("accept", "review") for r in results["compliant"]) / max(len(good), 1)
    accepted = sum(r.action == "accept" for r in results["compliant"]) / max(len(good), 1)
    bad_acc = sum(r.action == "accept" for r in results["noncompliant"]) / max(len(bad), 1)
    return {
        "n": len(rows),
        "auroc": round(auroc(good, bad), 3),
        "compliant_accept_or_review": round(passed, 3),
        "compliant_accepted": round(accepted, 3),
        "noncompliant_accepted": round(bad_acc, 3),
    }


#: (where, figure, comparison, target)
TARGETS: tuple[tuple[str, str, str, float], ...] = (
    ("overall", "fused P(f>v)", ">=", 0.85),
    ("every kind", "fused P(f>v)", ">=", 0.75),
    ("overall", "faithful accept+review", ">=", 0.85),
    ("overall", "faithful accepted", ">=", 0.50),
    ("overall", "violating accepted", "<=", 0.05),
    ("overall", "off-topic rejected", ">=", 0.98),
    ("instructions", "AUROC", ">=", 0.85),
    ("instructions", "compliant accept+review", ">=", 0.70),
)


def targets(report: dict[str, Any], instr: dict[str, Any] | None) -> list[tuple[str, float, bool]]:
    o = report["overall"]
    acts = o["actions"]
    kinds = [k for k in KINDS if k in report]
    worst = min((report[k]["p_f_gt_v"]["fused"] for k in kinds), default=float("nan"))
    values = [
        o["p_f_gt_v"]["fused"],
        worst,
        acts["faithful"]["accept"] + acts["faithful"]["review"],
        acts["faithful"]["accept"],
        acts["violating"]["accept"],
        acts["off_topic"]["reject"],
        instr["auroc"] if instr else float("nan"),
        instr["compliant_accept_or_review"] if instr else float("nan"),
    ]
    out = []
    for (where, what, op, goal), value in zip(TARGETS, values, strict=True):
        ok = value >= goal if op == ">=" else value <= goal
        out.append((f"{where}: {what} {op} {goal}", round(value, 3), ok))
    return out


def print_report(report: dict[str, Any], instr: dict[str, Any] | None) -> None:
    head = f"{'kind':<20}{'n':>4}  " + "".join(f"{t:>10}" for t in TRACKS)
    print("P(faithful > violating)")
    print(head)
    for name, e in report.items():
        print(f"{name:<20}{e['n']:>4}  " + "".join(f"{e['p_f_gt_v'][t]:>10.3f}" for t in TRACKS))
    print("\nactions (accept / review / iterate / reject)")
    for name, e in report.items():
        cells = [
            f"{role}: " + "/".join(f"{e['actions'][role][a]:.2f}" for a in ACTIONS)
            for role in ROLES
        ]
        print(f"{name:<20}" + "   ".join(cells))
    if instr:
        print()
        for name, e in instr["sets"].items():
            print(
                f"instructions {name:<10} (n={e['n']:>3}): AUROC {e['auroc']:.3f}, compliant"
                f" accepted or reviewed {e['compliant_accept_or_review']:.3f} (accepted"
                f" {e['compliant_accepted']:.3f}), non-compliant accepted"
                f" {e['noncompliant_accepted']:.3f}"
            )
    print("\ntargets")
    for label, value, ok in targets(report, instr):
        if math.isnan(value):  # no instruction set was read (--instructions with none)
            print(f"  n/a   {label}: no instruction set read")
            continue
        print(f"  {'PASS' if ok else 'FAIL'}  {label}: {value}")


def write_items(
    path: Path, rows: list[dict[str, Any]], results: dict[str, list[ScoreResult]]
) -> None:
    """One line per gate answer: what it is and what the gate made of it."""
    with path.open("w", encoding="utf-8") as f:
        for i, row in enumerate(rows):
            for role in ROLES:
                r = results[role][i]
                tracks = {
                    name: round(t.score, 3) if t.ok and t.score is not None else None
                    for name, t in r.tracks.items()
                }
                item = {
                    "id": row.get("id", str(i)),
                    "kind": row["kind"],
                    "role": role,
                    "action": r.action,
                    "score": round(r.score, 3),
                    "tracks": tracks,
                    "reasons": r.reasons,
                }
                f.write(json.dumps(item, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="a scoring YAML overlay (default: the packaged config)")
    ap.add_argument("--model", help="precision model directory (default: the configured one)")
    ap.add_argument("--gate-dev", default=str(GATE_DEV), help="folder of gate dev JSONL files")
    ap.add_argument(
        "--instructions",
        nargs="*",
        default=[str(p) for p in INSTRUCTION_SETS],
        help="instruction-set JSONL files (default: dev and the four hold-out sets)",
    )
    ap.add_argument("--json", help="also write the figures to this JSON file")
    ap.add_argument(
        "--items",
        help="also write every gate answer's verdict (id, kind, role, action, score, tracks,"
        " reasons) to this JSONL file, to read what the gate got wrong",
    )
    replay.add_arguments(ap)
    args = ap.parse_args(argv)
    cfg = scoring_config(args.config, args.model)
    models = LocalModels(cfg, device="cpu", backend=get_settings().cpu_backend)
    recorder = replay.install(models, args.record_pairs, args.replay)
    rows = read_jsonl(Path(args.gate_dev).glob("*.jsonl"))
    if not rows:
        print(f"no dev rows under {args.gate_dev}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    results: dict[str, list[ScoreResult]] = {}
    for role in ROLES:
        pairs = [(r["query"], r[role]) for r in rows]
        results[role] = fuse_all(pairs, score_all(pairs, cfg, models), cfg)
    report = gate_report(rows, results)
    styles = off_topic_styles(rows, results)
    if args.items:
        write_items(Path(args.items), rows, results)
    instr: dict[str, Any] | None = None
    sets = {
        Path(f).stem.removeprefix("instructions_"): read_jsonl([Path(f)]) for f in args.instructions
    }
    sets = {name: rows_ for name, rows_ in sets.items() if rows_}
    irows = [r for rows_ in sets.values() for r in rows_]
    if irows:
        iresults: dict[str, list[ScoreResult]] = {}
        for role in ("compliant", "noncompliant"):
            pairs = [(r["prompt"], r[role]) for r in irows]
            iresults[role] = fuse_all(pairs, score_all(pairs, cfg, models), cfg)
        per_set, at = {}, 0
        for name, rows_ in sets.items():
            part = {role: res[at : at + len(rows_)] for role, res in iresults.items()}
            per_set[name] = instruction_report(rows_, part)
            at += len(rows_)
        if len(sets) > 1:
            per_set["all"] = instruction_report(irows, iresults)
        instr = {**per_set["all" if len(sets) > 1 else next(iter(sets))], "sets": per_set}
    print(
        f"{len(rows)} gate triples, {len(irows)} instruction pairs,"
        f" {time.perf_counter() - start:.0f} s\n"
    )
    print_report(report, instr)
    if styles:
        print("\noff-topic answers by style (accept / review / iterate / reject)")
        for style, e in styles.items():
            shares = "/".join(f"{e[a]:.2f}" for a in ACTIONS)
            print(f"  {style:<14}(n={e['n']:>3}): {shares}")
    if args.json:
        doc = {"gate": report, "instructions": instr, "off_topic_styles": styles}
        Path(args.json).write_text(json.dumps(doc, indent=2))
    if recorder is not None:
        n = recorder.save(Path(args.record_pairs))
        print(f"\n{n} pairs the precision model read written to {args.record_pairs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
