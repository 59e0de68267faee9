"""The minimal-edit data, the training mix's labels and the sweep's split and figures."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from scoregate_training import sweep as sweep_module
from scoregate_training import train
from scoregate_training.card import card_text
from scoregate_training.dataset import (
    VIOLATION_LABELS,
    Mix,
    build_training_data,
    edit_pairs,
    read_edits,
    read_realistic,
    realistic_pairs,
)
from scoregate_training.figures import auroc, quantile
from scoregate_training.negation_data import SemRow
from scoregate_training.sweep import (
    DEFAULT_CANDIDATES,
    MIN_NEGATION_AUROC,
    SHIPPED_MODEL,
    Candidate,
    _card_params,
    as_stored,
    choice_score,
    is_validation,
    main,
    read_pairs,
    run_candidate,
    validate,
)
from scoregate_training.train import HEAD_LR_MULT, SAVED_MAX_LENGTH, TRAIN_MAX_LENGTH, TrainReport

EDIT_WHYS = {
    "includes_excluded",
    "ignores_preference",
    "contradicts_request_facts",
    "wrong_question",
}


def test_every_edit_belongs_to_a_request_and_differs_from_its_answers() -> None:
    requests = {str(r["query"]): r for r in read_realistic()}
    edits = read_edits()
    assert len(edits) >= 1000
    for e in edits:
        source = requests[str(e["query"])]
        assert e["why"] in EDIT_WHYS, e
        assert e["text"] not in source["faithful"], e  # type: ignore[operator]


def test_edit_pairs_take_their_violation_label_each_round() -> None:
    edits = [{"query": "q", "text": "a", "why": "includes_excluded"}]
    pairs = edit_pairs(edits, rounds=3)
    assert len(pairs) == 3
    assert {(p.label, p.source) for p in pairs} == {(0.0, "edit-includes_excluded")}


def test_the_format_label_is_the_mix_setting() -> None:
    row = {
        "query": "Three tips, as a numbered list.",
        "faithful": ["1. a\n2. b\n3. c"],
        "violating": [{"text": "a, b, c", "why": "breaks_format"}],
    }
    pairs = realistic_pairs([row, row], 1, random.Random(0), format_label=0.9)
    assert {p.label for p in pairs if p.source == "realistic-breaks_format"} == {0.9}
    assert VIOLATION_LABELS["breaks_format"] == Mix().format_label


def test_a_request_and_its_edits_fall_on_the_same_side() -> None:
    rows = read_realistic()
    held = [r for r in rows if is_validation(r)]
    assert 0.08 < len(held) / len(rows) < 0.17  # one in eight, by hash
    # same words, other spacing and case: same side
    assert is_validation({"query": " ".join(str(held[0]["query"]).upper().split())})
    for e in read_edits()[:200]:
        source = next(r for r in rows if r["query"] == e["query"])
        assert is_validation(e) == is_validation(source)


def test_build_training_data_takes_the_given_requests_and_edits(tmp_path: Path) -> None:
    sem = ["premise\thypothesis\tlabel"] + [
        f"S{g} is good.\tS{g} is not good.\t1\nS{g} is good.\tS{g} is fine.\t0" for g in range(20)
    ]
    (tmp_path / "sem_anto_neg_dev.tsv").write_text("\n".join(sem) + "\n")
    (tmp_path / "nan_nli.tsv").write_text("sentence\tnegated\nA holds.\tA fails.\n")
    row = {"query": "Soup, no onions?", "faithful": ["Leek soup."], "violating": []}
    edit = {"query": "Soup, no onions?", "text": "Onion soup.", "why": "includes_excluded"}
    mix = Mix(plain=5, excl_ok=5, excl_bad=5, off_topic=5, negated=5, realistic_rounds=2)
    data = build_training_data(tmp_path, 1, mix, realistic=[row], edits=[edit])
    got = [(p.content, p.label) for p in data.pairs if p.query == "Soup, no onions?"]
    assert sorted(got) == [("Leek soup.", 1.0)] * 2 + [("Onion soup.", 0.0)] * 2


def test_auroc_and_quantile() -> None:
    assert auroc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert auroc([0.5], [0.5]) == 0.5
    assert quantile([0.1, 0.2, 0.3, 0.4, 0.5], 0.5) == 0.3


class _Scorer:
    """Scores a pair by a lookup on its answer (0.5 when unknown)."""

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> list[float]:
        return [self.scores.get(a, 0.5) for _, a in pairs]


def test_validate_reads_faithful_answers_above_violations_and_edits() -> None:
    rows = [
        {
            "query": f"q{i}",
            "faithful": [f"good{i}"],
            "violating": [
                {"text": f"bad{i}", "why": "wrong_question"},
                {"text": f"form{i}", "why": "breaks_format"},
            ],
        }
        for i in range(4)
    ]
    edits = [{"query": "q0", "text": "edited0", "why": "includes_excluded"}]
    scores = {f"good{i}": 0.9 for i in range(4)} | {f"bad{i}": 0.1 for i in range(4)}
    scores |= {f"form{i}": 0.6 for i in range(4)} | {"edited0": 0.95, "S.": 0.9, "not S.": 0.1}
    heldout = [SemRow("S", "S.", False), SemRow("S", "not S.", True)]
    m = validate(_Scorer(scores), rows, edits, heldout)
    assert m["AUROC faithful vs edits"] == 0.0  # the one edit beats every faithful answer
    assert m["P(f>v) within request"] == pytest.approx((0.5 + 1 + 1 + 1) / 4)
    assert m["mean soft"] == pytest.approx(0.6)
    assert m["SemAntoNeg AUROC"] == 1.0
    assert choice_score(m) > 0
    assert choice_score({**m, "SemAntoNeg AUROC": MIN_NEGATION_AUROC - 0.01}) == -1.0


def test_the_sweep_refuses_an_unknown_candidate() -> None:
    with pytest.raises(SystemExit, match="unknown candidate"):
        main(["--out", "x", "--data-dir", "y", "--candidates", "nope"])
    assert len({c.name for c in DEFAULT_CANDIDATES}) == len(DEFAULT_CANDIDATES)


def test_a_warm_candidate_trains_on_from_the_shipped_model_without_a_head_boost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert (SHIPPED_MODEL / "model.safetensors").is_file()
    seen: list[tuple[str | None, float]] = []
    data = SimpleNamespace(pairs=[], heldout=[], summary=lambda: {})
    monkeypatch.setattr(sweep_module, "build_training_data", lambda *a, **k: data)
    monkeypatch.setattr(sweep_module, "new_cross_encoder", lambda seed, base, device: base)
    monkeypatch.setattr(
        sweep_module, "fit", lambda ce, pairs, **kw: seen.append((ce, kw["head_lr_mult"])) or 0.0
    )
    warm = next(c for c in DEFAULT_CANDIDATES if c.init == "shipped")
    for c in (warm, Candidate("new")):
        run_candidate(c, Path("x"), [], [], "base-dir", "cpu")
    # the warm one starts from the shipped weights at the encoder's rate; a new head
    # starts from the given base and learns faster
    assert seen == [(str(SHIPPED_MODEL), 1.0), ("base-dir", HEAD_LR_MULT)]


def test_score_pairs_are_read_in_order_and_a_bad_line_is_named(tmp_path: Path) -> None:
    good = tmp_path / "pairs.jsonl"
    good.write_text('{"query": "q1", "content": "c1"}\n\n{"query": "q2", "content": "c2"}\n')
    assert read_pairs(good) == [("q1", "c1"), ("q2", "c2")]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "q1", "content": "c1"}\n{"query": "q2"}\n')
    with pytest.raises(SystemExit, match="bad.jsonl:2: each line needs"):
        read_pairs(bad)


def test_a_candidate_is_measured_as_stored_with_the_stored_window() -> None:
    torch = pytest.importorskip("torch")

    class _CE:
        model = torch.nn.Linear(2, 1)
        max_seq_length = TRAIN_MAX_LENGTH

    ce = _CE()
    ce.model.weight.data = torch.tensor([[0.1, 1 / 3]])
    ce.model.train()
    as_stored(ce)
    assert ce.max_seq_length == SAVED_MAX_LENGTH > TRAIN_MAX_LENGTH
    assert not ce.model.training
    assert ce.model.weight.dtype == torch.float32
    assert ce.model.weight[0, 1].item() == torch.tensor(1 / 3).half().float().item()


def test_init_points_the_warm_candidates_at_another_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str | None]] = []

    def fake_sweep(out: Path, data_dir: Path, cands: tuple[Candidate, ...], *rest: object) -> None:
        seen.extend((c.name, c.init) for c in cands)

    monkeypatch.setattr("scoregate_training.sweep.sweep", fake_sweep)
    warm = next(c.name for c in DEFAULT_CANDIDATES if c.init)
    new = next(c.name for c in DEFAULT_CANDIDATES if not c.init)
    args = ["--out", str(tmp_path), "--data-dir", "x", "--candidates", warm, new]
    main([*args, "--init", "old-weights"])
    assert seen == [(warm, "old-weights"), (new, None)]


def test_fit_gives_the_head_its_learning_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    seen: list[tuple[float, float]] = []

    def fake_optimizer(model: object, lr: float, head_lr: float, total: int) -> tuple[None, None]:
        seen.append((lr, head_lr))
        return None, None

    class _CE:
        model = torch.nn.Linear(1, 1)

    monkeypatch.setattr(train, "_optimizer", fake_optimizer)
    for mult in (1.0, HEAD_LR_MULT):
        train.fit(_CE(), [], epochs=0, batch_size=8, lr=1e-5, seed=0, head_lr_mult=mult)
    assert seen == [(1e-5, 1e-5), (1e-5, 1e-5 * HEAD_LR_MULT)]


def test_the_sweep_refuses_to_save_over_the_model_a_candidate_starts_from() -> None:
    warm = next(c.name for c in DEFAULT_CANDIDATES if c.init == "shipped")
    with pytest.raises(SystemExit, match="is where .* starts from"):
        main(["--out", str(SHIPPED_MODEL), "--data-dir", "x", "--candidates", warm])


def test_init_without_a_warm_candidate_is_refused() -> None:
    cold = next(c.name for c in DEFAULT_CANDIDATES if not c.init)
    with pytest.raises(SystemExit, match="none of those is selected"):
        main(["--out", "x", "--data-dir", "y", "--candidates", cold, "--init", "z"])


def test_a_warm_candidate_s_card_says_where_it_started_and_how_to_redo_it() -> None:
    pytest.importorskip("torch")
    report = TrainReport(Path("x"), 10, 1, 6.0, 0.3, {"plain": 10})
    warm = next(c for c in DEFAULT_CANDIDATES if c.init == "shipped")
    cold = next(c for c in DEFAULT_CANDIDATES if not c.init)
    card = card_text(report, _card_params(warm, "cpu", 1, []), "")
    assert "--init PREVIOUS" in card and "head included" in card and "20x that" not in card
    card = card_text(report, _card_params(cold, "cpu", 1, []), "")
    assert "--init" not in card and "the head is new" in card and "20x that" in card


def test_only_trains_on_the_named_request_files_and_their_edits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[list[str], list[str]]] = []

    every: list[list[str]] = []

    def fake_pairwise(
        c: Candidate, ce: object, data_dir: Path, rows: list, edits: list, every_row: list
    ) -> object:
        seen.append(([r["id"] for r in rows], [e["text"] for e in edits]))
        every.append([r["id"] for r in every_row])
        return SimpleNamespace(loss=0.0, pairs=0, steps=0, sources={}, heldout=[])

    monkeypatch.setattr(sweep_module, "new_cross_encoder", lambda seed, base, device: None)
    monkeypatch.setattr(sweep_module, "_train_pairwise", fake_pairwise)
    rows = [{"id": "t1-0001"}, {"id": "t9-0001"}, {"id": "t10-0002"}, {"id": "t91-0001"}]
    edits = [
        {"source_id": "t1-0001", "text": "old"},
        {"source_id": "t9-0001", "text": "new"},
    ]
    new = next(c for c in DEFAULT_CANDIDATES if c.only)
    assert {"t9", "t10"} <= set(new.only) and "t1" not in new.only
    run_candidate(new, Path("x"), rows, edits, None, "cpu")
    everything = Candidate("all", objective="pairwise")
    run_candidate(everything, Path("x"), rows, edits, None, "cpu")
    # "t91" is not "t9": the file is read from the id, not matched as a prefix
    assert seen == [
        (["t9-0001", "t10-0002"], ["new"]),
        (["t1-0001", "t9-0001", "t10-0002", "t91-0001"], ["old", "new"]),
    ]
    # the instruction anchors are drawn from every request file, whatever ``only`` says
    assert every == [[r["id"] for r in rows]] * 2
    with pytest.raises(SystemExit, match="no training request comes from"):
        run_candidate(
            Candidate("none", objective="pairwise", only=("t99",)),
            Path("x"),
            rows,
            edits,
            None,
            "cpu",
        )
