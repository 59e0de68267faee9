"""Train several candidate precision models and keep the one that validates best.

Meant for a GPU (a candidate takes minutes there, an hour on 2 CPU cores). One request in
``VALIDATION_SHARE`` of the hand-written realistic set (chosen by a hash of its id, so the
split is the same in every run and for every new file) is held back from training and
read to compare the candidates; the SemAntoNeg group split's held-out rows are read too.
No evaluation set of ``benchmarks/`` is read for the choice; ``--score-pairs`` only scores
pairs a caller recorded (``benchmarks/replay.py``) and writes the scores out.

    python -m scoregate_training.sweep --out runs/precision --data-dir ../shared/data/negation

writes the chosen model (fp16) to ``--out`` and every candidate's figures to
``--out/sweep.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from scoregate_training.card import write_card
from scoregate_training.dataset import (
    Mix,
    build_training_data,
    check_data_dir,
    negation_pairs,
    read_edits,
    read_realistic,
)
from scoregate_training.figures import auroc, quantile
from scoregate_training.negation_data import SemRow
from scoregate_training.pairwise import (
    blend,
    fit_pairwise,
    hard_triples,
    instruction_anchors,
    neighbour_triples,
    off_topic_anchors,
    ranking_triples,
)
from scoregate_training.train import (
    HEAD_LR_MULT,
    SAVED_MAX_LENGTH,
    TrainReport,
    fit,
    new_cross_encoder,
    print_hook,
    resolve_device,
    save_fp16,
)

#: One realistic request in this many is held back for validation.
VALIDATION_SHARE = 8
#: Violations the model itself must score low (the others are the reward track's work).
HARD_WHYS = frozenset(
    {
        "includes_excluded",
        "ignores_preference",
        "contradicts_request_facts",
        "wrong_question",
        "refuses_or_deflects",
    }
)
#: Negation pairs kept among a labelled pairwise candidate's anchors (the off-topic
#: answers join them).
LABELLED_NEGATION_ANCHORS = 4000
#: A candidate whose SemAntoNeg held-out AUROC falls below this is never chosen.
MIN_NEGATION_AUROC = 0.85
#: The shipped precision model: a candidate with ``init="shipped"`` goes on from it.
SHIPPED_MODEL = Path(__file__).resolve().parents[2] / "scoregate" / "weights" / "precision-minilm"


@dataclass(frozen=True)
class Candidate:
    """One training configuration of the sweep."""

    name: str
    seed: int = 13
    epochs: int = 2
    lr: float = 5e-5
    batch_size: int = 32
    max_length: int = 256
    mix: dict[str, Any] = field(default_factory=dict)
    #: Cut the training set to this many pairs (smoke runs only).
    max_pairs: int | None = None
    #: ``"shipped"``: go on from the shipped precision model (head kept, so no head boost)
    #: instead of a new head on the MiniLM bi-encoder.
    init: str | None = None
    #: ``"pointwise"``: each pair at its label (``train.fit``); ``"pairwise"``: each
    #: faithful answer above the violations of its own request (``pairwise.fit_pairwise``,
    #: one pass, ``batch_size`` triples a step; ``epochs`` and ``mix`` are not read).
    objective: str = "pointwise"
    #: Pairwise only: logits between a faithful answer and its violation before a triple
    #: costs nothing, the weight of the anchors, and whether the violations are also read
    #: at their labels with off-topic answers among the anchors (see ``pairwise``).
    margin: float = 1.0
    anchor: float = 0.3
    label_worse: bool = False
    #: Pairwise only: pair each violation with every faithful answer of its request
    #: (``pairwise.ranking_triples``), not one drawn at random.
    every_faithful: bool = False
    #: Train only on the realistic requests of these files (``t9`` for
    #: ``training/data/realistic/t9.jsonl``, by the request's id) and their edits; empty:
    #: all. A second, short pass over newly written requests goes on from an earlier
    #: candidate this way (``--init``).
    only: tuple[str, ...] = ()
    #: Pairwise only: this share of the anchors read are answers to the instruction
    #: requests of all the training files (``pairwise.instruction_anchors``), ``only`` or not.
    instruction_share: float = 0.0
    #: Pairwise only: keep only the triples whose violation the starting model scores at
    #: or above this (``pairwise.hard_triples``): the top of the score, where the accept
    #: cut reads.
    mine_above: float | None = None
    #: Pairwise only: also rank each training request's faithful answer above a faithful
    #: answer of this many other requests of its domain (``pairwise.neighbour_triples``,
    #: every request file, ``only`` or not): wrong-ticket answers.
    neighbours: int = 0
    #: Pairwise only: rank each violation below its request's faithful answers (False:
    #: train on the neighbour triples alone, the anchors kept).
    violations: bool = True

    @property
    def head_lr_mult(self) -> float:
        return 1.0 if self.init else HEAD_LR_MULT


def _warm(name: str, lr: float, epochs: int = 1, **mix: Any) -> Candidate:
    """A candidate that goes on from the shipped model: 128 tokens, batch 32."""
    return Candidate(name, epochs=epochs, lr=lr, max_length=128, mix=mix, init="shipped")


def _ranking(name: str, max_length: int = 128, lr: float = 1e-5, **options: Any) -> Candidate:
    """A pairwise candidate on from the shipped model: 8 triples a step, ``lr`` and
    ``max_length`` tokens; ``options`` set the anchor, labels and pairing."""
    return Candidate(
        name,
        lr=lr,
        batch_size=8,
        max_length=max_length,
        init="shipped",
        objective="pairwise",
        **options,
    )


#: The request files written with a short and a long faithful answer and a short and a
#: long violation for every request (2026-11-29).
NEW_REQUEST_SETS = ("t9", "t10", "t11", "t12", "t13", "t14")

#: Requests written with the same shape on 2026-11-30, two in five of them plain requests
#: whose violations answer a neighbouring question or drop a part of a multi-part ask.
NEWER_REQUEST_SETS = ("t15", "t16", "t17", "t18", "t19")


#: The pairing of the instruction-anchored passes: each violation below every faithful
#: answer of its request and read at its label, a third of the anchors the answers to the
#: instruction requests.
_ANCHORED: dict[str, Any] = {
    "anchor": 0.5,
    "label_worse": True,
    "every_faithful": True,
    "instruction_share": 1 / 3,
}


#: What a sweep can try (``--candidates`` picks; a sweep cut short keeps the best so far):
#: batch size and learning rate, epochs, the target of a broken form, the seed, the data.
DEFAULT_CANDIDATES: tuple[Candidate, ...] = (
    Candidate("b64-e3-lr8e-5", epochs=3, lr=8e-5, batch_size=64),
    Candidate("b64-e3-lr8e-5-fmt09", epochs=3, lr=8e-5, batch_size=64, mix={"format_label": 0.9}),
    Candidate("b32-e3-lr5e-5", epochs=3),
    Candidate("b64-e4-lr8e-5", epochs=4, lr=8e-5, batch_size=64),
    Candidate("b64-e3-lr8e-5-s14", epochs=3, lr=8e-5, batch_size=64, seed=14),
    # the shipped model's recipe (one epoch, 128 tokens) with the new data, edits once
    Candidate("b32-e1-lr8e-5-t128-ed1", epochs=1, lr=8e-5, max_length=128, mix={"edit_rounds": 1}),
    Candidate("b32-e1-lr8e-5-ed1", epochs=1, lr=8e-5, mix={"edit_rounds": 1}),
    # on from the shipped model: a gentle pass over the new data
    _warm("warm-lr2e-5-ed1", 2e-5, edit_rounds=1),
    _warm("warm-lr1e-5-ed1", 1e-5, edit_rounds=1),
    _warm("warm-lr2e-5-ed0", 2e-5, edit_rounds=0),
    _warm("warm-lr2e-5-ed3", 2e-5),
    _warm("warm-lr4e-5-ed1", 4e-5, edit_rounds=1),
    _warm("warm-lr2e-5-ed1-e2", 2e-5, epochs=2, edit_rounds=1),
    # milder: no edits, a smaller step; one that leans on the negation data; and the
    # shipped one (2026-11-26): no edits, a broken form at 0.9
    _warm("warm-lr1e-5-ed0", 1e-5, edit_rounds=0),
    _warm("warm-lr5e-6-ed0", 5e-6, edit_rounds=0),
    _warm("warm-lr1e-5-neg", 1e-5, edit_rounds=0, realistic_rounds=1, negated=6000),
    _warm("warm-lr1e-5-ed0-fmt09", 1e-5, edit_rounds=0, format_label=0.9),
    # ranking instead of labels, on from the shipped model: 2026-11-29, on 2 CPU cores
    # (docs/decisions.md); the second also reads the violations at their labels
    _ranking("warm-pairwise-lr1e-5"),
    _ranking("warm-pairwise-labels-lr1e-5", anchor=0.5, label_worse=True),
    # the same, each violation ranked below every faithful answer of its request (t9-t11
    # give each request a short and a long of both): 2026-11-29, fifth session
    _ranking(
        "warm-pairwise-labels-every-lr1e-5", anchor=0.5, label_worse=True, every_faithful=True
    ),
    # a second, short pass of that pairing over the requests written with a short and a
    # long of both (t9-t14), on from a first pass (``--init RUN``): 2026-11-29, sixth session
    _ranking(
        "new-pairwise-labels-every-lr1e-5",
        anchor=0.5,
        label_worse=True,
        every_faithful=True,
        only=NEW_REQUEST_SETS,
    ),
    # the same with a third of its anchors the instruction requests' answers: that pass
    # alone lowered the instruction sets' AUROC 0.885 -> 0.826; with them 0.870 (2026-11-29,
    # seventh session: on 2 CPU cores, not shipped, docs/decisions.md)
    _ranking("new-pairwise-labels-every-instr-lr1e-5", only=NEW_REQUEST_SETS, **_ANCHORED),
    # the same at the length the precision track reads (256 tokens): every pass above,
    # this one's 128-token twin included, trained at 128 (2026-11-30, tenth session)
    _ranking(
        "new-pairwise-labels-every-instr-t256-lr1e-5",
        only=NEW_REQUEST_SETS,
        max_length=256,
        **_ANCHORED,
    ),
    # a second pass of it over the newer requests, on from it (``--init RUN``)
    _ranking(
        "newer-pairwise-labels-every-instr-t256-lr1e-5",
        only=NEWER_REQUEST_SETS,
        max_length=256,
        **_ANCHORED,
    ),
    # the pass over the newer requests, with each training request's answer ranked above
    # the answer to another request of its domain (wrong-ticket answers, which the relevance
    # gate passes): 2026-12-01, seventeenth session, on 2 CPU cores at 128 tokens
    _ranking(
        "neighbour-newer-pairwise-labels-every-instr-lr1e-5",
        only=NEWER_REQUEST_SETS,
        neighbours=1,
        **_ANCHORED,
    ),
    # the same with two neighbours a request and twice the step: the first moved the
    # wrong-ticket answers' scores little (same session)
    _ranking(
        "neighbour2-newer-pairwise-labels-every-instr-lr2e-5",
        only=NEWER_REQUEST_SETS,
        neighbours=2,
        lr=2e-5,
        **_ANCHORED,
    ),
    # both moved the gate dev set's ranking of violations down with the newer requests'
    # pass (0.887 -> 0.818): the neighbour triples alone, the anchors kept (same session)
    _ranking(
        "neighbour2-only-labels-instr-lr2e-5",
        neighbours=2,
        violations=False,
        lr=2e-5,
        **_ANCHORED,
    ),
    # every request file, only the violations the shipped model scores 0.9 or more: the
    # top of the score, where every model so far accepts the same share (seventh session)
    _ranking("mined-pairwise-labels-every-instr-lr1e-5", mine_above=0.9, **_ANCHORED),
)


def is_validation(row: dict[str, object]) -> bool:
    """Whether a realistic request (or an edit of its answer) is held back: a stable hash
    of the request's words, so a request and its edits fall on the same side."""
    words = " ".join(str(row["query"]).lower().split())
    return zlib.crc32(words.encode()) % VALIDATION_SHARE == 0


