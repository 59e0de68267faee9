"""Fit the accept and review cuts on part a of the gate dev set; read them on parts b+c.

    HF_HUB_OFFLINE=1 python benchmarks/fit_cuts.py [--config FILE] [--model DIR]
        [--fit-set DIR ...]

Scores every gate dev triple once (the tracks and the fusion of ``eval_gate``), then,
for each candidate cut, re-decides the actions with that cut (the fusion is pure, so
only the decision is redone) and prints, on part a (used to fit), parts b+c (not used)
and all: the faithful answers accepted and the violating answers accepted at each accept
cut; the faithful answers accepted or reviewed at each review cut. The suggested accept
cut is the lowest that keeps violating answers accepted at or below ``--max-violating``
on part a; the suggested review cut the highest that sends ``--min-reviewed`` of
faithful answers on part a to accept or review. Every figure comes from this one run.

``--fit-set DIR`` adds the triples of a folder of gate-format JSONL files to the fit
(part a and the folder together; its own column is printed too): the sweep's held-back
training requests (``held_back_triples.py``) are long, realistic messages that no model
is trained on and no gate set is measured on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import replay
from eval_gate import GATE_DEV, KINDS, fuse_all, read_jsonl, score_all

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config
from scoregate.config.settings import get_settings
from scoregate.scoring.engine import LocalModels

#: Whole percents: the band, and the action with it, read the whole percent of the score.
ACCEPT_GRID = (
    *(round(0.99 - i / 100, 2) for i in range(15)),  # 0.99 ... 0.85: where cuts land
    0.80,
    0.75,
    0.70,
    0.65,
)
REVIEW_GRID = (0.80, 0.75, 0.70, 0.65, 0.60, 0.55, 0.50, 0.45, 0.40)


def with_cuts(cfg: ScoringConfig, **cuts: float) -> ScoringConfig:
    """``cfg`` with some cut points replaced (callers keep them in order)."""
    acts = cfg.actions.model_copy(update=cuts)
    return cfg.model_copy(update={"actions": acts})


def shares(actions: list[str], idx: list[int], wanted: tuple[str, ...]) -> float:
    return sum(actions[i] in wanted for i in idx) / max(len(idx), 1)


def row(cut: float, *cols: list[float]) -> str:
    """One Markdown table row: the cut, then each column as a / b+c / all."""
    return f"| {cut} | " + " | ".join(" / ".join(f"{x:.3f}" for x in c) for c in cols) + " |"


def read_rows(
    ap: argparse.ArgumentParser, fit_sets: list[Path]
) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
    """The gate dev triples of the judged kinds, then the fit sets'; the row indices of
    each group a figure is printed for."""
    rows: list[dict[str, Any]] = []
    parts: list[str] = []
    for path in sorted(GATE_DEV.glob("*.jsonl")):
        got = [r for r in read_jsonl([path]) if r["kind"] in KINDS]
        rows += got
        parts += [path.stem] * len(got)
    for folder in fit_sets:
        files = sorted(folder.glob("*.jsonl"))
        if not files:
            ap.error(f"--fit-set {folder}: no .jsonl files there (held_back_triples.py writes one)")
        got = [r for r in read_jsonl(files) if r["kind"] in KINDS]
        rows += got
        parts += ["extra"] * len(got)
    dev = [i for i, p in enumerate(parts) if p != "extra"]
    groups = {
        "a": [i for i, p in enumerate(parts) if p == "part_a"],
        "b+c": [i for i in dev if parts[i] != "part_a"],
        "all": dev,
    }
    extra = [i for i, p in enumerate(parts) if p == "extra"]
    if extra:
        groups.update({"fit set": extra, "fit": groups["a"] + extra})
    return rows, groups


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", help="a scoring YAML overlay (default: the packaged config)")
    ap.add_argument("--model", help="precision model directory (default: the configured one)")
    ap.add_argument("--max-violating", type=float, default=0.05)
    ap.add_argument("--min-reviewed", type=float, default=0.90)
    ap.add_argument(
        "--fit-set",
        type=Path,
        action="append",
        default=[],
        help="a folder of gate-format JSONL triples fitted on with part a (repeatable)",
    )
    replay.add_arguments(ap)
    args = ap.parse_args(argv)
    cfg = load_scoring_config(args.config)
    if args.model:
        prec = cfg.precision.model_copy(update={"model": args.model})
        cfg = cfg.model_copy(update={"precision": prec})
    models = LocalModels(cfg, device="cpu", backend=get_settings().cpu_backend)
    recorder = replay.install(models, args.record_pairs, args.replay)
    rows, groups = read_rows(ap, args.fit_set)
    extra = groups.get("fit set", [])
    fit = groups["fit" if extra else "a"]
    at = list(groups).index("fit" if extra else "a")  # the column the cuts are fitted on
    cols = " / ".join(groups)
    tracks = {}
    for role in ("faithful", "violating"):
        pairs = [(r["query"], r[role]) for r in rows]
        tracks[role] = (pairs, score_all(pairs, cfg, models))

    fitted = "part a and the fit sets" if extra else "part a"

    def actions(role: str, c: ScoringConfig) -> list[str]:
        pairs, t = tracks[role]
        return [r.action for r in fuse_all(pairs, t, c)]

    print(
        f"{len(groups['a'])} triples in part a, {len(extra)} in the fit sets (fitted on:"
        f" {len(fit)}), {len(groups['b+c'])} in parts b+c (read only)\n"
    )
    print(f"| accept cut | faithful accepted ({cols}) | violating accepted ({cols}) |")
    print("|---:|---:|---:|")
    chosen_accept = None
    for cut in ACCEPT_GRID:
        c = with_cuts(cfg, accept=cut, review=min(cfg.actions.review, cut))
        f, v = actions("faithful", c), actions("violating", c)
        fa = [shares(f, g, ("accept",)) for g in groups.values()]
        va = [shares(v, g, ("accept",)) for g in groups.values()]
        print(row(cut, fa, va))
        if va[at] <= args.max_violating:
            chosen_accept = cut
    accept = chosen_accept if chosen_accept is not None else ACCEPT_GRID[0]
    print(
        f"\nsuggested accept cut: {accept} (lowest with violating accepted <= "
        f"{args.max_violating:.0%} on {fitted})\n"
    )
    print(f"| review cut | faithful accepted or reviewed ({cols}) | violating ({cols}) |")
    print("|---:|---:|---:|")
    chosen_review = None
    for cut in REVIEW_GRID:
        c = with_cuts(cfg, accept=accept, review=cut, iterate=min(cfg.actions.iterate, cut))
        f, v = actions("faithful", c), actions("violating", c)
        fr = [shares(f, g, ("accept", "review")) for g in groups.values()]
        vr = [shares(v, g, ("accept", "review")) for g in groups.values()]
        print(row(cut, fr, vr))
        if chosen_review is None and fr[at] >= args.min_reviewed:
            chosen_review = cut
    print(
        f"\nsuggested review cut: {chosen_review} (highest sending >= "
        f"{args.min_reviewed:.0%} of faithful answers on {fitted} to accept or review)"
    )
    if recorder is not None:
        print(f"{recorder.save(Path(args.record_pairs))} pairs written to {args.record_pairs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
