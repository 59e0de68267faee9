"""What the gate makes of answers that name what the request rules out.

    HF_HUB_OFFLINE=1 python benchmarks/eval_exclusions.py [--gate [--model DIR]] [--items OUT.jsonl]

Set: ``benchmarks/data/exclusion_mentions/*.jsonl``: realistic requests that rule
something out (a thing or a class, an activity, a lack, a harm to avoid), each with a short
faithful answer, a long faithful answer that names the excluded thing without suggesting
it (a warning, a swap, a comparison, a reason), as good answers do, and a violating answer
that suggests it. Written fresh on 2026-11-30 by writers who saw neither the code nor any
other set: parts a, b and c (120) were measured and then read while building the rules;
parts d and e (59) were measured once, unread, at the end (``docs/decisions.md``).

Prints, per kind and overall: the share of faithful answers (short, long) that the
exclusion check flags, and the share of violating answers it catches (from the request
analysis and the lexical check, no model). With ``--gate``, also the whole gate's actions
(accept / review / iterate / reject) for each role, with the shipped models. Every figure
comes from this one run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from eval_gate import ACTIONS, fuse_all, read_jsonl, score_all, scoring_config

from scoregate.config.settings import get_settings
from scoregate.scoring.activities import affirmed_activities
from scoregate.scoring.engine import LocalModels
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze

SET = Path(__file__).parent / "data" / "exclusion_mentions"
ROLES = ("faithful_short", "faithful_long", "violating")


def flags(query: str, answer: str) -> list[str]:
    """What the lexical exclusion and activity checks report the answer affirming."""
    a = analyze(query)
    check = check_members(a.excluded, answer, asked=a.asked, request=query)
    done = affirmed_activities(answer, a.avoided)
    return [item for item, _ in check.violated] + [x.label for x, _ in done]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(SET), help="folder of JSONL files")
    ap.add_argument("--gate", action="store_true", help="also run the whole gate (models)")
    ap.add_argument("--config", help="a scoring YAML overlay for --gate (default: packaged)")
    ap.add_argument("--model", help="precision model directory for --gate (default: configured)")
    ap.add_argument("--items", help="write every answer's flags (and action) to this JSONL")
    args = ap.parse_args(argv)
    rows = read_jsonl(Path(args.data).glob("*.jsonl"))
    if not rows:
        print(f"no rows under {args.data}", file=sys.stderr)
        return 2
    found = {role: [flags(r["query"], r[role]) for r in rows] for role in ROLES}
    actions: dict[str, list[str]] = {}
    if args.gate:
        cfg = scoring_config(args.config, args.model)
        models = LocalModels(cfg, device="cpu", backend=get_settings().cpu_backend)
        for role in ROLES:
            pairs = [(r["query"], r[role]) for r in rows]
            actions[role] = [
                res.action for res in fuse_all(pairs, score_all(pairs, cfg, models), cfg)
            ]
    by_kind: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_kind[r["kind"]].append(i)
        by_kind["overall"].append(i)
    print(f"{len(rows)} requests\n")
    print(f"{'kind':10} {'n':>4}  faithful short flagged  long flagged  violating caught")
    for kind, idx in sorted(by_kind.items(), key=lambda kv: kv[0] == "overall"):
        share = {role: sum(bool(found[role][i]) for i in idx) / len(idx) for role in ROLES}
        print(
            f"{kind:10} {len(idx):>4}  {share['faithful_short']:>22.3f}"
            f"  {share['faithful_long']:>12.3f}  {share['violating']:>16.3f}"
        )
    if actions:
        print("\ngate actions (accept / review / iterate / reject)")
        for role in ROLES:
            n = len(actions[role])
            shares = "/".join(f"{actions[role].count(a) / n:.2f}" for a in ACTIONS)
            print(f"  {role:15} {shares}")
    if args.items:
        with Path(args.items).open("w", encoding="utf-8") as f:
            for i, r in enumerate(rows):
                for role in ROLES:
                    item: dict[str, Any] = {"id": r["id"], "kind": r["kind"], "role": role}
                    item["flags"] = found[role][i]
                    if actions:
                        item["action"] = actions[role][i]
                    f.write(json.dumps(item, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