def request_set(row: dict[str, Any]) -> str:
    """The file a realistic request comes from, by its id: ``"t9"`` for ``"t9-0002"``."""
    return str(row.get("id", "")).split("-", 1)[0]


def as_stored(ce: Any) -> Any:
    """``ce`` as the shipped model reads: weights rounded to fp16 (how they are stored),
    eval mode, and the stored token window (training used a shorter one), so pairs an
    evaluation chunked for that window are scored whole."""
    ce.model.eval()
    ce.model.half().float()
    ce.max_seq_length = SAVED_MAX_LENGTH
    return ce


def validation_pairs(
    rows: list[dict[str, Any]], edits: list[dict[str, Any]], seed: int = 13
) -> list[tuple[str, str, str, int]]:
    """(query, answer, role, request index): faithful, hard/soft violations (minimal edits
    among the hard ones), off-topic."""
    rng = random.Random(seed)
    out: list[tuple[str, str, str, int]] = []
    index = {str(r["query"]): i for i, r in enumerate(rows)}
    for e in edits:
        if str(e["query"]) in index:
            out.append((str(e["query"]), str(e["text"]), "edit", index[str(e["query"])]))
    for i, row in enumerate(rows):
        q = str(row["query"])
        out += [(q, str(a), "faithful", i) for a in row["faithful"]]
        for v in row["violating"]:
            role = "hard" if v.get("why") in HARD_WHYS else "soft"
            out.append((q, str(v["text"]), role, i))
        j = rng.randrange(len(rows) - 1)
        other = rows[j + (j >= i)]
        out.append((q, str(rng.choice(other["faithful"])), "off", i))
    return out


