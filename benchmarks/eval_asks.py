"""How often the multi-part check caps an answer, by what the answer does.

    HF_HUB_OFFLINE=1 python benchmarks/eval_asks.py [--min-cosine 0.25 [0.30 ...]]

Reads the realistic requests of ``training/data/realistic`` (their faithful answers and
their violations, labelled by what each violation does), runs the semantic track on every
(request, answer) pair and counts the answers whose request the splitter reads as several
asks, and those the cap of ``fusion.missed_ask_cap`` would catch (an ask no sentence of
the answer comes within ``fusion.ask_min_cosine`` of; several values give one column each).
One run, every figure from it.
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.engine import LocalModels, model_tracks

ROOT = Path(__file__).resolve().parents[1]
REALISTIC = ROOT / "training" / "data" / "realistic"
GROUPS = {
    "drops_part": "drops a part of the request",
    "wrong_question": "answers another question",
}


def main() -> int:
    cfg = load_scoring_config()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--min-cosine", type=float, nargs="+", default=[cfg.fusion.ask_min_cosine]
    )
    args = ap.parse_args()
    rows = [
        json.loads(line)
        for path in sorted(REALISTIC.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    pairs: list[tuple[str, str, str]] = []
    for r in rows:
        pairs += [(r["query"], str(a), "faithful") for a in r["faithful"]]
        pairs += [
            (r["query"], v["text"], GROUPS.get(v.get("why"), "other violations"))
            for v in r["violating"]
        ]
    tracks = model_tracks([(q, a) for q, a, _ in pairs], "semantic", LocalModels(cfg, device="cpu"))
    cuts = args.min_cosine
    count: dict[str, list[int]] = defaultdict(lambda: [0] * (2 + len(cuts)))
    for (_, _, group), track in zip(pairs, tracks, strict=True):
        asks = track.details.get("asks", []) if track.ok else []
        entry = count[group]
        entry[0] += 1
        entry[1] += bool(asks)
        for k, cut in enumerate(cuts):
            entry[2 + k] += any(a["cosine"] < cut for a in asks)
    print(f"{len(rows)} requests, {len(pairs)} answers\n")
    print("| answers | n | request split into asks |" + "".join(f" capped at {c} |" for c in cuts))
    print("|---|---:|---:|" + "---:|" * len(cuts))
    for group in ("faithful", *GROUPS.values(), "other violations"):
        n, split, *capped = count[group]
        cells = "".join(f" {c} = {c / max(n, 1):.1%} |" for c in capped)
        print(f"| {group} | {n:,} | {split} |{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
