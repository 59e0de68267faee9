"""A second reader for the top of the precision score: tried on 2026-11-30, not shipped.

    python -m scoregate_training.top_reader train --out runs/top-reader [--device cpu]
    python -m scoregate_training.top_reader combine FIRST.json SECOND.json OUT.json

``train`` scores every training pair (the held-back requests left out) with the shipped
model, keeps the faithful answers and the violations (minimal edits and the hard kinds)
it scores at or above ``--threshold``, draws as many faithful answers as there are
violations, and trains a copy of the shipped weights on them (binary cross-entropy, one
pass, 256 tokens).

``combine`` writes the cascade's scores of recorded pairs for ``eval_gate.py --replay``:
the first model's score below the threshold, ``threshold + (1 - threshold) * second``
from it up (``cascade``). FIRST and SECOND are lists of scores of the same pairs file
(``benchmarks/replay.py``); only the pairs at or above the threshold need a second score.

The figures, and why it was not shipped, are in ``docs/decisions.md`` ("A second reader
for the top of the score").
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scoregate_training.pairs import Pair

#: Where the second reader reads: the first model's score from which it decides.
THRESHOLD = 0.90
#: Roles of ``sweep.validation_pairs`` the second reader learns to score low.
VIOLATION_ROLES = frozenset({"hard", "edit"})
TRAIN_LENGTH = 256
LEARNING_RATE = 2e-5
BATCH_SIZE = 16
SEED = 7


def top_pairs(
    scored: Sequence[tuple[str, str, str, float]],
    threshold: float = THRESHOLD,
    seed: int = SEED,
    *,
    roles: frozenset[str] = VIOLATION_ROLES,
    balance: bool = True,
) -> list[Pair]:
    """Training pairs from ``(query, answer, role, first score)``: every violation of
    ``roles`` scored at or above ``threshold`` (label 0) and the faithful answers there
    (label 1): as many as the violations, drawn at random, when ``balance``, else all.
    Other roles (by default soft violations and off-topic answers) are left out."""
    top = [s for s in scored if s[3] >= threshold]
    violations = [Pair(q, a, 0.0, role) for q, a, role, _ in top if role in roles]
    faithful = [Pair(q, a, 1.0, role) for q, a, role, _ in top if role == "faithful"]
    if not balance:
        return violations + faithful
    random.Random(seed).shuffle(faithful)
    return violations + faithful[: len(violations)]


def cascade(first: float, second: float, threshold: float = THRESHOLD) -> float:
    """The first score below ``threshold``; from it up, the second reader orders the top."""
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"threshold must be between 0 and 1, got {threshold}")
    return first if first < threshold else threshold + (1.0 - threshold) * second


def combine(
    first: Sequence[float], second: Sequence[float], threshold: float = THRESHOLD
) -> list[float]:
    """``cascade`` over two aligned lists of scores of the same pairs."""
    if len(first) != len(second):
        raise ValueError(
            f"{len(first)} first scores and {len(second)} second scores: both must score"
            " the same pairs file, in its order"
        )
    return [cascade(a, b, threshold) for a, b in zip(first, second, strict=True)]


def _training_scored(device: str) -> list[tuple[str, str, str, float]]:
    """Every non-held-back training pair with the shipped model's score (whole answers,
    cut at the track's reading length)."""
    from scoregate.config.scoring_yaml import load_scoring_config
    from scoregate.scoring.encoders import load_cross_encoder
    from scoregate_training.dataset import read_edits, read_realistic
    from scoregate_training.sweep import is_validation, validation_pairs

    rows = [r for r in read_realistic() if not is_validation(r)]
    edits = [e for e in read_edits() if not is_validation(e)]
    pairs = validation_pairs(rows, edits)
    # loaded as the gate loads it: the scores the cascade reads at inference
    ce = load_cross_encoder(load_scoring_config().precision, device=device)
    scores = ce.predict([(q, a) for q, a, _, _ in pairs], batch_size=64, show_progress_bar=True)
    return [(q, a, role, float(s)) for (q, a, role, _), s in zip(pairs, scores, strict=True)]


def train(
    out: Path, threshold: float, device: str, *, soft: bool = False, balance: bool = True
) -> int:
    """Train the second reader into ``out``; the number of pairs it was trained on.
    ``soft`` adds the soft violations (answers that drop a part of the ask, or break a
    form instruction); ``balance`` draws as many faithful answers as violations."""
    from scoregate_training.sweep import SHIPPED_MODEL
    from scoregate_training.train import fit, new_cross_encoder, print_hook, save_fp16

    roles = VIOLATION_ROLES | {"soft"} if soft else VIOLATION_ROLES
    pairs = top_pairs(_training_scored(device), threshold, roles=roles, balance=balance)
    bad = sum(p.label == 0.0 for p in pairs)
    print(f"{len(pairs)} pairs at or above {threshold}, {bad} of them violations", flush=True)
    ce = new_cross_encoder(SEED, base=str(SHIPPED_MODEL), device=device)
    loss = fit(
        ce,
        pairs,
        epochs=1,
        batch_size=BATCH_SIZE,
        lr=LEARNING_RATE,
        seed=SEED,
        max_length=TRAIN_LENGTH,
        head_lr_mult=1.0,
        on_step=print_hook(10),
    )
    save_fp16(ce, out)
    print(f"last loss {loss:.3f}; saved to {out}")
    return len(pairs)


def _read_scores(path: Path) -> list[float]:
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, list) or not all(isinstance(x, int | float) for x in data):
        raise SystemExit(
            f"{path}: expected a JSON list of scores (benchmarks/replay.py writes one)"
        )
    return [float(x) for x in data]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train the second reader from the shipped weights")
    tr.add_argument("--out", type=Path, required=True, help="model folder to write")
    tr.add_argument("--threshold", type=float, default=THRESHOLD)
    tr.add_argument("--device", default="auto", help="'auto' (a GPU when visible), 'cpu'...")
    tr.add_argument("--soft", action="store_true", help="train on the soft violations too")
    tr.add_argument(
        "--all-faithful", action="store_true", help="every faithful answer at the top, unbalanced"
    )
    co = sub.add_parser("combine", help="the cascade's scores of recorded pairs")
    co.add_argument("first", type=Path, help="the shipped model's scores (JSON list)")
    co.add_argument("second", type=Path, help="the second reader's scores of the same pairs")
    co.add_argument("out", type=Path)
    co.add_argument("--threshold", type=float, default=THRESHOLD)
    args = ap.parse_args(argv)
    if not 0.0 < args.threshold < 1.0:
        ap.error(f"--threshold must be between 0 and 1, got {args.threshold}")
    if args.command == "train":
        from scoregate_training.train import resolve_device

        device = resolve_device(args.device)
        train(args.out, args.threshold, device, soft=args.soft, balance=not args.all_faithful)
        return 0
    try:
        scores = combine(_read_scores(args.first), _read_scores(args.second), args.threshold)
    except ValueError as exc:
        raise SystemExit(str(exc)) from exc
    args.out.write_text(json.dumps(scores), encoding="utf-8")
    print(f"{len(scores)} cascade scores written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