def validate(
    ce: Any, rows: list[dict[str, Any]], edits: list[dict[str, Any]], heldout: list[SemRow]
) -> dict[str, float]:
    """The figures a candidate is chosen by (see ``choice_score``)."""
    pairs = validation_pairs(rows, edits)
    scores = [float(s) for s in ce.predict([(q, a) for q, a, _, _ in pairs], batch_size=64)]
    by: dict[str, list[float]] = {"faithful": [], "hard": [], "soft": [], "off": [], "edit": []}
    per_request: dict[int, dict[str, list[float]]] = {}
    for (_, _, role, i), s in zip(pairs, scores, strict=True):
        by[role].append(s)
        group = "hard" if role == "edit" else role  # an edit is a hard violation
        per_request.setdefault(i, {"faithful": [], "hard": []}).setdefault(group, []).append(s)
    by["hard"] += by["edit"]
    within = [
        auroc(r["faithful"], r["hard"]) for r in per_request.values() if r["faithful"] and r["hard"]
    ]
    v95 = quantile(by["hard"], 0.95)
    sem = ce.predict([(r.premise, r.hypothesis) for r in heldout], batch_size=64)
    neg = [float(s) for s in sem]
    return {
        "P(f>v) within request": sum(within) / len(within),
        "AUROC faithful vs hard": auroc(by["faithful"], by["hard"]),
        "faithful above hard p95": sum(f > v95 for f in by["faithful"]) / len(by["faithful"]),
        "hard p95": v95,
        "mean faithful": sum(by["faithful"]) / len(by["faithful"]),
        "mean hard": sum(by["hard"]) / len(by["hard"]),
        "mean soft": sum(by["soft"]) / max(len(by["soft"]), 1),
        "AUROC faithful vs off-topic": auroc(by["faithful"], by["off"]),
        "AUROC faithful vs edits": auroc(by["faithful"], by["edit"]),
        "SemAntoNeg AUROC": auroc(
            [s for s, r in zip(neg, heldout, strict=True) if not r.negated],
            [s for s, r in zip(neg, heldout, strict=True) if r.negated],
        ),
    }


