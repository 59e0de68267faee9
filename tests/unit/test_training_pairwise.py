"""Pairwise training: the triples it reads, its loss, and a real optimisation on a toy."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scoregate_training import sweep as sweep_module
from scoregate_training.dataset import VIOLATION_LABELS
from scoregate_training.pairs import Pair
from scoregate_training.pairwise import (
    FORMAT_ANCHOR_LABEL,
    Triple,
    blend,
    edited_from,
    fit_pairwise,
    hard_triples,
    instruction_anchors,
    neighbour_triples,
    off_topic_anchors,
    pairwise_loss,
    ranking_triples,
)
from scoregate_training.sweep import (
    DEFAULT_CANDIDATES,
    NEWER_REQUEST_SETS,
    SHIPPED_MODEL,
    run_candidate,
)

ROWS: list[dict[str, Any]] = [
    {
        "query": "A pasta recipe without garlic?",
        "faithful": ["Lemon butter spaghetti with parsley.", "Tomato and basil penne, no garlic."],
        "violating": [
            {"text": "Aglio e olio: lots of garlic.", "why": "includes_excluded"},
            {"text": "lemon butter spaghetti", "why": "breaks_format"},
        ],
    },
    {
        "query": "How long do I boil an egg?",
        "faithful": ["Nine minutes for a firm yolk."],
        "violating": [{"text": "Eggs are rich in protein.", "why": "wrong_question"}],
    },
]


def test_each_violation_and_edit_becomes_one_triple_and_a_broken_form_none() -> None:
    edits = [
        {
            "query": ROWS[0]["query"],
            "text": "Tomato and basil penne, with garlic.",
            "why": "includes_excluded",
        },
        {"query": "a request held back", "text": "x", "why": "wrong_question"},
    ]
    triples = ranking_triples(ROWS, edits, random.Random(0))
    assert len(triples) == 3  # two violations (the broken form left out) and one edit
    assert "lemon butter spaghetti" not in {t.worse for t in triples}
    (edit,) = [t for t in triples if t.source == "edit-includes_excluded"]
    assert edit.better == "Tomato and basil penne, no garlic."  # the answer it came from
    egg = next(t for t in triples if t.query.startswith("How long"))
    assert (egg.better, egg.worse, egg.source, egg.worse_label) == (
        "Nine minutes for a firm yolk.",
        "Eggs are rich in protein.",
        "wrong_question",
        VIOLATION_LABELS["wrong_question"],
    )
    assert triples == ranking_triples(ROWS, edits, random.Random(0))  # seeded


def test_every_faithful_pairs_each_violation_with_each_faithful_answer() -> None:
    triples = ranking_triples(ROWS, [], random.Random(0), every_faithful=True)
    garlic = sorted(t.better for t in triples if t.worse == "Aglio e olio: lots of garlic.")
    assert garlic == sorted(ROWS[0]["faithful"])  # both lengths above the violation
    assert len(triples) == 3  # the egg question has one faithful answer: one triple
    drawn = ranking_triples(ROWS, [], random.Random(0))
    assert len([t for t in drawn if t.worse == "Aglio e olio: lots of garlic."]) == 1


def test_an_edit_is_paired_with_the_closest_faithful_answer() -> None:
    answers = ["Roast the squash for 40 minutes.", "Steam the broccoli for 5 minutes."]
    assert edited_from(answers, "Steam the broccoli with butter for 5 minutes.") == answers[1]


def test_off_topic_anchors_pair_a_request_with_another_request_s_answer() -> None:
    anchors = off_topic_anchors(ROWS * 3, random.Random(1))
    assert anchors and all(p.label == 0.0 for p in anchors)
    for p in anchors:
        own = next(r for r in ROWS if r["query"] == p.query)
        assert p.content not in own["faithful"]


NEIGHBOURS: list[dict[str, Any]] = [
    {
        "domain": d,
        "query": q,
        "faithful": [a],
        "violating": [{"text": "No.", "why": "wrong_question"}],
    }
    for d, q, a in [
        ("Cooking", "A pasta recipe without garlic?", "Lemon pasta."),
        ("cooking", "How long do I boil an egg?", "Nine minutes."),
        ("cooking", "How long do I boil an egg, soft?", "Six."),
        ("taxes", "When is the filing deadline?", "April 15."),
    ]
]


def test_neighbour_triples_rank_a_request_s_answer_above_its_domain_neighbour_s() -> None:
    triples = neighbour_triples(NEIGHBOURS, random.Random(3))
    by_query = {t.query: t for t in triples}
    # the taxes request has no neighbour; domains match whatever their case
    assert set(by_query) == {r["query"] for r in NEIGHBOURS[:3]}
    assert all(t.source == "neighbour" and t.worse_label == 0.0 for t in triples)
    pasta = by_query["A pasta recipe without garlic?"]
    assert pasta.better == "Lemon pasta." and pasta.worse in {"Nine minutes.", "Six."}
    # the two egg requests share most of their words: neither answer is wrong for the other
    assert by_query["How long do I boil an egg?"].worse == "Lemon pasta."
    assert by_query["How long do I boil an egg, soft?"].worse == "Lemon pasta."
    assert triples == neighbour_triples(NEIGHBOURS, random.Random(3))  # seeded


def test_instruction_anchors_hold_compliant_answers_up_and_a_broken_form_near_them() -> None:
    rows = [{**ROWS[0], "kind": "instruction"}, {**ROWS[1], "kind": "plain"}]
    anchors = instruction_anchors(rows)
    assert [(p.content, p.label) for p in anchors] == [
        ("Lemon butter spaghetti with parsley.", 1.0),
        ("Tomato and basil penne, no garlic.", 1.0),
        ("lemon butter spaghetti", FORMAT_ANCHOR_LABEL),  # the garlic one is no anchor
    ]
    assert {p.query for p in anchors} == {ROWS[0]["query"]}


def test_blend_makes_the_extra_pairs_the_given_share() -> None:
    others = [Pair("q", f"o{i}", 0.0, "neg") for i in range(8)]
    extra = [Pair("q", "e", 1.0, "instruction-faithful")]
    mixed = blend(others, extra, 1 / 3, random.Random(0))
    assert len(mixed) == 12 and sum(p.source != "neg" for p in mixed) == 4
    assert sorted(p.content for p in mixed if p.source == "neg") == sorted(
        p.content for p in others
    )
    assert blend(others, extra, 0.0, random.Random(0)) == others
    assert blend(others, [], 0.5, random.Random(0)) == others
    with pytest.raises(ValueError, match="share"):
        blend(others, extra, 1.0, random.Random(0))


def test_hard_triples_keep_the_violations_the_model_scores_high_each_scored_once() -> None:
    class Model:
        def __init__(self) -> None:
            self.read: list[tuple[str, str]] = []

        def predict(self, pairs: list[tuple[str, str]], **kw: Any) -> list[float]:
            self.read += pairs
            return [0.95 if "garlic" in c else 0.2 for _, c in pairs]

    triples = ranking_triples(ROWS, [], random.Random(0), every_faithful=True)
    model = Model()
    kept = hard_triples(model, triples, 0.9)
    assert {t.worse for t in kept} == {"Aglio e olio: lots of garlic."}
    assert len(kept) == 2  # below both faithful answers of its request
    assert len(model.read) == 2  # the garlic answer and the egg one, once each
    assert hard_triples(model, [], 0.9) == []


def test_the_loss_is_free_past_the_margin_and_grows_when_the_order_is_wrong() -> None:
    torch = pytest.importorskip("torch")
    better, worse = torch.tensor([5.0, 0.0]), torch.tensor([0.0, 5.0])
    per = [math.log1p(math.exp(1.0 - 5.0)), math.log1p(math.exp(1.0 + 5.0))]
    assert pairwise_loss(better, worse, 1.0).item() == pytest.approx(sum(per) / 2)
    assert pairwise_loss(better[:1], worse[:1], 1.0).item() < 0.02
    assert pairwise_loss(worse[:1], better[:1], 1.0).item() > 5.9


class _Encoding(dict[str, Any]):
    def to(self, device: object) -> _Encoding:
        return self


class _ToyCrossEncoder:
    """A cross-encoder reduced to one feature: whether the answer says "good"."""

    def __init__(self) -> None:
        import torch

        class Net(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.layer = torch.nn.Linear(2, 1)
                torch.nn.init.zeros_(self.layer.weight)
                torch.nn.init.zeros_(self.layer.bias)

            @property
            def device(self) -> object:
                return torch.device("cpu")

            def forward(self, features: Any) -> SimpleNamespace:
                return SimpleNamespace(logits=self.layer(features))

        self.model = Net()

    def tokenizer(self, queries: list[str], contents: list[str], **kw: object) -> _Encoding:
        import torch

        rows = [[1.0, 1.0 if "good" in c else 0.0] for c in contents]
        return _Encoding(features=torch.tensor(rows))

    def score(self, content: str) -> float:
        import torch

        with torch.no_grad():
            enc = self.tokenizer([""], [content])
            return float(self.model(**enc).logits.item())


def test_fit_pairwise_ranks_the_better_answer_above_the_worse() -> None:
    pytest.importorskip("torch")
    ce = _ToyCrossEncoder()
    triples = [Triple("q", "a good answer", "a bad answer", "t")] * 64
    anchors = [Pair("p", "a good one", 1.0, "neg"), Pair("p", "not it", 0.0, "neg")]
    loss = fit_pairwise(ce, triples, anchors, lr=0.5, batch_size=8, margin=1.0)
    assert ce.score("good") - ce.score("bad") > 0.5
    assert loss < math.log1p(math.e)  # below the first step's softplus(1) + anchors
    assert not ce.model.training
    with pytest.raises(ValueError, match="no triples"):
        fit_pairwise(ce, [], anchors, lr=0.1)


def test_label_worse_also_pulls_the_worse_answer_to_its_label() -> None:
    pytest.importorskip("torch")
    triples = [Triple("q", "a good answer", "a bad answer", "t", 0.0)] * 64
    ranked, labelled = _ToyCrossEncoder(), _ToyCrossEncoder()
    fit_pairwise(ranked, triples, [], lr=0.5, margin=1.0, anchor=0.5)
    fit_pairwise(labelled, triples, [], lr=0.5, margin=1.0, anchor=0.5, label_worse=True)
    # the bad answer's own target (0.0) pulls its logit below the ranking-only one
    assert labelled.score("bad") < ranked.score("bad")


def test_a_pairwise_candidate_trains_triples_with_negation_anchors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, Any] = {}
    negs = SimpleNamespace(pairs=[Pair("p", "h", 1.0, "neg")], heldout=["held"])
    monkeypatch.setattr(sweep_module, "check_data_dir", lambda d: d)
    monkeypatch.setattr(sweep_module, "negation_pairs", lambda d, mix, seed: negs)
    monkeypatch.setattr(sweep_module, "new_cross_encoder", lambda seed, base, device: base)

    def fake_fit(ce: str, triples: list[Triple], anchors: list[Pair], **kw: Any) -> float:
        seen.update(ce=ce, triples=triples, anchors=anchors, **kw)
        return 0.25

    monkeypatch.setattr(sweep_module, "fit_pairwise", fake_fit)
    (
        plain,
        labelled,
        every,
        second,
        instr,
        instr256,
        newer256,
        neighbour,
        neighbour2,
        alone,
        mined,
    ) = [c for c in DEFAULT_CANDIDATES if c.objective == "pairwise"]
    ce, info = run_candidate(plain, Path("neg"), ROWS, [], None, "cpu")
    assert ce == str(SHIPPED_MODEL)  # goes on from the shipped weights
    assert len(seen["triples"]) == 2 and seen["anchors"] == negs.pairs
    assert (seen["lr"], seen["margin"], seen["label_worse"]) == (plain.lr, plain.margin, False)
    assert info["heldout"] == ["held"] and info["pairs"] == 2
    assert info["sources"] == {"triple-includes_excluded": 1, "triple-wrong_question": 1}
    run_candidate(labelled, Path("neg"), ROWS * 4, [], None, "cpu")
    assert seen["label_worse"] is True and seen["anchor"] == labelled.anchor
    sources = {p.source for p in seen["anchors"]}
    assert sources == {"neg", "realistic-off-topic"}  # off-topic answers join the anchors
    assert len(seen["triples"]) == 8  # one faithful answer drawn per violation
    run_candidate(every, Path("neg"), ROWS * 4, [], None, "cpu")
    assert len(seen["triples"]) == 12  # the garlic violation below both faithful answers
    # the second pass pairs the same way, over the newest request files only
    assert second.every_faithful and second.label_worse and second.only
    assert not second.instruction_share and instr.instruction_share
    assert replace(instr, name=second.name, instruction_share=0.0) == second
    rows = [{**r, "id": f"t9-{i:04d}", "kind": "instruction"} for i, r in enumerate(ROWS * 4)]
    run_candidate(instr, Path("neg"), rows, [], None, "cpu")
    sources = Counter(p.source for p in seen["anchors"])
    assert sources["instruction-faithful"] and sources["instruction-format"]
    n = sources["neg"] + sources["realistic-off-topic"]
    assert sum(sources.values()) == n + round(n / 2)  # a third of the anchors
    # the same at the track's reading length, and its pass over the newer requests
    assert instr.max_length == 128 and instr256.max_length == newer256.max_length == 256
    assert replace(instr256, name=instr.name, max_length=128) == instr
    assert replace(newer256, name=instr256.name, only=instr256.only) == instr256
    assert set(newer256.only).isdisjoint(instr256.only)
    rows = [
        {**r, "id": f"t{9 + i % 11}-{i:04d}", "query": f"{r['query']} ({i})"}
        for i, r in enumerate(ROWS * 11)
    ]
    run_candidate(newer256, Path("neg"), rows, [], None, "cpu")
    newer = {r["query"] for r in rows if r["id"].split("-")[0] in NEWER_REQUEST_SETS}
    assert len(newer) == 10 and {t.query for t in seen["triples"]} == newer
    assert seen["max_length"] == 256
    # the neighbour pass: the newer requests' triples and every request's neighbour
    assert replace(neighbour, name=newer256.name, neighbours=False, max_length=256) == newer256
    rows = [
        {**r, "id": f"t{9 + i % 11}-{i:04d}", "domain": "food", "query": f"{r['query']} {i}"}
        for i, r in enumerate(NEIGHBOURS * 11)
    ]
    run_candidate(neighbour, Path("neg"), rows, [], None, "cpu")
    count = Counter(t.source for t in seen["triples"])
    assert count["neighbour"] == len(rows)  # from every request file, not only the newer
    assert count["wrong_question"] == len(
        [r for r in rows if r["id"].split("-")[0] in NEWER_REQUEST_SETS]
    )
    run_candidate(neighbour2, Path("neg"), rows, [], None, "cpu")
    assert Counter(t.source for t in seen["triples"])["neighbour"] == 2 * len(rows)
    assert seen["lr"] == 2e-5
    # the neighbour triples alone: no violation is ranked
    run_candidate(alone, Path("neg"), rows, [], None, "cpu")
    assert Counter(t.source for t in seen["triples"]) == {"neighbour": 2 * len(rows)}
    # the mined pass: every request file, only the violations the start scores high
    assert not mined.only and mined.mine_above == 0.9 and mined.instruction_share
