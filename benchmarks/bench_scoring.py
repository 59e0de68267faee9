"""Per-score cost of the pure part (reward + heuristics + evidence + metrics + fusion),
with the models' cost per pair beside it, measured in one run.

    python benchmarks/bench_scoring.py [--n 2000] [--no-models]
"""

from __future__ import annotations

import argparse
import statistics
import time

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.engine import LocalModels, pure_tracks
from scoregate.scoring.fusion import fuse

ANSWER = (
    "Step 1: read the requirements. Because the data shows that demand peaks in winter, "
    "we size the cluster for that load; however, autoscaling could also absorb spikes. "
    "Assuming traffic grows roughly 20% a year, three nodes suffice [1]. According to "
    "https://docs.example.org/sizing the estimate is conservative. This is my best "
    "estimate; edge cases such as regional outages need a separate plan. In summary, "
    "start with three nodes and review quarterly.\n"
) * 2
REQUEST = ScoreRequest.model_validate(
    {
        "query": "How many nodes should the cluster start with?",
        "content": ANSWER,
        "constraints": [
            {"kind": "max_lines", "value": 40},
            {"kind": "min_words", "value": 50},
            {"kind": "contains", "value": "nodes"},
            {"kind": "not_contains", "value": "TODO"},
            {"kind": "regex", "value": r"\d+ nodes?"},
            {"kind": "not_regex", "value": r"\bFIXME\b"},
        ],
        "metadata": {"task_type": "analysis", "required_topics": ["nodes", "autoscaling", "cost"]},
        "evidence": {
            "total_numbers": 4,
            "cited_numbers": 3,
            "claims_total": 5,
            "claims_matched": 4,
            "math_checks": {"sum": True},
            "l2_warnings": 1,
            "max_age_hours": 30,
        },
        "eval_metrics": [
            {"name": "coverage", "value": 0.8, "weight": 2},
            {"name": "clarity", "value": 0.9},
        ],
    }
)


def bench_pure(n: int) -> list[float]:
    cfg = load_scoring_config()
    model_stub = {
        "semantic": TrackScore(name="semantic", score=0.8),
        "precision": TrackScore(name="precision", score=0.9),
    }
    times = []
    for _ in range(n):
        start = time.perf_counter()
        tracks = {**model_stub, **pure_tracks(REQUEST, cfg)}
        fuse(REQUEST, tracks, cfg)
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_models(pairs: int, batch: int, backend: str = "torch") -> dict[str, float]:
    cfg = load_scoring_config()
    models = LocalModels(cfg, device="cpu", backend=backend)
    data = [(REQUEST.query, f"{ANSWER[:300]} ({i})") for i in range(pairs)]
    out = {}
    for track in ("semantic", "precision"):
        models.score_pairs(track, data[:batch])  # load and warm up
        start = time.perf_counter()
        for i in range(0, pairs, batch):
            models.score_pairs(track, data[i : i + batch])
        out[track] = (time.perf_counter() - start) * 1000 / pairs
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000, help="pure scores to time")
    parser.add_argument("--pairs", type=int, default=256, help="pairs per model track")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--no-models", action="store_true")
    parser.add_argument(
        "--compare-int8", action="store_true", help="also time the models on the int8 backend"
    )
    args = parser.parse_args()
    times = sorted(bench_pure(args.n))
    p50, p95 = statistics.median(times), times[int(0.95 * len(times)) - 1]
    print(
        f"pure scoring ({args.n} scores, ~{len(ANSWER)} chars, 6 constraints, evidence, "
        f"metrics): p50 {p50:.3f} ms  p95 {p95:.3f} ms  (seed 003 promises < 5 ms)"
    )
    line = f"pure_p50_ms={p50:.4f} pure_p95_ms={p95:.4f}"
    if not args.no_models:
        per_pair = bench_models(args.pairs, args.batch)
        for track, ms in per_pair.items():
            print(
                f"{track} model: {ms:.2f} ms per pair at batch {args.batch} "
                f"({ms / p50:.0f}x the pure part)"
            )
        line += "".join(f" {t}_ms_per_pair={ms:.3f}" for t, ms in per_pair.items())
        if args.compare_int8:
            int8 = bench_models(args.pairs, args.batch, backend="int8")
            for track, ms in int8.items():
                print(
                    f"{track} model, int8 backend: {ms:.2f} ms per pair "
                    f"({per_pair[track] / ms:.2f}x faster than fp32, same run)"
                )
            line += "".join(f" {t}_int8_ms_per_pair={ms:.3f}" for t, ms in int8.items())
    print(line)


if __name__ == "__main__":
    main()