def choice_score(m: dict[str, float]) -> float:
    """Higher is better: separation within a request, faithful answers clear of the
    violations the model misses (what the accept cut needs) and negation (half weight);
    negation below its floor rules a candidate out."""
    if m["SemAntoNeg AUROC"] < MIN_NEGATION_AUROC:
        return -1.0
    return m["P(f>v) within request"] + m["faithful above hard p95"] + 0.5 * m["SemAntoNeg AUROC"]


def _init_dir(c: Candidate) -> str | None:
    """The folder ``c`` starts from when it goes on from a trained model."""
    return str(SHIPPED_MODEL) if c.init == "shipped" else c.init


@dataclass(frozen=True)
class _Trained:
    """What one candidate's training did (the sweep's record of it)."""

    loss: float
    pairs: int
    steps: int
    sources: dict[str, int]
    heldout: list[SemRow]


def run_candidate(
    c: Candidate,
    data_dir: Path,
    rows: list[dict[str, Any]],
    edits: list[dict[str, Any]],
    base: str | None,
    device: str,
) -> tuple[Any, dict[str, Any]]:
    """Train one candidate on ``rows`` and ``edits`` (those not held back)."""
    every_row = rows
    if c.only:
        rows = [r for r in rows if request_set(r) in c.only]
        if not rows:
            raise SystemExit(f"{c.name}: no training request comes from {list(c.only)}")
        ids = {r["id"] for r in rows}
        edits = [e for e in edits if e.get("source_id") in ids]
    ce = new_cross_encoder(c.seed, base=_init_dir(c) or base, device=device)
    start = time.perf_counter()
    if c.objective == "pairwise":
        done = _train_pairwise(c, ce, data_dir, rows, edits, every_row)
    else:
        done = _train_pointwise(c, ce, data_dir, rows, edits)
    info = {
        "candidate": asdict(c),
        "pairs": done.pairs,
        "steps": done.steps,
        "seconds": time.perf_counter() - start,
        "final_loss": done.loss,
        "sources": done.sources,
    }
    return ce, {"heldout": done.heldout, **info}


