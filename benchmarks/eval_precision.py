"""Evaluate the semantic track, the precision track and the fused score side by side.

    HF_HUB_OFFLINE=1 python benchmarks/eval_precision.py [--model DIR] [--update-card]

Sets (never used in training):
* ``benchmarks/data/request_triples_dev.jsonl``: query with a faithful, a violating and
  an off-topic answer: P(faithful > violating), P(faithful > off-topic), share of
  faithful answers scored >= 0.5;
* the held-out SemAntoNeg groups (same group split as training): AUROC of paraphrase
  above negation, share of paraphrases >= 0.5;
* probes: "I do NOT want a picture of a dog" vs "I want a picture of a dog" against
  "Here is a picture of a dog", and an unrelated answer.

"precision" is the track as configured (the model reads the request as written and,
when it excludes something, without its exclusions; the explicit check penalises an
excluded term the answer affirms); "model only" is the cross-encoder alone (exclusion
handling off), to measure what that handling adds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.encoders import (
    CPU_BACKENDS,
    load_cross_encoder,
    load_embedder,
    resolve_model_path,
)
from scoregate.scoring.precision import check_exclusions, parse_exclusions, precision_scores
from scoregate.scoring.semantic import semantic_scores
from scoregate_training.card import CARD_NAME, replace_metrics
from scoregate_training.dataset import Mix, check_data_dir, default_data_dir
from scoregate_training.figures import auroc
from scoregate_training.negation_data import group_split, read_semantoneg

TRIPLES = Path(__file__).parent / "data" / "request_triples_dev.jsonl"
DOG_NOT = "I do NOT want a picture of a dog"
DOG_WANT = "I want a picture of a dog"
DOG_ANSWER = "Here is a picture of a dog"
UNRELATED = "The quarterly VAT return must be filed by the seventh of the month."
TRACKS = ("semantic", "precision", "model only", "fused")
PENALTIES = (1.0, 0.8, 0.6, 0.4, 0.3, 0.2)
#: (metric, comparison, threshold) checked on the precision track.
TARGETS: tuple[tuple[str, str, float], ...] = (
    ("P(faithful > violating)", ">=", 0.85),
    ("P(faithful > off-topic)", ">=", 0.95),
    ("faithful >= 0.5", ">=", 0.90),
    ("SemAntoNeg AUROC", ">=", 0.95),
    ("SemAntoNeg paraphrases >= 0.5", ">=", 0.50),
    ("dog: want - do NOT want", ">=", 0.50),
    ("unrelated answer", "<=", 0.10),
)
Scorer = Callable[[list[tuple[str, str]]], list[float]]


def status(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def pairwise(a: list[float], b: list[float]) -> float:
    """Share of rows where a > b (ties count half)."""
    return sum((x > y) + 0.5 * (x == y) for x, y in zip(a, b, strict=True)) / len(a)


def share_at_least(xs: list[float], t: float) -> float:
    return sum(x >= t for x in xs) / len(xs)


def build_scorers(model_dir: str | None, backend: str = "torch") -> dict[str, Scorer | None]:
    cfg = load_scoring_config()
    prec_cfg = cfg.precision if model_dir is None else cfg.precision.model_copy(
        update={"model": model_dir})
    status(f"loading models (precision: {resolve_model_path(prec_cfg.model)})")
    emb = load_embedder(cfg.semantic, backend=backend)
    ce = load_cross_encoder(prec_cfg, backend=backend)
    bare_cfg = prec_cfg.model_copy(update={"exclusion_check": False})
    unpenalised = prec_cfg.model_copy(update={"exclusion_penalty": 1.0})

    def track(fn: Callable[..., list[Any]], model: Any, c: Any) -> Scorer:
        return lambda pairs: [t.score for t in fn(model, pairs, c)]

    return {
        "semantic": track(semantic_scores, emb, cfg.semantic),
        "precision": track(precision_scores, ce, prec_cfg),
        "model only": track(precision_scores, ce, bare_cfg),
        "fused": fused_scorer(),
        "unpenalised": track(precision_scores, ce, unpenalised),
    }


def fused_scorer() -> Scorer | None:
    try:
        from scoregate.scoring.engine import score
    except ImportError as exc:
        status(f"fused score n/a: {exc}")
        return None

    def run(pairs: list[tuple[str, str]]) -> list[float]:
        return [score({"query": q, "content": c}).score for q, c in pairs]

    return run


def eval_triples(scorer: Scorer, rows: list[dict[str, str]]) -> dict[str, float]:
    f = scorer([(r["query"], r["faithful"]) for r in rows])
    v = scorer([(r["query"], r["violating"]) for r in rows])
    o = scorer([(r["query"], r["off_topic"]) for r in rows])
    return {"P(faithful > violating)": pairwise(f, v), "P(faithful > off-topic)": pairwise(f, o),
            "faithful >= 0.5": share_at_least(f, 0.5), "mean faithful": sum(f) / len(f),
            "mean violating": sum(v) / len(v), "mean off-topic": sum(o) / len(o)}


def eval_semantoneg(scorer: Scorer, rows: list[Any]) -> dict[str, float]:
    s = scorer([(r.premise, r.hypothesis) for r in rows])
    para = [x for x, r in zip(s, rows, strict=True) if not r.negated]
    neg = [x for x, r in zip(s, rows, strict=True) if r.negated]
    return {"SemAntoNeg AUROC": auroc(para, neg),
            "SemAntoNeg paraphrases >= 0.5": share_at_least(para, 0.5)}


def eval_probes(scorer: Scorer) -> dict[str, float]:
    not_, want, unrel = scorer([(DOG_NOT, DOG_ANSWER), (DOG_WANT, DOG_ANSWER),
                                (DOG_WANT, UNRELATED)])
    return {"dog: do NOT want": not_, "dog: want": want, "dog: want - do NOT want": want - not_,
            "unrelated answer": unrel}


def evaluate(scorers: dict[str, Scorer | None], rows: list[dict[str, str]],
             heldout: list[Any]) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    for name, scorer in scorers.items():
        if scorer is None:
            continue
        start = time.perf_counter()
        status(f"{name}: triples ({len(rows)})")
        res = eval_triples(scorer, rows)
        status(f"{name}: SemAntoNeg held-out ({len(heldout)} pairs)")
        res |= eval_semantoneg(scorer, heldout)
        res |= eval_probes(scorer)
        results[name] = res
        status(f"{name}: done in {time.perf_counter() - start:.1f} s")
    return results


def _cell(results: dict[str, dict[str, float]], track: str, metric: str) -> str:
    value = results.get(track, {}).get(metric)
    return "n/a" if value is None else f"{value:.3f}"


def _verdict(value: float | None, op: str, threshold: float) -> str:
    if value is None:
        return "n/a"
    ok = value >= threshold if op == ">=" else value <= threshold
    return "PASS" if ok else "FAIL"


def table(results: dict[str, dict[str, float]]) -> str:
    """Markdown table: metrics x tracks, with the precision target and verdict."""
    targets = {m: (op, t) for m, op, t in TARGETS}
    metrics = list(next(iter(results.values())))
    lines = ["| metric | " + " | ".join(TRACKS) + " | target (precision) | |",
             "|---|" + "---:|" * len(TRACKS) + "---|---|"]
    for m in metrics:
        cells = " | ".join(_cell(results, t, m) for t in TRACKS)
        op, thr = targets.get(m, ("", 0.0))
        target = f"{op} {thr:g}" if op else ""
        verdict = _verdict(results.get("precision", {}).get(m), op, thr) if op else ""
        lines.append(f"| {m} | {cells} | {target} | {verdict} |")
    return "\n".join(lines)


def by_domain(scorer: Scorer, rows: list[dict[str, str]]) -> str:
    """Triple metrics per domain, then for queries with and without a parsed exclusion."""
    groups = {d: [r for r in rows if r["domain"] == d] for d in sorted({r["domain"] for r in rows})}
    groups["(queries with an exclusion)"] = [r for r in rows if parse_exclusions(r["query"])]
    groups["(queries without)"] = [r for r in rows if not parse_exclusions(r["query"])]
    lines = ["| domain | n | P(f>v) | P(f>off) | f >= 0.5 |", "|---|---:|---:|---:|---:|"]
    for name, sub in groups.items():
        res = eval_triples(scorer, sub)
        lines.append(f"| {name} | {len(sub)} | {res['P(faithful > violating)']:.2f} |"
                     f" {res['P(faithful > off-topic)']:.2f} | {res['faithful >= 0.5']:.2f} |")
    return "\n".join(lines)


def penalty_sweep(unpenalised: Scorer, rows: list[dict[str, str]]) -> str:
    """Precision-track triple metrics for several exclusion penalties (1.0 = none)."""
    cols = ("faithful", "violating", "off_topic")
    raw = {c: unpenalised([(r["query"], r[c]) for r in rows]) for c in cols}
    hit = {c: [bool(check_exclusions(r["query"], r[c]).violated) for r in rows] for c in cols}
    lines = [f"exclusion check flags: faithful {sum(hit['faithful'])}, violating"
             f" {sum(hit['violating'])}, off-topic {sum(hit['off_topic'])} of {len(rows)}", "",
             "| penalty | P(f>v) | P(f>off) | f >= 0.5 |", "|---:|---:|---:|---:|"]
    for pen in PENALTIES:
        adj = {c: [x * (pen if h else 1.0) for x, h in zip(raw[c], hit[c], strict=True)]
               for c in cols}
        lines.append(f"| {pen:g} | {pairwise(adj['faithful'], adj['violating']):.3f} |"
                     f" {pairwise(adj['faithful'], adj['off_topic']):.3f} |"
                     f" {share_at_least(adj['faithful'], 0.5):.3f} |")
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="precision model dir (default: the configured one)")
    ap.add_argument("--data-dir", type=Path, default=None, help="CANNOT negation TSV folder")
    ap.add_argument("--no-fused", action="store_true", help="skip scoregate.score()")
    ap.add_argument("--update-card", action="store_true",
                    help=f"write the figures into the model's {CARD_NAME}")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    ap.add_argument("--backend", choices=CPU_BACKENDS, default="torch",
                    help="CPU backend of both models (int8: quantized linear layers)")
    args = ap.parse_args()
    if args.update_card and args.backend != "torch":
        ap.error("--update-card records the shipped fp32 figures: drop --backend")
    return args


def main() -> int:
    args = parse_args()
    rows = [json.loads(line) for line in TRIPLES.read_text(encoding="utf-8").splitlines()]
    mix = Mix()
    data_dir = check_data_dir(args.data_dir or default_data_dir())
    _, heldout = group_split(read_semantoneg(data_dir), mix.heldout_fraction, seed=13)
    os.environ["SCOREGATE_CPU_BACKEND"] = args.backend  # the fused score's models too
    scorers = build_scorers(args.model, args.backend)
    if args.no_fused:
        scorers["fused"] = None
    unpenalised = scorers.pop("unpenalised")
    results = evaluate(scorers, rows, heldout)
    report = table(results)
    per_domain = by_domain(scorers["precision"], rows) if scorers["precision"] else ""
    if unpenalised:
        sweep = penalty_sweep(unpenalised, rows)
        title = "Exclusion penalty sweep (the track as configured, penalty varied)"
        per_domain += f"\n\n{title}:\n\n{sweep}"
    print(report + "\n\nPrecision track by domain:\n\n" + per_domain)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    if args.update_card:
        card = Path(resolve_model_path(args.model or load_scoring_config().precision.model))
        replace_metrics(card / CARD_NAME, _card_metrics(report, per_domain, len(rows),
                                                        len(heldout)))
        status(f"updated {card / CARD_NAME}")
    return 0 if "FAIL" not in report else 1


def _card_metrics(report: str, per_domain: str, n_rows: int, n_held: int) -> str:
    return (
        f"Measured with `python benchmarks/eval_precision.py --update-card` on"
        f" {n_rows} dev triples (`benchmarks/data/request_triples_dev.jsonl`) and"
        f" {n_held} held-out SemAntoNeg pairs. *precision* = the track as shipped"
        f" (cross-encoder with exclusion handling); *model only* = cross-encoder alone; *fused* ="
        f" `scoregate.score()` with the default profile.\n\n{report}\n\n"
        f"Precision track by domain:\n\n{per_domain}"
    )


if __name__ == "__main__":
    sys.exit(main())
