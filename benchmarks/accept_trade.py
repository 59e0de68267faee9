"""Faithful answers accepted at a given share of violating ones, pooled over gate sets.

    python benchmarks/accept_trade.py --set gate_dev dev.pairs dev.NAME.json \
        --set gate_holdout holdout.pairs holdout.NAME.json [--limit 0.043 ...]

Compares precision models at the top of the score, where the accept cut sits, without the
cut each model's own fit would choose: for every accept cut from 0.99 down to 0.50 (whole
percents, as the actions read them), the share of faithful and of violating answers
accepted, over all the named gate sets together (the world-knowledge kind left out, as in
``eval_gate``'s targets); then, for each ``--limit``, the cut that accepts the most
faithful answers with at most that share of violating ones, and the share of faithful
answers the curve reaches at exactly that share, read linearly between the two cuts around
it (``on_curve``): two models are compared there, not at whichever whole-percent step
happens to fall just under the limit. Each set is scored once from
pairs recorded by ``eval_gate.py --record-pairs`` on that set and a model's scores of them
(``replay.py``); only the decision is redone per cut.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import replay
from eval_gate import DATA, KINDS, fuse_all, read_jsonl, score_all
from fit_cuts import with_cuts

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config
from scoregate.config.settings import get_settings
from scoregate.scoring.engine import LocalModels

#: Accept cuts read, in whole percents (down to 0.50: a model trained towards labels may
#: score faithful answers lower than the shipped one).
GRID = tuple(round(0.99 - i / 100, 2) for i in range(50))


def accepted(
    folder: Path,
    pairs: Path,
    scores: Path,
    cfg: ScoringConfig,
    models: LocalModels,
    grid: tuple[float, ...] = GRID,
) -> tuple[int, dict[float, tuple[int, int]]]:
    """The set's triple count and, per cut, its faithful and violating answers accepted;
    ``models``' precision model is replaced by the replayed scores."""
    replay.install(models, None, [str(pairs), str(scores)])
    rows = [r for r in read_jsonl(folder.glob("*.jsonl")) if r["kind"] in KINDS]
    if not rows:
        raise SystemExit(f"{folder}: no gate triples of the kinds {KINDS}")
    tracks = {}
    for role in ("faithful", "violating"):
        role_pairs = [(r["query"], r[role]) for r in rows]
        tracks[role] = (role_pairs, score_all(role_pairs, cfg, models))
    out = {}
    for cut in grid:
        c = with_cuts(cfg, accept=cut, review=min(cfg.actions.review, cut))
        got = [
            sum(r.action == "accept" for r in fuse_all(*tracks[role], c))
            for role in ("faithful", "violating")
        ]
        out[cut] = (got[0], got[1])
    return len(rows), out


def on_curve(
    shares: dict[float, tuple[float, float]], limit: float
) -> tuple[float, float, float] | None:
    """The faithful share at exactly ``limit`` of violating answers accepted, read
    linearly between the two neighbouring cuts of ``shares`` (cut -> faithful share,
    violating share), with those two cuts; ``None`` when the curve does not reach
    ``limit`` within the cuts: even the highest accepts more violating answers, or even
    the lowest accepts fewer."""
    points = sorted(shares.items(), reverse=True)  # highest cut first: shares only grow
    if not points or points[0][1][1] > limit:
        return None
    for (hi, (f0, v0)), (lo, (f1, v1)) in zip(points, points[1:], strict=False):
        if v1 > limit:
            return f0 + (f1 - f0) * (limit - v0) / (v1 - v0), hi, lo
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--set",
        nargs=3,
        action="append",
        required=True,
        metavar=("FOLDER", "PAIRS", "SCORES"),
        help="a gate set (a folder, or its name under benchmarks/data), its recorded pairs"
        " and a model's scores of them; repeat for each set",
    )
    ap.add_argument("--limit", type=float, action="append", help="violating share (default 0.05)")
    ap.add_argument("--config", help="a scoring YAML overlay (default: the packaged config)")
    args = ap.parse_args(argv)
    cfg = load_scoring_config(args.config)
    models = LocalModels(cfg, device="cpu", backend=get_settings().cpu_backend)
    total = 0
    pooled = {cut: [0, 0] for cut in GRID}
    for folder, pairs, scores in args.set:
        path = Path(folder) if Path(folder).is_dir() else DATA / folder
        if not path.is_dir():
            raise SystemExit(f"{folder}: not a folder, nor a set under {DATA}")
        missing = [f for f in (pairs, scores) if not Path(f).is_file()]
        if missing:
            raise SystemExit(
                f"{folder}: no file {missing[0]} (record the pairs with eval_gate.py"
                " --gate-dev SET --record-pairs FILE, score them with replay.py)"
            )
        n, got = accepted(path, Path(pairs), Path(scores), cfg, models)
        total += n
        for cut, (f, v) in got.items():
            pooled[cut][0] += f
            pooled[cut][1] += v
    shares = {cut: (f / total, v / total) for cut, (f, v) in pooled.items()}
    print(f"{total} triples\n\n| accept cut | faithful accepted | violating accepted |")
    print("|---:|---:|---:|")
    for cut, (fs, vs) in shares.items():
        print(f"| {cut} | {fs:.3f} | {vs:.3f} |")
    print()
    for limit in args.limit or [0.05]:
        ok = [(fs, -cut, vs) for cut, (fs, vs) in shares.items() if vs <= limit]
        if not ok:
            print(f"violating accepted <= {limit}: no cut in the grid")
            continue
        best, neg_cut, worst = max(ok)
        print(
            f"violating accepted <= {limit}: cut {-neg_cut}, faithful {best:.3f},"
            f" violating {worst:.3f}"
        )
        curve = on_curve(shares, limit)
        if curve is None:
            print(f"  on the curve at {limit}: not reached within cuts {GRID[0]}-{GRID[-1]}")
        else:
            f, hi, lo = curve
            print(f"  on the curve at {limit}: faithful {f:.3f} (between cuts {hi} and {lo})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