def _train_pointwise(
    c: Candidate,
    ce: Any,
    data_dir: Path,
    rows: list[dict[str, Any]],
    edits: list[dict[str, Any]],
) -> _Trained:
    """``c.epochs`` passes over the mix, each pair towards its label."""
    mix = replace(Mix(), **c.mix)
    data = build_training_data(data_dir, c.seed, mix, c.max_pairs, realistic=rows, edits=edits)
    loss = fit(
        ce,
        data.pairs,
        epochs=c.epochs,
        batch_size=c.batch_size,
        lr=c.lr,
        seed=c.seed,
        max_length=c.max_length,
        head_lr_mult=c.head_lr_mult,
        on_step=print_hook(250, label=f"{c.name}: "),
    )
    steps = -(-len(data.pairs) // c.batch_size) * c.epochs
    return _Trained(loss, len(data.pairs), steps, data.summary(), data.heldout)


def _train_pairwise(
    c: Candidate,
    ce: Any,
    data_dir: Path,
    rows: list[dict[str, Any]],
    edits: list[dict[str, Any]],
    every_row: list[dict[str, Any]],
) -> _Trained:
    """One pass of ranking triples, the negation pairs of the mix as anchors (and, with
    ``c.instruction_share``, the instruction requests of ``every_row``)."""
    rng = random.Random(c.seed)
    triples = ranking_triples(rows, edits, rng, every_faithful=c.every_faithful)
    if not c.violations:
        triples = []
    negs = negation_pairs(check_data_dir(data_dir), Mix(), c.seed)
    anchors = list(negs.pairs)
    if c.label_worse:
        anchors = anchors[:LABELLED_NEGATION_ANCHORS] + off_topic_anchors(rows, rng)
    rng.shuffle(anchors)
    if c.instruction_share:
        anchors = blend(anchors, instruction_anchors(every_row), c.instruction_share, rng)
    if c.neighbours:
        triples = triples + neighbour_triples(every_row, rng, c.neighbours)
        rng.shuffle(triples)
    if c.max_pairs:
        triples = triples[: c.max_pairs]
    if c.mine_above is not None:
        every = len(triples)
        triples = hard_triples(ce, triples, c.mine_above)
        print(f"{c.name}: {len(triples)} of {every} triples, violation >= {c.mine_above}")
    loss = fit_pairwise(
        ce,
        triples,
        anchors,
        lr=c.lr,
        batch_size=c.batch_size,
        margin=c.margin,
        anchor=c.anchor,
        max_length=c.max_length,
        label_worse=c.label_worse,
        on_step=print_hook(25, label=f"{c.name}: "),
    )
    sources = Counter(t.source for t in triples)
    steps = -(-len(triples) // c.batch_size)
    named = {f"triple-{k}": v for k, v in sorted(sources.items())}
    return _Trained(loss, len(triples), steps, named, negs.heldout)


def sweep(
    out: Path,
    data_dir: Path,
    candidates: tuple[Candidate, ...] = DEFAULT_CANDIDATES,
    base: str | None = None,
    device: str = "auto",
    score_pairs: list[tuple[str, str]] | None = None,
    keep_all: bool = False,
) -> dict[str, Any]:
    """Train every candidate, validate each, save the best (fp16) and ``sweep.json``.

    ``score_pairs``: (query, content) pairs every candidate also scores, written to
    ``out/scores/NAME.json`` in the same order (a list of floats), e.g. the pairs an
    evaluation recorded with ``benchmarks/replay.py``. ``keep_all``: also save every
    candidate to ``out/candidates/NAME``.
    """
    device = resolve_device(device)
    for c in candidates:
        start = _init_dir(c)
        if start is not None and out.resolve() == Path(start).resolve():
            raise SystemExit(
                f"--out {out} is where {c.name} starts from: the sweep saves its best model"
                " there while later candidates still load it; pass another --out"
            )
    all_rows, all_edits = read_realistic(), read_edits()
    val = [r for r in all_rows if is_validation(r)]
    train_rows = [r for r in all_rows if not is_validation(r)]
    val_edits = [e for e in all_edits if is_validation(e)]
    train_edits = [e for e in all_edits if not is_validation(e)]
    print(
        f"realistic requests: {len(train_rows)} train, {len(val)} validation;"
        f" edits: {len(train_edits)} train, {len(val_edits)} validation",
        flush=True,
    )
    results: list[dict[str, Any]] = []
    best: float | None = None
    report: dict[str, Any] = {}
    for c in candidates:
        ce, info = run_candidate(c, data_dir, train_rows, train_edits, base, device)
        as_stored(ce)
        metrics = validate(ce, val, val_edits, info.pop("heldout"))
        score = choice_score(metrics)
        results.append({**info, "metrics": metrics, "choice_score": score})
        print(json.dumps({"name": c.name, "score": round(score, 4), **metrics}), flush=True)
        if score_pairs:
            scores = ce.predict(score_pairs, batch_size=128, show_progress_bar=False)
            (out / "scores").mkdir(parents=True, exist_ok=True)
            payload = [float(x) for x in scores]
            (out / "scores" / f"{c.name}.json").write_text(json.dumps(payload), encoding="utf-8")
        if keep_all:
            save_fp16(ce, out / "candidates" / c.name)
        if best is None or score > best:
            best = score  # saved at once: a sweep cut short keeps its best model so far
            save_fp16(ce, out)
            write_card(out, _report(out, info), _card_params(c, device, len(candidates), val))
        report = {
            "chosen": max(results, key=lambda r: r["choice_score"])["candidate"]["name"],
            "validation_requests": len(val),
            "validation_edits": len(val_edits),
            "train_requests": len(train_rows),
            "candidates": results,
        }
        (out / "sweep.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
        del ce
    return report


def _report(out: Path, info: dict[str, Any]) -> TrainReport:
    keys = ("pairs", "steps", "seconds", "final_loss", "sources")
    return TrainReport(out, **{k: info[k] for k in keys})


def _card_params(c: Candidate, device: str, n: int, val: list[dict[str, Any]]) -> dict[str, Any]:
    import torch

    hardware = torch.cuda.get_device_name() if device.startswith("cuda") else "CPU"
    command = (
        "python -m scoregate_training.sweep --out runs/precision"
        f" --data-dir ../shared/data/negation --candidates {c.name}"
        + (" --init PREVIOUS" if c.init else "")
    )
    selection = (
        f" Chosen by `scoregate_training.sweep` as {c.name} (batch {c.batch_size}, lr"
        f" {c.lr:g}, {c.epochs} epochs, mix {c.mix or 'default'}) of {n} candidates,"
        f" on {len(val)} held-back realistic requests (one in {VALIDATION_SHARE}, by a hash"
        " of the request; not trained on), their minimal edits and the held-out SemAntoNeg"
        " groups. Shipped by copying `runs/precision` into `scoregate/weights/precision-minilm`"
        + ("; `PREVIOUS` is a folder with the weights it went on from." if c.init else ".")
    )
    return {
        "init": "scoregate/weights/precision-minilm (before)" if c.init == "shipped" else c.init,
        "seed": c.seed,
        "max_length": c.max_length,
        "hardware": f"one {hardware}",
        "command": command,
        "selection": selection,
    }


def _candidates(names: list[str] | None) -> tuple[Candidate, ...]:
    if not names:
        return DEFAULT_CANDIDATES
    known = {c.name: c for c in DEFAULT_CANDIDATES}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown candidate(s) {unknown}; choose from {sorted(known)}")
    return tuple(known[n] for n in names)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="where the chosen model goes")
    ap.add_argument("--data-dir", type=Path, required=True, help="CANNOT negation TSV folder")
    ap.add_argument("--base", help="MiniLM bi-encoder folder (default: the packaged one)")
    ap.add_argument("--device", default="auto", help="'auto' (a GPU when visible), 'cpu'...")
    ap.add_argument("--candidates", nargs="*", help="names from DEFAULT_CANDIDATES")
    ap.add_argument("--max-pairs", type=int, help="cut every candidate's data (smoke runs)")
    ap.add_argument("--epochs", type=int, help="override every candidate's epochs (smoke runs)")
    ap.add_argument(
        "--score-pairs",
        type=Path,
        help="JSONL of {query, content} every candidate scores (to out/scores/NAME.json)",
    )
    ap.add_argument("--keep-all", action="store_true", help="save every candidate too")
    ap.add_argument(
        "--init",
        help="start the candidates that go on from the shipped model from this model folder"
        " instead (e.g. an earlier version's weights, to reproduce a version)",
    )
    args = ap.parse_args(argv)
    cands = _candidates(args.candidates)
    if args.init:
        if not any(c.init for c in cands):
            raise SystemExit(
                "--init applies to the candidates that go on from a trained model"
                " (warm-...); none of those is selected"
            )
        cands = tuple(replace(c, init=args.init) if c.init else c for c in cands)
    if args.epochs:
        cands = tuple(replace(c, epochs=args.epochs) for c in cands)
    if args.max_pairs:
        cands = tuple(replace(c, max_pairs=args.max_pairs) for c in cands)
    pairs = read_pairs(args.score_pairs) if args.score_pairs else None
    sweep(args.out, args.data_dir, cands, args.base, args.device, pairs, args.keep_all)
    return 0


def read_pairs(path: Path) -> list[tuple[str, str]]:
    """(query, content) pairs from a JSONL file of ``{"query": ..., "content": ...}``."""
    pairs: list[tuple[str, str]] = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if not isinstance(row.get("query"), str) or not isinstance(row.get("content"), str):
                raise SystemExit(f"{path}:{n}: each line needs string 'query' and 'content'")
            pairs.append((row["query"], row["content"]))
    return pairs


if __name__ == "__main__":
    raise SystemExit(main())
