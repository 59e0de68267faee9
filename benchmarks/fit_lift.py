"""Fit the precision track's short-answer lift on the requests the sweep holds back.

    python benchmarks/fit_lift.py [--model DIR] [--scores FILE]

The precision model scores a short answer low whatever it says, so the track adds
``short_answer_lift * (1 - words / short_answer_words)`` logits to a short answer's model
score (``scoregate.scoring.precision.lift_short``). This script reads the realistic
requests the training sweep holds back (one in eight, by a hash of the request; never
trained on): their faithful answers, their violations, the minimal edits of their answers
and one off-topic answer each. It scores them once with the model (or reads ``--scores``:
one float per pair, in the order ``--write-pairs`` writes them), and prints, for each lift
of the grid, what reaches the accept cut. It suggests the largest lift that adds at most
``--max-added`` violations (those the model must catch, and the minimal edits) at or above
the cut, and adds faithful answers there. The lift corrects one model's bias: fit it
again whenever the model changes (``docs/decisions.md``, "Short answers").
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from replay import score_pairs

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.precision import lift_short

#: Lifts tried, in logits.
GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
#: Roles of ``sweep.validation_pairs`` counted as violations the model must score low.
VIOLATION_ROLES = frozenset({"hard", "edit"})


@dataclass(frozen=True)
class Pair:
    query: str
    content: str
    role: str  # faithful, hard, soft, edit or off
    request: int

    @property
    def words(self) -> int:
        return len(self.content.split())


def held_back_pairs() -> list[Pair]:
    """The sweep's validation pairs: the held-back realistic requests and their edits."""
    from scoregate_training.dataset import read_edits, read_realistic
    from scoregate_training.sweep import is_validation, validation_pairs

    rows = [r for r in read_realistic() if is_validation(r)]
    edits = [e for e in read_edits() if is_validation(e)]
    return [Pair(q, a, role, i) for q, a, role, i in validation_pairs(rows, edits)]


def figures(pairs: list[Pair], scores: list[float], cfg: PrecisionConfig, cut: float) -> dict:
    """What reaches ``cut`` with ``cfg``'s lift: faithful share and short count, violations
    count, P(faithful > violation) within a request, and short faithful answers at 0.7+."""
    from scoregate_training.figures import auroc

    lifted = [lift_short(s, p.words, cfg) for p, s in zip(pairs, scores, strict=True)]
    faithful = [(p, s) for p, s in zip(pairs, lifted, strict=True) if p.role == "faithful"]
    violating = [(p, s) for p, s in zip(pairs, lifted, strict=True) if p.role in VIOLATION_ROLES]
    short = [s for p, s in faithful if p.words < cfg.short_answer_words]
    by_request: dict[int, tuple[list[float], list[float]]] = {}
    for group, members in ((0, faithful), (1, violating)):
        for p, s in members:
            by_request.setdefault(p.request, ([], []))[group].append(s)
    within = [auroc(f, v) for f, v in by_request.values() if f and v]
    return {
        "faithful": len(faithful),
        "faithful_at_cut": sum(s >= cut for _, s in faithful),
        "short_faithful": len(short),
        "short_faithful_at_cut": sum(s >= cut for s in short),
        "short_faithful_at_07": sum(s >= 0.7 for s in short),
        "violating": len(violating),
        "violating_at_cut": sum(s >= cut for _, s in violating),
        "within_p_f_gt_v": sum(within) / len(within) if within else float("nan"),
    }


def suggest(rows: dict[float, dict], max_added: int) -> float:
    """The largest lift adding at most ``max_added`` violations at the cut and at least one
    faithful answer, over no lift; 0.0 when none does."""
    base = rows[0.0]
    fits = [
        lift
        for lift, r in rows.items()
        if lift > 0
        and r["violating_at_cut"] - base["violating_at_cut"] <= max_added
        and r["faithful_at_cut"] > base["faithful_at_cut"]
    ]
    return max(fits, default=0.0)


def read_scores(path: Path, n: int) -> list[float]:
    scores = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(scores, list) or len(scores) != n:
        got = len(scores) if isinstance(scores, list) else type(scores).__name__
        raise SystemExit(
            f"{path}: expected a list of {n} scores, one per held-back pair (write them with"
            f" --write-pairs and score that file with replay.py), got {got}"
        )
    return [float(s) for s in scores]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="precision model folder (default: the configured one)")
    ap.add_argument("--scores", type=Path, help="the model's scores of the pairs, instead")
    ap.add_argument("--write-pairs", type=Path, help="write the held-back pairs here (JSONL)")
    ap.add_argument("--max-added", type=int, default=1, help="violations the lift may add")
    ap.add_argument("--config", help="a scoring YAML overlay (default: the packaged config)")
    args = ap.parse_args(argv)
    cfg = load_scoring_config(args.config)
    cut = cfg.actions.accept
    pairs = held_back_pairs()
    if args.write_pairs:
        with args.write_pairs.open("w", encoding="utf-8") as f:
            for p in pairs:
                row = {"query": p.query, "content": p.content, "role": p.role}
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    if args.scores:
        scores = read_scores(args.scores, len(pairs))
    else:
        scores = score_pairs(args.model, [(p.query, p.content) for p in pairs], args.config)
    rows = {
        lift: figures(
            pairs, scores, cfg.precision.model_copy(update={"short_answer_lift": lift}), cut
        )
        for lift in GRID
    }
    first = rows[0.0]
    print(
        f"{len(pairs)} held-back pairs: {first['faithful']} faithful"
        f" ({first['short_faithful']} under {cfg.precision.short_answer_words} words),"
        f" {first['violating']} violations; accept cut {cut}\n"
    )
    print(
        "| lift | faithful at the cut | short faithful at the cut | violations at the cut"
        " | P(f>v) within a request | short faithful >= 0.7 |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for lift, r in rows.items():
        print(
            f"| {lift} | {r['faithful_at_cut'] / r['faithful']:.3f} | {r['short_faithful_at_cut']}"
            f" | {r['violating_at_cut']} | {r['within_p_f_gt_v']:.3f}"
            f" | {r['short_faithful_at_07'] / max(r['short_faithful'], 1):.3f} |"
        )
    best = suggest(rows, args.max_added)
    print(
        f"\nsuggested short_answer_lift: {best} (the largest adding at most {args.max_added}"
        " violation(s) at the cut, and faithful answers)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
